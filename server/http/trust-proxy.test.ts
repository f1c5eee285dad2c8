import { describe, expect, it } from 'vitest';
import { fastifyTrustProxy, parseTrustProxy } from './trust-proxy';

describe('TRUST_PROXY', () => {
  it('is off unless set', () => {
    for (const v of [undefined, '', ' ', '0', 'false', 'FALSE']) expect(parseTrustProxy(v)).toBe(false);
  });

  it('takes a hop count, trusting the peer and the hops behind it up to the count', () => {
    expect(parseTrustProxy('2')).toBe(2);
    const trust = fastifyTrustProxy(2) as (a: string, hop: number) => boolean;
    expect([0, 1, 2].map((hop) => trust('203.0.113.9', hop))).toEqual([true, true, false]);
    expect(() => parseTrustProxy('99')).toThrow(/at most 20/);
  });

  it('takes addresses, CIDR ranges and proxy-addr range names', () => {
    expect(parseTrustProxy('10.0.0.0/8, 192.168.1.7,fd00::/8, LOOPBACK')).toEqual(['10.0.0.0/8', '192.168.1.7', 'fd00::/8', 'loopback']);
  });

  it('refuses true and anything that is not an address or range, naming the entry', () => {
    expect(() => parseTrustProxy('true')).toThrow(/TRUST_PROXY=true/);
    expect(() => parseTrustProxy('10.0.0.0/33')).toThrow(/"10.0.0.0\/33"/);
    expect(() => parseTrustProxy('proxy.example.com')).toThrow(/"proxy.example.com" is not an IP address/);
    expect(() => parseTrustProxy('10.0.0.1/8/8')).toThrow(/not an IP address/);
    expect(() => parseTrustProxy('::1/129')).toThrow(/not an IP address/);
  });
});
