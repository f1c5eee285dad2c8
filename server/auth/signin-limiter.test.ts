import { describe, expect, it } from 'vitest';
import { SigninLimiter } from './signin-limiter';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('SigninLimiter', () => {
  it('lets failures up to the limit through, then makes one account from one address wait, doubling each time up to the cap', async () => {
    const l = new SigninLimiter({ failuresBeforeBackoff: 3, firstBackoffS: 10, maxBackoffS: 35 });
    for (let i = 0; i < 2; i++) {
      expect(await l.retryAfterMs('a@x', '1.1.1.1')).toBe(0);
      await l.failed('a@x', '1.1.1.1');
    }
    expect(await l.retryAfterMs('a@x', '1.1.1.1')).toBe(0);
    const waits = [];
    for (let i = 0; i < 4; i++) {
      await l.failed('a@x', '1.1.1.1');
      waits.push(Math.round((await l.retryAfterMs('A@X ', '1.1.1.1')) / 1000));
    }
    // 10 s, 20 s, then 40 s capped at 35 s; the account's name is compared without case or spaces.
    expect(waits).toEqual([10, 20, 35, 35]);
    expect(await l.retryAfterMs('a@x', '1.1.1.2')).toBe(0);
    expect(await l.retryAfterMs('b@x', '1.1.1.1')).toBe(0);
  });

  it('lets the wait run out, and a success forgets the pair', async () => {
    const l = new SigninLimiter({ failuresBeforeBackoff: 1, firstBackoffS: 0.1 });
    await l.failed('a@x', '1.1.1.1');
    expect(await l.retryAfterMs('a@x', '1.1.1.1')).toBeGreaterThan(0);
    await sleep(150);
    expect(await l.retryAfterMs('a@x', '1.1.1.1')).toBe(0);
    await l.failed('a@x', '1.1.1.1');
    // The second failure waits twice as long.
    expect(await l.retryAfterMs('a@x', '1.1.1.1')).toBeGreaterThan(150);
    await l.succeeded('a@x', '1.1.1.1');
    expect(await l.retryAfterMs('a@x', '1.1.1.1')).toBe(0);
    await l.failed('a@x', '1.1.1.1');
    expect(await l.retryAfterMs('a@x', '1.1.1.1')).toBeLessThanOrEqual(100);
  });

  it('forgets failures a while after the last one', async () => {
    const l = new SigninLimiter({ failuresBeforeBackoff: 2, firstBackoffS: 10, forgetAfterS: 0.1 });
    await l.failed('a@x', '1.1.1.1');
    await sleep(150);
    await l.failed('a@x', '1.1.1.1');
    expect(await l.retryAfterMs('a@x', '1.1.1.1')).toBe(0);
  });

  it('holds back an address spraying many accounts, except for accounts that signed in from it before', async () => {
    const l = new SigninLimiter({ failuresBeforeBackoff: 2, firstBackoffS: 10 });
    await l.succeeded('regular@x', '9.9.9.9');
    for (let i = 0; i < 19; i++) await l.failed(`victim${i}@x`, '9.9.9.9');
    expect(await l.retryAfterMs('newcomer@x', '9.9.9.9')).toBe(0);
    await l.failed('victim19@x', '9.9.9.9');
    expect(await l.retryAfterMs('newcomer@x', '9.9.9.9')).toBeGreaterThan(9000);
    expect(await l.retryAfterMs('regular@x', '9.9.9.9')).toBe(0);
    expect(await l.retryAfterMs('newcomer@x', '9.9.9.10')).toBe(0);
  });

  it('holds back an account guessed at from many addresses, except from addresses it signed in from before', async () => {
    const l = new SigninLimiter({ failuresBeforeBackoff: 2, firstBackoffS: 10 });
    await l.succeeded('a@x', '9.9.9.9');
    // Ten failures over ten addresses: no pair reaches its own limit, the account reaches 5 × 2.
    for (let i = 0; i < 9; i++) await l.failed('a@x', `203.0.113.${i}`);
    expect(await l.retryAfterMs('a@x', '198.51.100.1')).toBe(0);
    await l.failed('a@x', '203.0.113.9');
    expect(await l.retryAfterMs('a@x', '198.51.100.1')).toBeGreaterThan(9000);
    expect(await l.retryAfterMs('a@x', '9.9.9.9')).toBe(0);
    expect(await l.retryAfterMs('b@x', '198.51.100.1')).toBe(0);
  });

  it('keeps "known" addresses longer than a 32-bit timer can wait without losing them', async () => {
    const l = new SigninLimiter({ failuresBeforeBackoff: 1, firstBackoffS: 10, knownForS: 365 * 86_400 });
    await l.succeeded('a@x', '9.9.9.9');
    await sleep(20);
    for (let i = 0; i < 5; i++) await l.failed('a@x', `203.0.113.${i}`);
    expect(await l.retryAfterMs('a@x', '9.9.9.9')).toBe(0);
  });
});
