import { isIP } from 'node:net';

/** TRUST_PROXY parsed: off, a hop count, or the proxies' addresses and ranges. */
export type TrustProxy = false | number | string[];

/**
 * Fastify's `trustProxy` for it. Fastify 5.12 ignores a bare number (a hop count cannot check the
 * immediate peer), so a count becomes proxy-addr's function form, trusting the socket's peer and
 * the hops behind it up to the count — Express's meaning. README says to use a count only where
 * nothing but the proxies reaches the port.
 */
export function fastifyTrustProxy(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return trust === 0 ? false : (_address: string, hop: number) => hop < trust;
  return trust;
}

// proxy-addr's (Fastify's) names for whole ranges.
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: unset, empty, `0` or `false` trusts no proxy (the socket's address is the client);
 * a number is how many proxies stand in front (the client is that many hops back in
 * X-Forwarded-For); otherwise a comma-separated list of the proxies' addresses or CIDR ranges
 * (`10.0.0.0/8, 192.168.1.7`, or `loopback`, `linklocal`, `uniquelocal`). `true` is refused:
 * trusting every sender lets any client name its own address and slip past the sign-in limits.
 */
export function parseTrustProxy(text: string | undefined): TrustProxy {
  const value = (text ?? '').trim();
  if (value === '' || value === '0' || value.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 20) throw new Error(`TRUST_PROXY: ${hops} proxy hops is not believable (at most 20)`);
    return hops;
  }
  if (value.toLowerCase() === 'true') {
    throw new Error("TRUST_PROXY=true would trust any client's X-Forwarded-For: give the number of proxies in front (e.g. 1) or their addresses (e.g. 10.0.0.0/8)");
  }
  const entries = value.split(',').map((s) => s.trim()).filter(Boolean);
  for (const entry of entries) {
    if (NAMED_RANGES.has(entry.toLowerCase())) continue;
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const maxPrefix = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= maxPrefix);
    if (!family || !prefixOk || extra !== undefined) {
      throw new Error(`TRUST_PROXY: "${entry.slice(0, 60)}" is not an IP address, a CIDR range (10.0.0.0/8) or one of loopback, linklocal, uniquelocal`);
    }
  }
  return entries.map((e) => (NAMED_RANGES.has(e.toLowerCase()) ? e.toLowerCase() : e));
}
