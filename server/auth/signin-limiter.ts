import { RateLimiterMemory } from 'rate-limiter-flexible';

export interface SigninLimiterOptions {
  /** Failed sign-ins for one account from one address before backoff starts (SIGNIN_RATE_LIMIT). */
  failuresBeforeBackoff: number;
  /** The first wait; each further failure doubles it. */
  firstBackoffS?: number;
  maxBackoffS?: number;
  /** Failures are forgotten this long after the last one. */
  forgetAfterS?: number;
  /** An address an account signed in from is "known" to it this long. */
  knownForS?: number;
}

/**
 * Sign-in limiting that one attacker cannot turn against an office (issue 11, docs/decisions.md):
 * only failed attempts count, never successful ones, and they count per account *and* address.
 *
 * - One account from one address: `failuresBeforeBackoff` failures, then a wait that doubles with
 *   every further failure (5 s, 10 s, 20 s … 15 min). Nobody else is slowed down by it.
 * - One account from everywhere (a spread-out guess at one password): 5× as many failures, then
 *   the same doubling wait for the account, except from addresses it has signed in from before.
 * - One address against every account (password spraying): 10× as many failures, then the same
 *   wait for that address, except for accounts that have signed in from it before — an office
 *   behind one NAT keeps working for its people.
 *
 * A blocked attempt is refused before the password is checked and does not count. Counts live in
 * this process (rate-limiter-flexible's memory store): replicas each keep their own.
 */
export class SigninLimiter {
  private readonly failures: RateLimiterMemory;
  private readonly blocks: RateLimiterMemory;
  private readonly known: RateLimiterMemory;
  private readonly first: number;
  private readonly max: number;
  private readonly forget: number;
  private readonly knownFor: number;
  private readonly thresholds: { pair: number; account: number; address: number };

  constructor(options: SigninLimiterOptions) {
    this.first = options.firstBackoffS ?? 5;
    this.max = options.maxBackoffS ?? 900;
    this.forget = options.forgetAfterS ?? 3600;
    // At most ~24 days: the memory store keeps each entry with a setTimeout (a 32-bit delay).
    this.knownFor = Math.min(options.knownForS ?? 14 * 86_400, 24 * 86_400);
    const n = options.failuresBeforeBackoff;
    this.thresholds = { pair: n, account: 5 * n, address: 10 * n };
    // Points are only stored and read here, never consumed, so the limit itself is unused.
    this.failures = new RateLimiterMemory({ keyPrefix: 'signin-failures', points: 1, duration: this.forget });
    this.blocks = new RateLimiterMemory({ keyPrefix: 'signin-blocks', points: 1, duration: this.max });
    this.known = new RateLimiterMemory({ keyPrefix: 'signin-known', points: 1, duration: this.knownFor });
  }

  private static keys(account: string, address: string) {
    const a = account.trim().toLowerCase();
    return { pair: `p\n${a}\n${address}`, account: `a\n${a}`, address: `i\n${address}` };
  }

  /** Milliseconds until `account` may try again from `address`; 0 when it may now. */
  async retryAfterMs(account: string, address: string): Promise<number> {
    const k = SigninLimiter.keys(account, address);
    const waits = [await this.blockedMs(k.pair)];
    if (!(await this.known.get(k.pair))) waits.push(await this.blockedMs(k.account), await this.blockedMs(k.address));
    return Math.max(...waits);
  }

  async failed(account: string, address: string): Promise<void> {
    const k = SigninLimiter.keys(account, address);
    await this.count(k.pair, this.thresholds.pair);
    await this.count(k.account, this.thresholds.account);
    await this.count(k.address, this.thresholds.address);
  }

  /** The pair starts afresh, and the address is known to the account from now on. */
  async succeeded(account: string, address: string): Promise<void> {
    const k = SigninLimiter.keys(account, address);
    await this.failures.delete(k.pair);
    await this.blocks.delete(k.pair);
    await this.known.set(k.pair, 1, this.knownFor);
  }

  private async blockedMs(key: string): Promise<number> {
    const res = await this.blocks.get(key);
    return res && res.msBeforeNext > 0 ? res.msBeforeNext : 0;
  }

  private async count(key: string, threshold: number): Promise<void> {
    const failures = ((await this.failures.get(key))?.consumedPoints ?? 0) + 1;
    // Set afresh each time, so the count is forgotten `forget` after the last failure, not the first.
    await this.failures.set(key, failures, this.forget);
    if (failures < threshold) return;
    const waitS = Math.min(this.max, this.first * 2 ** (failures - threshold));
    await this.blocks.set(key, 1, waitS);
  }
}
