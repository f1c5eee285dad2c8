/**
 * `npm run bench -- load` (issue 11 §7): 200 concurrent clients listing servers and alerts for
 * 60 s against the console in a process of its own (PGlite in DATA_DIR, as `npm start` runs it),
 * over 1,000 servers and 100,000 alerts (bench/alerts-list.ts's data set). Each client is a
 * closed loop: a servers page, then an alerts page (the Notifications page's first call), as a
 * browser does (keep-alive, brotli/gzip accepted), with one of 20 sessions.
 * Target: 0 errors. Reports p50/p99 per call, throughput, the server's RSS (peak, sampled each
 * second) and CPU, and the generator's own CPU: both share the machine's cores.
 *
 * Options: --clients 200 --seconds 60 --alerts 100000
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { openDatabase } from '../server/db/client';
import { seedAlerts } from './alerts-list';
import { machineLoad, numberOption } from './lib/options';
import { processCpuSeconds, processRssBytes, spawnConsole } from './lib/processes';

const CLIENTS = numberOption('--clients', 200);
const SECONDS = numberOption('--seconds', 60);
const SESSIONS = 20;
const ADMIN = { email: 'bench-admin@opsdeck.test', password: 'bench-admin-password' };

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as sent (compressed or not). */
  wire: Buffer;
  text: string;
}

/** One HTTP request on the shared keep-alive agent; the body decoded as a browser would. */
function send(agent: Agent, url: string, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const wire = Buffer.concat(chunks);
        const enc = res.headers['content-encoding'];
        try {
          const text = (enc === 'br' ? brotliDecompressSync(wire) : enc === 'gzip' ? gunzipSync(wire) : wire).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, wire, text });
        } catch (error) {
          reject(error);
        }
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const r1 = (n: number) => Math.round(n * 10) / 10;

export async function runLoadBench() {
  const dataDir = mkdtempSync(join(tmpdir(), 'opsdeck-bench-load-'));
  const t0 = Date.now();
  {
    const database = await openDatabase({ dataDir });
    await seedAlerts(database);
    // Nothing to scrape: the seeded addresses are made up, and scraping is not what this measures.
    await database.query('update servers set is_agent_configured = false');
    await database.close();
  }
  console.log(`seeded 1,000 servers and their alerts in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  const server = await spawnConsole(dataDir, { ALERT_EVALUATION: '0', SCRAPE_INTERVAL: '3600' });
  // One connection per client, kept alive, as 200 browsers would hold.
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  try {
    const cookies: string[] = [];
    for (let i = 0; i < SESSIONS; i++) {
      const res = await send(agent, `${server.url}/api/auth/signin`, 'POST', { 'content-type': 'application/json', 'x-requested-with': 'opsdeck' }, JSON.stringify(ADMIN));
      if (res.status !== 200) throw new Error(`sign-in ${res.status}: ${res.text}`);
      cookies.push(String([res.headers['set-cookie']].flat()[0]).split(';')[0]!);
    }
    const calls = [
      { name: 'servers', path: '/api/servers/all', body: JSON.stringify({ pageNumber: 1, pageSize: 25, sort: { by: 'hostname', direction: 'asc' } }) },
      { name: 'alerts', path: '/api/alerts/all', body: JSON.stringify({ pageNumber: 1, pageSize: 25, filter: { status: { in: ['firing', 'snoozed'] } } }) },
    ];
    const latencies: Record<string, number[]> = { servers: [], alerts: [] };
    const errors: string[] = [];
    let bytes = 0;
    const call = async (cookie: string, c: (typeof calls)[number]) => {
      const start = performance.now();
      try {
        const res = await send(agent, `${server.url}${c.path}`, 'POST', { cookie, 'content-type': 'application/json', 'x-requested-with': 'opsdeck', 'accept-encoding': 'br, gzip' }, c.body);
        const text = res.text;
        bytes += res.wire.length;
        if (res.status !== 200) errors.push(`${c.name} ${res.status} ${text.slice(0, 120)}`);
        else if (!(JSON.parse(text) as { result?: { data?: unknown[] } }).result?.data?.length) errors.push(`${c.name} 200 without rows`);
      } catch (error) {
        errors.push(`${c.name} ${(error as Error).message}`);
      }
      latencies[c.name]!.push(performance.now() - start);
    };
    // Warm-up: every connection opened and the queries planned before the clock starts.
    await Promise.all(Array.from({ length: CLIENTS }, (_, i) => call(cookies[i % SESSIONS]!, calls[i % 2]!)));
    latencies.servers = [];
    latencies.alerts = [];
    errors.length = 0;

    const serverCpu0 = processCpuSeconds(server.pid);
    const selfCpu0 = process.cpuUsage();
    let rssPeak = 0;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, processRssBytes(server.pid))), 1000);
    const started = performance.now();
    const until = started + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, i) => {
        const cookie = cookies[i % SESSIONS]!;
        while (performance.now() < until) for (const c of calls) await call(cookie, c);
      }),
    );
    const wallS = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const rssEnd = processRssBytes(server.pid);
    rssPeak = Math.max(rssPeak, rssEnd);
    const serverCpuS = processCpuSeconds(server.pid) - serverCpu0;
    const self = process.cpuUsage(selfCpu0);
    const generatorCpuS = (self.user + self.system) / 1e6;
    const perCall = Object.fromEntries(
      Object.entries(latencies).map(([name, list]) => {
        const sorted = [...list].sort((a, b) => a - b);
        return [name, { requests: sorted.length, p50Ms: r1(pct(sorted, 50)), p99Ms: r1(pct(sorted, 99)), maxMs: r1(sorted.at(-1) ?? NaN) }];
      }),
    );
    const all = [...latencies.servers!, ...latencies.alerts!].sort((a, b) => a - b);
    return {
      clients: CLIENTS,
      seconds: r1(wallS),
      requests: all.length,
      perSecond: r1(all.length / wallS),
      errors: errors.length,
      firstErrors: [...new Set(errors)].slice(0, 5),
      p50Ms: r1(pct(all, 50)),
      p99Ms: r1(pct(all, 99)),
      perCall,
      serverRssPeakMB: Math.round(rssPeak / 2 ** 20),
      serverRssEndMB: Math.round(rssEnd / 2 ** 20),
      // CPU seconds per wall second: 2.0 is both cores.
      serverCores: Math.round((serverCpuS / wallS) * 100) / 100,
      generatorCores: Math.round((generatorCpuS / wallS) * 100) / 100,
      // What a request costs the server whatever else runs: wall-clock latency grows with the load average, this hardly does.
      serverCpuMsPerRequest: r1((serverCpuS * 1000) / all.length),
      generatorCpuMsPerRequest: r1((generatorCpuS * 1000) / all.length),
      wireKBPerResponse: r1(bytes / all.length / 1024),
    };
  } finally {
    agent.destroy();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(machineLoad());
  const r = await runLoadBench();
  console.log(JSON.stringify(r, null, 2));
  console.log(machineLoad());
  console.log(`${r.clients} clients for ${r.seconds} s: ${r.requests} requests (${r.perSecond}/s), ${r.errors} errors; p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms; server RSS peak ${r.serverRssPeakMB} MB; server ${r.serverCores} cores (${r.serverCpuMsPerRequest} ms CPU a request), generator ${r.generatorCores} cores (${r.generatorCpuMsPerRequest} ms a request)`);
  if (r.errors > 0) process.exit(1);
}
