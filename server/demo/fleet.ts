/**
 * Serves the simulated hosts over real HTTP, each on its own loopback address (127.0.10.N),
 * so the console scrapes them exactly like real exporters. Runs inside the API process under
 * `npm start`, hence one cheap node:http server per host and no work between scrapes.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { payloadTarget, type DemoPayload } from './ballast';
import { defaultFleetSpecs } from './fleet-specs';
import { createSimulatedHost, type SimulatedHost } from './simulator';
import type { DemoOs, DemoProfile, HostSpec } from './spec';

export { defaultFleetSpecs } from './fleet-specs';
export { REAL_SAMPLES, type DemoPayload } from './ballast';

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
const DEFAULT_PORT = 9100;
/** Errors after which a host moves (another port, or 127.0.0.1) instead of failing the fleet. */
const FALLBACK_CODES = new Set(['EADDRINUSE', 'EADDRNOTAVAIL', 'EACCES']);
/**
 * How long a host waits for its own address and port while something holds them: an Opsdeck
 * restarted at once finds its previous process still closing (that takes up to 1.8 s).
 */
export const BIND_WAIT_MS = 2000;
const BIND_RETRY_MS = 100;

export interface DemoHost {
  key: string;
  hostname: string;
  ipaddress: string;
  port: number;
  os: DemoOs;
  profile: DemoProfile;
}

export interface DemoFleet {
  hosts: DemoHost[];
  stop(): Promise<void>;
}

export interface DemoFleetOptions {
  /** The hosts to simulate; default `defaultFleetSpecs(count)`. */
  specs?: HostSpec[];
  count?: number;
  /** Port every host listens on, default 9100 (0: any free port on each address). */
  port?: number;
  /** Clock in ms since the epoch; tests pass their own to move simulated time. */
  now?: () => number;
  /**
   * `real` (default): each host serves as many samples as a real exporter (REAL_SAMPLES:
   * node_exporter-sized on Linux, windows_exporter-sized on Windows); `light`: only what the
   * console reads (DEMO_PAYLOAD, issue 17 §1).
   */
  payload?: DemoPayload;
}

/** The i-th host's loopback address: 127.0.10.1 … 127.0.10.254, then 127.0.11.1 … */
export function demoAddress(index: number): string {
  const third = 10 + Math.floor(index / 254);
  if (third > 255) throw new Error('the demo fleet is limited to 62,484 hosts');
  return `127.0.${third}.${(index % 254) + 1}`;
}

function landingPage(os: DemoOs): string {
  const name = os === 'linux' ? 'Node Exporter' : 'windows_exporter';
  return `<html>
<head><title>${name}</title></head>
<body>
<h1>${name}</h1>
<p><a href="/metrics">Metrics</a></p>
</body>
</html>
`;
}

function handler(host: SimulatedHost, now: () => number) {
  const landing = landingPage(host.spec.os);
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const head = req.method === 'HEAD';
    if (req.method !== 'GET' && !head) {
      res.writeHead(405, { 'Content-Type': 'text/plain; charset=utf-8', Allow: 'GET, HEAD' });
      res.end('Method Not Allowed\n');
      return;
    }
    let status = 200;
    let type = METRICS_CONTENT_TYPE;
    let body: string;
    if (path === '/metrics') {
      body = host.render(now());
    } else if (path === '/') {
      type = 'text/html; charset=utf-8';
      body = landing;
    } else {
      status = 404;
      type = 'text/plain; charset=utf-8';
      body = '404 page not found\n';
    }
    res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
    res.end(head ? undefined : body);
  };
}

function listen(server: Server | ReturnType<typeof createNetServer>, port: number, address: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(port, address, () => {
      server.off('error', onError);
      const bound = server.address();
      resolve(typeof bound === 'object' && bound ? bound.port : port);
    });
  });
}

function code(err: unknown): string {
  return typeof err === 'object' && err && 'code' in err ? String((err as { code: unknown }).code) : '';
}

function close(server: Server | ReturnType<typeof createNetServer>): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    if ('closeAllConnections' in server) server.closeAllConnections();
  });
}

/**
 * Where a host lives when its own address and port are held by something else (issue 13: on a
 * first start another Opsdeck's fleet held 127.0.10.N:9100, and 11 of 12 hosts were registered
 * as 127.0.0.1, all alike): it waits for them a little (a previous process still closing), then
 * takes its own address on another port, so every host keeps an address of its own. Only an
 * address the system will not bind at all (no 127.0.10.N, EADDRNOTAVAIL) moves it to 127.0.0.1.
 * `bind` is tried on each candidate (address, port) in turn until one works.
 */
async function place<T>(address: string, port: number, bind: (address: string, port: number) => Promise<T>): Promise<{ ipaddress: string; port: number; bound: T }> {
  const deadline = Date.now() + BIND_WAIT_MS;
  for (;;) {
    try {
      return { ipaddress: address, port, bound: await bind(address, port) };
    } catch (err) {
      if (code(err) !== 'EADDRINUSE' || port === 0 || Date.now() >= deadline) {
        if (!FALLBACK_CODES.has(code(err))) throw err;
        break;
      }
      await new Promise((r) => setTimeout(r, BIND_RETRY_MS));
    }
  }
  try {
    return { ipaddress: address, port: 0, bound: await bind(address, 0) };
  } catch (err) {
    if (!FALLBACK_CODES.has(code(err))) throw err;
    return { ipaddress: '127.0.0.1', port: 0, bound: await bind('127.0.0.1', 0) };
  }
}

/** Binds a live host where `place` finds room; the port is the one it really got. */
async function serve(host: SimulatedHost, address: string, port: number, now: () => number): Promise<{ server: Server; ipaddress: string; port: number }> {
  const server = createServer(handler(host, now));
  const placed = await place(address, port, (a, p) => listen(server, p, a));
  return { server, ipaddress: placed.ipaddress, port: placed.bound };
}

/**
 * A down host needs an address where a connection is refused: a port that was free a moment
 * ago, found like a live host's (its own address and port when nothing listens there; if
 * something does, say a real exporter on 0.0.0.0:9100 that would answer for it, another port).
 */
async function reserveRefusing(address: string, port: number): Promise<{ ipaddress: string; port: number }> {
  const placed = await place(address, port, async (a, p) => {
    const probe = createNetServer();
    const bound = await listen(probe, p, a);
    await close(probe);
    return bound;
  });
  return { ipaddress: placed.ipaddress, port: placed.bound };
}

export async function startDemoFleet(opts: DemoFleetOptions = {}): Promise<DemoFleet> {
  const specs = opts.specs ?? defaultFleetSpecs(opts.count ?? 12);
  const port = opts.port ?? DEFAULT_PORT;
  const now = opts.now ?? Date.now;
  const startMs = now();
  const keys = new Set<string>();
  for (const s of specs) {
    if (keys.has(s.key)) throw new Error(`duplicate demo host key ${s.key}`);
    keys.add(s.key);
  }
  const servers: Server[] = [];
  const stop = async () => {
    await Promise.all(servers.map(close));
  };
  // allSettled, not all: on a failure every server that did start must be closed again.
  const results = await Promise.allSettled(
    specs.map(async (spec, i): Promise<DemoHost> => {
      const base = { key: spec.key, hostname: spec.hostname, os: spec.os, profile: spec.profile };
      if (spec.profile === 'down') return { ...base, ...(await reserveRefusing(demoAddress(i), port)) };
      const live = await serve(createSimulatedHost(spec, startMs, payloadTarget(opts.payload, spec.os)), demoAddress(i), port, now);
      servers.push(live.server);
      return { ...base, ipaddress: live.ipaddress, port: live.port };
    }),
  );
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return { hosts: results.map((r) => (r as PromiseFulfilledResult<DemoHost>).value), stop };
}
