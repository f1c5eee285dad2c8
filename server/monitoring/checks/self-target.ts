import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { networkInterfaces } from 'node:os';
import type { TargetGuard } from './probe';

export const SELF_TARGET_MESSAGE = 'a check cannot point at Opsdeck itself';

/** Addresses that reach this machine whatever interface they name. */
function isLocalAddress(address: string, locals: Set<string>): boolean {
  const a = address.toLowerCase().replace(/^::ffff:/, '');
  if (a === '0.0.0.0' || a === '::' || a === '::1' || a.startsWith('127.')) return true;
  return locals.has(a);
}

function localAddresses(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(networkInterfaces())) for (const i of list ?? []) out.add(i.address.toLowerCase());
  return out;
}

/**
 * A guard that refuses connections to Opsdeck's own HTTP server: a check is a request the server
 * makes to an address an operator chose, and pointed at itself it would be a loop (or a way to
 * reach its API from inside). Opsdeck is "itself" at any local address on the port it listens
 * on, and at PUBLIC_URL's host and port. `ports` is read on each call: the listening port is
 * known only once the server listens.
 */
export function selfTargetGuard(own: () => { ports: number[]; publicUrl?: string }): TargetGuard {
  return async (host, port) => {
    const { ports, publicUrl } = own();
    const name = host.toLowerCase().replace(/^\[|\]$/g, '');
    if (publicUrl) {
      try {
        const u = new URL(publicUrl);
        const publicPort = Number(u.port) || (u.protocol === 'https:' ? 443 : 80);
        if (u.hostname.toLowerCase().replace(/^\[|\]$/g, '') === name && publicPort === port) return SELF_TARGET_MESSAGE;
      } catch {
        // A malformed PUBLIC_URL is refused by the configuration; nothing to compare here.
      }
    }
    if (!ports.includes(port)) return null;
    if (name === 'localhost' || name.endsWith('.localhost')) return SELF_TARGET_MESSAGE;
    let addresses: string[];
    if (net.isIP(name)) addresses = [name];
    else {
      try {
        addresses = (await lookup(name, { all: true })).map((a) => a.address);
      } catch {
        return null; // Does not resolve: it cannot reach us either (the check reports it down).
      }
    }
    const locals = localAddresses();
    return addresses.some((a) => isLocalAddress(a, locals)) ? SELF_TARGET_MESSAGE : null;
  };
}
