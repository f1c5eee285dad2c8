/**
 * Local servers that checks are run against in tests and benchmarks (issue 16): HTTP with fast,
 * slow, hanging, failing, redirecting and keyword pages; HTTPS with a self-signed certificate
 * made here (selfsigned, over node:crypto) that expires in a given number of days; a TCP port
 * that accepts and one that refuses; and a DNS server on UDP (dns-packet) that knows a few names.
 */
import dgram from 'node:dgram';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import dnsPacket from 'dns-packet';
import selfsigned from 'selfsigned';

export interface CheckTargets {
  httpUrl: string;
  httpsUrl: string;
  httpsPort: number;
  tcpOpenPort: number;
  tcpClosedPort: number;
  dnsResolver: string;
  /** How many requests each path received. */
  hits: Map<string, number>;
  close: () => Promise<void>;
}

/** The names the DNS stand-in answers (A records); anything else is NXDOMAIN. */
export const DNS_RECORDS: Record<string, string> = { 'svc.opsdeck.test': '10.1.2.3', 'db.opsdeck.test': '10.1.2.4' };

const DAY_MS = 86_400_000;

export async function selfSignedCert(daysValid: number): Promise<{ key: string; cert: string }> {
  const now = Date.now();
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    notBeforeDate: new Date(now - DAY_MS),
    notAfterDate: new Date(now + daysValid * DAY_MS),
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }],
  });
  return { key: pems.private, cert: pems.cert };
}

function handler(hits: Map<string, number>): http.RequestListener {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === '/ok') return res.writeHead(200, { 'content-type': 'text/plain' }).end('hello world: all systems operational');
    if (path === '/maintenance') return res.writeHead(200, { 'content-type': 'text/plain' }).end('Down for maintenance');
    if (path === '/slow') return void setTimeout(() => res.writeHead(200).end('slow but fine'), 1200);
    if (path === '/hang') return; // never answers
    if (path.startsWith('/status/')) return res.writeHead(Number(path.slice(8)) || 500).end('status');
    if (path === '/redirect') return res.writeHead(302, { location: '/ok' }).end();
    if (path === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    if (path === '/headers') {
      const ok = req.headers.authorization === 'Bearer s3cret' && req.headers['x-team'] === 'team-ops-4f2a';
      return res.writeHead(ok ? 200 : 401).end(ok ? 'authorized' : 'no');
    }
    if (path === '/method') return res.writeHead(req.method === 'POST' ? 200 : 405).end(req.method);
    res.writeHead(404).end('not found');
  };
}

const listen = (server: net.Server) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

/** A port nothing listens on: bound once, then released. */
export async function closedPort(): Promise<number> {
  const s = net.createServer();
  const port = await listen(s);
  await new Promise((r) => s.close(r));
  return port;
}

export async function startCheckTargets(options: { certDays?: number } = {}): Promise<CheckTargets> {
  const hits = new Map<string, number>();
  const httpServer = http.createServer(handler(hits));
  const { key, cert } = await selfSignedCert(options.certDays ?? 3);
  const httpsServer = https.createServer({ key, cert }, handler(hits));
  const tcpServer = net.createServer((socket) => socket.end());
  const sockets = new Set<net.Socket>();
  for (const s of [httpServer, httpsServer, tcpServer]) s.on('connection', (c: net.Socket) => (sockets.add(c), c.on('close', () => sockets.delete(c))));
  const [httpPort, httpsPort, tcpOpenPort, tcpClosedPort] = await Promise.all([listen(httpServer), listen(httpsServer), listen(tcpServer), closedPort()]);

  const udp = dgram.createSocket('udp4');
  udp.on('message', (msg, rinfo) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(msg);
    } catch {
      return;
    }
    const q = query.questions?.[0];
    const known = q && DNS_RECORDS[q.name.toLowerCase()];
    const answers = known && q.type === 'A' ? [{ type: 'A' as const, name: q.name, ttl: 60, data: known }] : [];
    const reply = dnsPacket.encode({
      type: 'response',
      id: query.id,
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (known ? 0 : 3), // rcode 3: NXDOMAIN
      questions: query.questions,
      answers,
    });
    udp.send(reply, rinfo.port, rinfo.address);
  });
  const dnsPort = await new Promise<number>((resolve) => udp.bind(0, '127.0.0.1', () => resolve(udp.address().port)));

  return {
    httpUrl: `http://127.0.0.1:${httpPort}`,
    httpsUrl: `https://127.0.0.1:${httpsPort}`,
    httpsPort,
    tcpOpenPort,
    tcpClosedPort,
    dnsResolver: `127.0.0.1:${dnsPort}`,
    hits,
    close: async () => {
      for (const c of sockets) c.destroy();
      await Promise.all([httpServer, httpsServer, tcpServer].map((s) => new Promise((r) => s.close(r))));
      udp.close();
    },
  };
}
