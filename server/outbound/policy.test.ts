import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METADATA_ADDRESS, startStandIns, type StandIns } from '../../tests/outbound-stand-ins';
import { smtpMailer } from '../channels/email';
import { loadConfig } from '../config';
import { fetchMetrics } from '../monitoring/fetch-metrics';
import { outboundFetch, refusalOf } from './http-client';
import { canonicalAddress, OutboundPolicy, OutboundRefused, parseNetworks } from './policy';

const LINK_LOCAL = 'it is a link-local address (cloud instance metadata lives here)';

describe('addresses', () => {
  it('reads every IPv6 form that carries an IPv4 address as that address, and drops a zone', () => {
    for (const text of ['127.0.0.1', '::ffff:127.0.0.1', '[::ffff:7f00:1]', '::7f00:1', '::ffff:0:7f00:1', '64:ff9b::7f00:1']) expect(canonicalAddress(text)?.toString(), text).toBe('127.0.0.1');
    expect(canonicalAddress('fe80::1%eth0')?.toString()).toBe('fe80::1');
    expect(canonicalAddress('::1')?.toString()).toBe('::1');
    expect(canonicalAddress('::')?.toString()).toBe('::');
    // Not addresses: names, and the shortened forms only a resolver reads.
    for (const text of ['localhost', '127.1', '2130706433', '']) expect(canonicalAddress(text), text).toBeNull();
  });

  it('parses network lists, and names the setting and entry it cannot read', () => {
    expect(parseNetworks(' 10.0.0.0/8, 192.168.1.5 fd00::/8\n::ffff:10.1.2.3', 'OUTBOUND_ALLOW')).toEqual(['10.0.0.0/8', '192.168.1.5/32', 'fd00::/8', '10.1.2.3/32']);
    expect(parseNetworks(undefined, 'OUTBOUND_DENY')).toEqual([]);
    // An IPv6 form of IPv4 addresses is the IPv4 network it carries: its prefix counts from bit 96.
    expect(parseNetworks('::ffff:10.0.0.0/104, ::ffff:0:0/96, [::ffff:192.168.1.0]/120, 64:ff9b::a9fe:0/112', 'OUTBOUND_DENY')).toEqual(['10.0.0.0/8', '0.0.0.0/0', '192.168.1.0/24', '169.254.0.0/16']);
    // A shorter prefix is no IPv4 network at all (it was read as 10.0.0.0/24).
    expect(() => parseNetworks('::ffff:10.0.0.0/24', 'OUTBOUND_DENY')).toThrow('OUTBOUND_DENY: "::ffff:10.0.0.0/24" is an IPv6 form of IPv4 addresses, so its prefix is at least /96 (write ::ffff:10.0.0.0/104 or 10.0.0.0/8)');
    for (const bad of ['10.0.0.0/33', 'example.com', '10.0.0.0/8/8', 'fd00::/129', '10.0.0.0/x']) {
      expect(() => parseNetworks(bad, 'OUTBOUND_DENY'), bad).toThrow(`OUTBOUND_DENY: "${bad}" is not a network (write 10.0.0.0/8, 192.168.1.5 or fd00::/8)`);
    }
    expect(() => loadConfig({ OUTBOUND_ALLOW: '10.0.0.0/33' })).toThrow('OUTBOUND_ALLOW: "10.0.0.0/33" is not a network');
    expect(loadConfig({ OUTBOUND_ALLOW: '10.0.0.0/8', OUTBOUND_DENY: '10.9.0.0/16', OUTBOUND_RESOLVER: '10.0.0.2, [fd00::53]:5353' }).outbound).toEqual({ allow: ['10.0.0.0/8'], deny: ['10.9.0.0/16'], resolver: ['10.0.0.2', '[fd00::53]:5353'] });
    expect(() => loadConfig({ OUTBOUND_RESOLVER: 'dns.example' })).toThrow(/OUTBOUND_RESOLVER must be IP addresses/);
    // Port 0 aborted the process at start inside Node's resolver, 999.1.1.1 failed with a stack
    // trace, and a port past 65535 wrapped to another port.
    for (const bad of ['10.0.0.2:0', '10.0.0.2, [fd00::53]:0', '999.1.1.1', '[::1]:99999']) expect(() => loadConfig({ OUTBOUND_RESOLVER: bad }), bad).toThrow(/OUTBOUND_RESOLVER must be IP addresses/);
  });
});

describe('decisions', () => {
  const open = new OutboundPolicy();

  it('refuses link-local, metadata and "this host" addresses for everyone; private and loopback are fine', () => {
    expect(open.decide('169.254.169.254', 80, 'check')).toBe(`a check may not reach 169.254.169.254: ${LINK_LOCAL}`);
    expect(open.decide('::ffff:169.254.170.2', 80, 'channel')).toBe(`a notification channel may not reach 169.254.170.2: ${LINK_LOCAL}`);
    expect(open.decide('fd00:ec2::254', 80, 'exporter')).toBe('an exporter may not reach fd00:ec2::254: it is a cloud metadata address (AWS)');
    expect(open.decide('168.63.129.16', 80, 'alertmanager')).toBe('Alertmanager may not reach 168.63.129.16: it is a cloud platform address (Azure)');
    expect(open.decide('0.0.0.0', 80, 'check')).toBe('a check may not reach 0.0.0.0: it is not an address to connect to');
    expect(open.decide('fe80::1', 80, 'check')).toBe('a check may not reach fe80::1: it is a link-local address');
    // The IPv6 metadata services outside link-local and fd00:ec2::/32 (OCI's answers a check's
    // "Authorization: Bearer Oracle" header; none is in the list of refused headers).
    for (const [address, cloud] of [
      ['fd20:ce::254', 'Google Cloud'],
      ['fd00:c1::a9fe:a9fe', 'Oracle Cloud'],
      ['fd00:a9fe:a9fe::1', 'Akamai / Linode'],
      ['fd00:42::42', 'Scaleway'],
      ['fd00:100::100:200', 'Alibaba Cloud'],
    ]) expect(open.decide(address!, 80, 'check'), address).toBe(`a check may not reach ${address}: it is a cloud metadata address (${cloud})`);
    expect(open.decide('fd20:ce::253', 80, 'check')).toBeNull();
    for (const ok of ['127.0.0.1', '127.0.10.3', '::1', '10.1.2.3', '192.168.0.9', 'fd12:3456::1', '8.8.8.8', '2001:db8::1']) expect(open.decide(ok, 9100, 'exporter'), ok).toBeNull();
  });

  it('OUTBOUND_DENY refuses; OUTBOUND_ALLOW allows only its networks and lifts a built-in refusal only with an entry inside it; exporters keep only the built-in rules', () => {
    const p = new OutboundPolicy({ allow: ['10.0.0.0/8', '0.0.0.0/0', '169.254.169.253/32'], deny: ['10.9.0.0/16'] });
    expect(p.decide('10.9.1.1', 80, 'check')).toBe('a check may not reach 10.9.1.1: OUTBOUND_DENY refuses it');
    expect(p.decide('10.1.1.1', 80, 'check')).toBeNull();
    // 0.0.0.0/0 is broad: it lifts nothing.
    expect(p.decide('169.254.169.254', 80, 'check')).toBe(`a check may not reach 169.254.169.254: ${LINK_LOCAL}`);
    expect(p.decide('169.254.169.253', 53, 'check')).toBeNull();
    const only = new OutboundPolicy({ allow: ['10.0.0.0/8'], deny: ['10.9.0.0/16'] });
    expect(only.decide('192.168.1.1', 80, 'channel')).toBe('a notification channel may not reach 192.168.1.1: it is outside OUTBOUND_ALLOW');
    expect(only.decide('::ffff:10.2.3.4', 80, 'channel')).toBeNull();
    expect(only.decide('192.168.1.1', 9100, 'exporter')).toBeNull();
    expect(only.decide('10.9.1.1', 9100, 'exporter')).toBeNull();
    expect(only.decide('169.254.1.1', 9100, 'exporter')).toBe(`an exporter may not reach 169.254.1.1: ${LINK_LOCAL}`);
  });

  it("the console itself: any local address on its listening port, PUBLIC_URL's host and port", () => {
    const p = new OutboundPolicy({}, () => ({ ports: [3000], publicUrl: 'https://opsdeck.example.com' }));
    const own = [...Object.values(networkInterfaces()).flatMap((l) => l ?? []).map((i) => i.address), '127.0.0.1', '127.5.5.5', '::1', '::ffff:127.0.0.1'];
    for (const a of own) expect(p.decide(a, 3000, 'check'), a).toBe('a check cannot point at Opsdeck itself');
    expect(p.decide('127.0.0.1', 3001, 'check')).toBeNull();
    expect(p.decide('10.200.0.1', 3000, 'check')).toBeNull();
    expect(() => p.connectOptions('OpsDeck.example.com.', 443, 'channel')).toThrow(new OutboundRefused('a notification channel cannot point at Opsdeck itself'));
    expect(() => p.connectOptions('opsdeck.example.com', 8443, 'channel')).not.toThrow();
    expect(() => p.connectOptions('[::ffff:127.0.0.1]', 3000, 'check')).toThrow('a check cannot point at Opsdeck itself');
  });
});

describe('at connect time', () => {
  let s: StandIns;
  let policy: OutboundPolicy;
  let redirector: http.Server;
  let redirectUrl: string;
  beforeAll(async () => {
    s = await startStandIns();
    s.answers.set('mixed.unit.test', [{ A: ['169.254.169.254', '127.0.0.1'] }]);
    s.answers.set('meta.unit.test', [{ A: ['169.254.169.254'] }, { A: [METADATA_ADDRESS] }]);
    policy = new OutboundPolicy({ deny: [`${METADATA_ADDRESS}/32`], resolver: [s.dns] });
    redirector = http.createServer((_req, res) => res.writeHead(302, { location: `http://${METADATA_ADDRESS}:${s.metadataPort}/latest/meta-data/` }).end());
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    redirectUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await new Promise((r) => redirector.close(r));
    await s.close();
  });

  it('a socket to a name connects only to the addresses the policy allows; none left is the refusal', async () => {
    const connect = (host: string, port: number) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect({ host, port, ...policy.connectOptions(host, port, 'check') });
        socket.once('connect', () => (resolve(socket.remoteAddress!), socket.destroy()));
        socket.once('error', reject);
      });
    expect(await connect('mixed.unit.test', s.secretPort)).toBe('127.0.0.1');
    await expect(connect('meta.unit.test', s.secretPort)).rejects.toThrow(`a check may not reach 169.254.169.254: ${LINK_LOCAL}`);
    await expect(connect('meta.unit.test', s.metadataPort)).rejects.toThrow(`a check may not reach ${METADATA_ADDRESS}: OUTBOUND_DENY refuses it`);
    await expect(connect('nowhere.unit.test', 80)).rejects.toMatchObject({ code: 'ENOTFOUND' });
    expect(() => policy.connectOptions(METADATA_ADDRESS, s.metadataPort, 'check')).toThrow(OutboundRefused);
    expect(s.metadataConnections()).toBe(0);
  });

  it("fetch follows a redirect only where the policy allows: a redirect to the metadata stand-in is refused", async () => {
    const error = await outboundFetch(policy, 'alertmanager')(redirectUrl).catch((e: unknown) => e);
    expect(refusalOf(error)).toBe(`Alertmanager may not reach ${METADATA_ADDRESS}: OUTBOUND_DENY refuses it`);
    expect(s.metadataConnections()).toBe(0);
  });

  it('SMTP connects through the policy: a refused relay is never contacted', async () => {
    const started = Date.now();
    await expect(smtpMailer('smtp://169.254.169.254:25', 'a@b.c').send(['x@example.com'], { subject: 's', text: 't', html: '<p>t</p>' })).rejects.toThrow(`a notification channel may not reach 169.254.169.254: ${LINK_LOCAL}`);
    await expect(smtpMailer(`smtp://${METADATA_ADDRESS}:${s.metadataPort}`, 'a@b.c', policy).send(['x@example.com'], { subject: 's', text: 't', html: '<p>t</p>' })).rejects.toThrow(`a notification channel may not reach ${METADATA_ADDRESS}: OUTBOUND_DENY refuses it`);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(s.metadataConnections()).toBe(0);
  });

  it('an exporter scrape of a metadata address is refused at once', async () => {
    const started = Date.now();
    await expect(fetchMetrics('169.254.169.254', 80, 5000)).rejects.toThrow(`an exporter may not reach 169.254.169.254: ${LINK_LOCAL}`);
    await expect(fetchMetrics('::ffff:169.254.169.254', 80, 5000)).rejects.toThrow(`an exporter may not reach 169.254.169.254: ${LINK_LOCAL}`);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
