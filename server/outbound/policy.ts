/**
 * The one outbound policy (docs/decisions.md "One outbound policy"): where the console may
 * connect when it fetches on someone's behalf — checks, notification channels, Alertmanager,
 * exporters. It is decided on the address a connection is about to be made to, inside the
 * `lookup` that net, tls, http and undici call just before they connect, so a name that
 * resolves to an allowed address for a check at save time and to a refused one later (DNS
 * rebinding) is refused when it matters. Addresses given literally never reach a lookup: every
 * caller passes its host through `connectOptions`, which decides on those first.
 *
 * Imports nothing from the database or the app: the scrape worker thread uses it too.
 */
import dns from 'node:dns';
import { Resolver } from 'node:dns/promises';
import net, { type LookupFunction } from 'node:net';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';

export type OutboundPurpose = 'check' | 'channel' | 'alertmanager' | 'exporter';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
interface Network {
  text: string;
  range: [Address, number];
}

/** What the refusals call the one that wanted to connect. */
const SUBJECT: Record<OutboundPurpose, string> = { check: 'a check', channel: 'a notification channel', alertmanager: 'Alertmanager', exporter: 'an exporter' };

/**
 * Refused for everyone unless OUTBOUND_ALLOW names a network inside one of them: link-local
 * (where every large cloud serves instance metadata and credentials at 169.254.169.254), the
 * metadata and platform addresses that lie outside it, and "this host" addresses.
 */
const BUILT_IN: { cidr: string; what: string }[] = [
  { cidr: '169.254.0.0/16', what: 'a link-local address (cloud instance metadata lives here)' },
  { cidr: 'fe80::/10', what: 'a link-local address' },
  { cidr: 'fd00:ec2::/32', what: 'a cloud metadata address (AWS)' },
  // Where the others serve theirs over IPv6 (unique-local addresses, outside fe80::/10).
  { cidr: 'fd20:ce::254/128', what: 'a cloud metadata address (Google Cloud)' },
  { cidr: 'fd00:c1::a9fe:a9fe/128', what: 'a cloud metadata address (Oracle Cloud)' },
  { cidr: 'fd00:a9fe:a9fe::1/128', what: 'a cloud metadata address (Akamai / Linode)' },
  { cidr: 'fd00:42::42/128', what: 'a cloud metadata address (Scaleway)' },
  { cidr: 'fd00:100::100:200/128', what: 'a cloud metadata address (Alibaba Cloud)' },
  { cidr: '100.100.100.200/32', what: 'a cloud metadata address (Alibaba Cloud)' },
  { cidr: '168.63.129.16/32', what: 'a cloud platform address (Azure)' },
  { cidr: '192.0.0.192/32', what: 'a cloud metadata address (Oracle Cloud)' },
  { cidr: '0.0.0.0/8', what: 'not an address to connect to' },
  { cidr: '::/128', what: 'not an address to connect to' },
];
const BUILT_IN_NETWORKS = BUILT_IN.map((b) => ({ ...b, range: ipaddr.parseCIDR(b.cidr) as [Address, number] }));

/** A refusal by the outbound policy; `code` lets error classifiers tell it from a network error. */
export class OutboundRefused extends Error {
  readonly code = 'EOUTBOUND';
}

/**
 * The address a connection to `text` really reaches, or null when `text` is not an address.
 * IPv4-mapped (`::ffff:7f00:1`, what the URL parser makes of `[::ffff:127.0.0.1]`), IPv4-compatible
 * (`::7f00:1`), IPv4-translated (`::ffff:0:7f00:1`) and NAT64 (`64:ff9b::7f00:1`) forms are the
 * IPv4 address they carry; a zone (`%eth0`) is dropped.
 */
export function canonicalAddress(text: string): Address | null {
  const bare = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!net.isIP(bare)) return null;
  const addr = ipaddr.parse(bare);
  if (addr.kind() === 'ipv4') return addr;
  const v6 = addr as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  const p = v6.parts;
  const zero = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  const embedded = () => new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
  // ::a.b.c.d, except :: and ::1 themselves.
  if (zero(0, 6) && (p[6] !== 0 || p[7]! > 1)) return embedded();
  if (zero(0, 4) && p[4] === 0xffff && p[5] === 0) return embedded();
  if (p[0] === 0x64 && p[1] === 0xff9b && zero(2, 6)) return embedded();
  return v6;
}

const inNetwork = (addr: Address, network: [Address, number]) => addr.kind() === network[0].kind() && addr.match(network);

/**
 * `10.0.0.0/8, 192.168.1.5, fd00::/8` → networks; an address alone is its own /32 or /128.
 * An IPv6 form of IPv4 addresses (`::ffff:10.0.0.0/104`, `64:ff9b::/96`) is the IPv4 network it
 * carries, as decisions read such addresses: its prefix counts from bit 96.
 * Throws a message naming the setting and the entry when one is not a network.
 */
export function parseNetworks(text: string | undefined, setting: string): string[] {
  const out: string[] = [];
  for (const raw of (text ?? '').split(/[\s,]+/)) {
    const entry = raw.trim();
    if (!entry) continue;
    const [addrText, bitsText, ...rest] = entry.split('/');
    const addr = canonicalAddress(addrText!);
    const carried = addr?.kind() === 'ipv4' && addrText!.includes(':');
    const max = addr?.kind() === 'ipv4' && !carried ? 32 : 128;
    let bits = bitsText === undefined ? max : /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : NaN;
    if (!addr || rest.length || !(bits >= 0 && bits <= max)) throw new Error(`${setting}: "${entry.slice(0, 60)}" is not a network (write 10.0.0.0/8, 192.168.1.5 or fd00::/8)`);
    if (carried) {
      if (bits < 96) throw new Error(`${setting}: "${entry.slice(0, 60)}" is an IPv6 form of IPv4 addresses, so its prefix is at least /96 (write ::ffff:10.0.0.0/104 or 10.0.0.0/8)`);
      bits -= 96;
    }
    out.push(`${addr.toString()}/${bits}`);
  }
  return out;
}

export interface OutboundRules {
  /** OUTBOUND_ALLOW: when not empty, checks and channels reach only these networks. */
  allow: string[];
  /** OUTBOUND_DENY: networks checks and channels never reach. */
  deny: string[];
  /** OUTBOUND_RESOLVER: DNS servers names are resolved through (empty: the system's resolver). */
  resolver: string[];
}

/** Where the console itself listens: a target there would be a loop, or its own API from inside. */
export interface SelfAddress {
  ports: number[];
  publicUrl?: string;
}

export const SELF_MESSAGE = (purpose: OutboundPurpose) => `${SUBJECT[purpose]} cannot point at Opsdeck itself`;

export class OutboundPolicy {
  private readonly allow: Network[];
  private readonly deny: Network[];
  private readonly resolver: Resolver | null;

  constructor(
    rules: Partial<OutboundRules> = {},
    /** Read on each decision: the listening port is known only once the server listens. */
    private readonly self: () => SelfAddress = () => ({ ports: [] }),
  ) {
    const parse = (list: string[] | undefined) => (list ?? []).map((text) => ({ text, range: ipaddr.parseCIDR(text) as [Address, number] }));
    this.allow = parse(rules.allow);
    this.deny = parse(rules.deny);
    if (rules.resolver?.length) {
      this.resolver = new Resolver({ timeout: 5000, tries: 2 });
      this.resolver.setServers(rules.resolver);
    } else this.resolver = null;
  }

  /** Why `address:port` must not be reached for `purpose`, or null. `address` must be an IP address. */
  decide(address: string, port: number, purpose: OutboundPurpose): string | null {
    const addr = canonicalAddress(address);
    if (!addr) return null;
    if (this.isSelf(addr, port)) return SELF_MESSAGE(purpose);
    const shown = addr.toString();
    const subject = SUBJECT[purpose];
    // Exporters are the fleet an admin registered (private and loopback addresses by nature):
    // only the built-in refusals apply to them, not the lists for checks and channels.
    if (purpose !== 'exporter' && this.deny.some((n) => inNetwork(addr, n.range))) return `${subject} may not reach ${shown}: OUTBOUND_DENY refuses it`;
    const builtIn = BUILT_IN_NETWORKS.find((b) => inNetwork(addr, b.range));
    // A built-in refusal is lifted only by an OUTBOUND_ALLOW entry inside its range (e.g.
    // 169.254.169.253/32, AWS's DNS resolver), never by a broad one such as 0.0.0.0/0.
    if (builtIn && !this.allow.some((n) => n.range[1] >= builtIn.range[1] && inNetwork(addr, n.range))) return `${subject} may not reach ${shown}: it is ${builtIn.what}`;
    if (purpose !== 'exporter' && this.allow.length && !this.allow.some((n) => inNetwork(addr, n.range))) return `${subject} may not reach ${shown}: it is outside OUTBOUND_ALLOW`;
    return null;
  }

  private isSelf(addr: Address, port: number): boolean {
    const { ports, publicUrl } = this.self();
    const pub = publicTarget(publicUrl);
    if (pub && pub.port === port && canonicalAddress(pub.host)?.toString() === addr.toString()) return true;
    if (!ports.includes(port)) return false;
    const range = addr.range();
    if (range === 'loopback' || range === 'unspecified') return true;
    const text = addr.toString();
    for (const list of Object.values(networkInterfaces())) for (const i of list ?? []) if (canonicalAddress(i.address)?.toString() === text) return true;
    return false;
  }

  /** Decided on the name before any lookup: PUBLIC_URL's host and port are the console itself. */
  private nameRefusal(name: string, port: number, purpose: OutboundPurpose): string | null {
    const pub = publicTarget(this.self().publicUrl);
    return pub && pub.port === port && pub.host === name.toLowerCase().replace(/\.$/, '') ? SELF_MESSAGE(purpose) : null;
  }

  /**
   * Options for net.connect, tls.connect and http(s).request to `host:port`: a `lookup` that
   * decides on every address the name resolves to (refused ones are never connected to; when
   * none is left the connection fails with the refusal). Throws OutboundRefused at once when
   * `host` is an address (or PUBLIC_URL's name) the policy refuses: a literal address is
   * connected to without any lookup.
   */
  connectOptions(host: string, port: number, purpose: OutboundPurpose): { lookup: LookupFunction } {
    const bare = host.replace(/^\[|\]$/g, '');
    const refused = net.isIP(bare) ? this.decide(bare, port, purpose) : this.nameRefusal(bare, port, purpose);
    if (refused) throw new OutboundRefused(refused);
    return { lookup: this.lookupFor(port, purpose) };
  }

  /**
   * Save and test time: why `host:port` would be refused, or null. A name is refused when every
   * address it resolves to is; one that does not resolve is not a matter of policy (the check or
   * channel reports it when it runs).
   */
  async refusal(host: string, port: number, purpose: OutboundPurpose): Promise<string | null> {
    const bare = host.replace(/^\[|\]$/g, '');
    try {
      this.connectOptions(bare, port, purpose);
    } catch (error) {
      if (error instanceof OutboundRefused) return error.message;
      throw error;
    }
    if (net.isIP(bare)) return null;
    let found: dns.LookupAddress[];
    try {
      found = await this.resolve(bare, 0);
    } catch {
      return null;
    }
    const reasons = found.map((a) => this.decide(a.address, port, purpose));
    return reasons.length && reasons.every(Boolean) ? reasons[0]! : null;
  }

  /** `url`'s host and port through refusal(); a URL that does not parse is left to the caller's validation. */
  async urlRefusal(url: string, purpose: OutboundPurpose): Promise<string | null> {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return null;
    }
    return this.refusal(u.hostname, Number(u.port) || (u.protocol === 'https:' ? 443 : 80), purpose);
  }

  private lookupFor(port: number, purpose: OutboundPurpose): LookupFunction {
    return (hostname, options, callback) => {
      const opts = typeof options === 'object' && options ? options : {};
      const family = typeof opts.family === 'number' ? opts.family : opts.family === 'IPv6' ? 6 : opts.family === 'IPv4' ? 4 : 0;
      this.resolve(hostname, family).then(
        (found) => {
          const allowed: dns.LookupAddress[] = [];
          let refused: string | null = null;
          for (const a of found) {
            const reason = this.decide(a.address, port, purpose);
            if (reason) refused ??= reason;
            else allowed.push(a);
          }
          if (!allowed.length) {
            const error = refused ? new OutboundRefused(refused) : Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
            return (callback as (e: Error) => void)(error);
          }
          if (opts.all) (callback as (e: null, a: dns.LookupAddress[]) => void)(null, allowed);
          else callback(null, allowed[0]!.address, allowed[0]!.family);
        },
        (error: Error) => (callback as (e: Error) => void)(error),
      );
    };
  }

  /** Every address of `name` (family 0: both), through OUTBOUND_RESOLVER when it is set. */
  private async resolve(name: string, family: number): Promise<dns.LookupAddress[]> {
    if (net.isIP(name)) return [{ address: name, family: net.isIP(name) }];
    if (!this.resolver) return dns.promises.lookup(name, { all: true, family, verbatim: true });
    // A DNS server does not know these (RFC 6761): they are this host, as getaddrinfo says.
    const lower = name.toLowerCase().replace(/\.$/, '');
    if (lower === 'localhost' || lower.endsWith('.localhost')) return [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }].filter((a) => !family || a.family === family);
    const [v4, v6] = await Promise.all([
      family === 6 ? [] : this.resolver.resolve4(name).catch(() => [] as string[]),
      family === 4 ? [] : this.resolver.resolve6(name).catch(() => [] as string[]),
    ]);
    const found = [...v4.map((address) => ({ address, family: 4 })), ...v6.map((address) => ({ address, family: 6 }))];
    if (!found.length) throw Object.assign(new Error(`queryA ENOTFOUND ${name}`), { code: 'ENOTFOUND', hostname: name });
    return found;
  }
}

function publicTarget(publicUrl: string | undefined): { host: string; port: number } | null {
  if (!publicUrl) return null;
  try {
    const u = new URL(publicUrl);
    return { host: u.hostname.toLowerCase().replace(/^\[|\]$/g, ''), port: Number(u.port) || (u.protocol === 'https:' ? 443 : 80) };
  } catch {
    return null;
  }
}
