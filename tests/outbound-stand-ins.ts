/**
 * Loopback stand-ins for what an attacker points the console at (issue 25 §1–2): a page holding
 * a secret (and receivers that answer with it), a "metadata service" on its own loopback address
 * that counts every connection, a database port that speaks no HTTP, an SMTP relay that refuses
 * with a secret in its text, and a DNS server whose answers are scripted per name — a name can
 * answer one address on its first question and another afterwards (DNS rebinding).
 */
import dgram from 'node:dgram';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import dnsPacket from 'dns-packet';
import { SMTPServer } from 'smtp-server';

export const SECRET = 'SECRET-7f3a9c1e-do-not-echo';

/** The loopback address the metadata stand-in listens on (tests deny it with OUTBOUND_DENY). */
export const METADATA_ADDRESS = '127.0.0.169';

export interface StandIns {
  /** http://127.0.0.1:port — /secret, /bad-location, /redirect-scheme, /redirect-host, /hook/400, /hook/500, /tg/bot…/sendMessage, /slack/chat.postMessage. */
  secretUrl: string;
  secretPort: number;
  /** Requests per path on the secret page. */
  secretHits: Map<string, number>;
  metadataPort: number;
  /** Every connection the metadata stand-in accepted (HTTP or not). */
  metadataConnections: () => number;
  /** A TCP port that greets with a banner holding the secret, as a database's might. */
  databasePort: number;
  smtpUrl: string;
  /** `127.0.0.1:port` of the DNS stand-in. */
  dns: string;
  /** Scripted answers: name → the answers of successive questions (the last one repeats). */
  answers: Map<string, { A?: string[]; AAAA?: string[] }[]>;
  close: () => Promise<void>;
}

const listen = (server: net.Server, host = '127.0.0.1') => new Promise<number>((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));

export async function startStandIns(): Promise<StandIns> {
  const secretHits = new Map<string, number>();
  const sockets = new Set<net.Socket>();
  const track = (s: net.Server) => s.on('connection', (c: net.Socket) => (sockets.add(c), c.on('close', () => sockets.delete(c))));

  const secretPage = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    secretHits.set(path, (secretHits.get(path) ?? 0) + 1);
    req.resume();
    if (path === '/secret') return res.writeHead(200, { 'content-type': 'text/plain' }).end(`token=${SECRET}\n`);
    // An invalid Location that carries the secret: a check must not repeat it.
    if (path === '/bad-location') return res.writeHead(302, { location: `http://[${SECRET}` }).end();
    // Valid Locations that carry the secret where an error would name it: the scheme, the host.
    if (path === '/redirect-scheme') return res.writeHead(302, { location: `${SECRET}:x` }).end();
    if (path === '/redirect-host') return res.writeHead(302, { location: `http://${SECRET}.invalid/` }).end();
    if (path === '/hook/400') return res.writeHead(400, { 'content-type': 'text/plain' }).end(`bad request: ${SECRET}`);
    if (path === '/hook/500') return res.writeHead(500, { 'content-type': 'text/html' }).end(`<h1>${SECRET}</h1>`);
    if (path.startsWith('/tg/')) return res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: false, error_code: 400, description: `Bad Request: ${SECRET}` }));
    if (path === '/slack/chat.postMessage') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: false, error: SECRET }));
    res.writeHead(404).end(SECRET);
  });
  track(secretPage);
  const secretPort = await listen(secretPage);

  let metadata = 0;
  const metadataServer = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ AccessKeyId: 'ASIA-METADATA', SecretAccessKey: SECRET }));
  });
  metadataServer.on('connection', () => metadata++);
  track(metadataServer);
  const metadataPort = await listen(metadataServer, METADATA_ADDRESS);

  const database = net.createServer((socket) => socket.end(`-ERR ${SECRET} database banner\r\n`));
  track(database);
  const databasePort = await listen(database);

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      callback(Object.assign(new Error(`5.1.1 ${SECRET} mailbox unknown`), { responseCode: 550 }));
    },
  });
  const smtpPort = await listen(smtp.server);

  const answers = new Map<string, { A?: string[]; AAAA?: string[] }[]>();
  const asked = new Map<string, number>();
  const udp = dgram.createSocket('udp4');
  udp.on('message', (msg, rinfo) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(msg);
    } catch {
      return;
    }
    const q = query.questions?.[0];
    const name = q?.name.toLowerCase() ?? '';
    const script = answers.get(name);
    let records: dnsPacket.Answer[] = [];
    if (script && q && (q.type === 'A' || q.type === 'AAAA')) {
      const key = `${name} ${q.type}`;
      const n = asked.get(key) ?? 0;
      asked.set(key, n + 1);
      const step = script[Math.min(n, script.length - 1)]!;
      records = (step[q.type] ?? []).map((data) => ({ type: q.type as 'A', name: q.name, ttl: 0, data }));
    }
    udp.send(
      dnsPacket.encode({ type: 'response', id: query.id, flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (script ? 0 : 3), questions: query.questions, answers: records }),
      rinfo.port,
      rinfo.address,
    );
  });
  const dnsPort = await new Promise<number>((resolve) => udp.bind(0, '127.0.0.1', () => resolve(udp.address().port)));

  return {
    secretUrl: `http://127.0.0.1:${secretPort}`,
    secretPort,
    secretHits,
    metadataPort,
    metadataConnections: () => metadata,
    databasePort,
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    dns: `127.0.0.1:${dnsPort}`,
    answers,
    close: async () => {
      for (const c of sockets) c.destroy();
      await Promise.all([secretPage, metadataServer, database].map((s) => new Promise((r) => s.close(r))));
      await new Promise((r) => smtp.close(() => r(undefined)));
      udp.close();
    },
  };
}
