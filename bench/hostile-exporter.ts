/**
 * A hostile exporter against the built-in collector (issue 25 finding 8): the console (PGlite in
 * a data folder, scraping every 5 s) monitors one server whose exporter serves a real
 * node_exporter scrape plus ~234,000 network series (117,000 devices,
 * tests/monitoring/hostile-exporters.ts). After four scrapes it asks for panel 84 (Network
 * Traffic, one line per device and direction) over the last hour, five times, and reports the
 * answer's status, its wall time, the lines it holds, the server's state, and the process's
 * resident memory before the exporter was added and at its peak (sampled every 100 ms; the scrape
 * worker is a thread of this process, PGlite runs in it; so does the stand-in, in a thread of its own).
 *
 * `npm run bench -- hostile-exporter` (`npx tsx bench/hostile-exporter.ts [--devices 117000] [--series-limit 50000]`)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app';
import { hashPassword } from '../server/auth/password';
import { testConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { users } from '../server/db/schema';
import { HIGH_CARDINALITY_DEVICES, serveExporter } from '../tests/monitoring/hostile-exporters';
import { machineLoad, numberOption } from './lib/options';

const devices = numberOption('--devices', HIGH_CARDINALITY_DEVICES);
/** SCRAPE_SERIES_LIMIT for the run (`--series-limit 60000 --devices 24000`: stored, and cut per chart). */
const seriesLimit = numberOption('--series-limit', 50_000);
const mb = (n: number) => Math.round(n / 1024 / 1024);

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'opsdeck-hostile-'));
  const exporter = await serveExporter({ type: 'cardinality', devices });
  const database = await openDatabase({ dataDir: dir });
  const base = testConfig();
  const app = await buildApp(testConfig({ monitoring: { ...base.monitoring, enabled: true, scrapeIntervalS: 5, scrapeTimeoutS: 4.5, seriesLimit } }), { database });
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  try {
    await app.ready();
    const [admin] = await database.db
      .insert(users)
      .values({ username: 'bench-hostile', email: 'bench-hostile@example.com', phonenumber: '', passwordHash: await hashPassword('bench-password'), role: 'admin' })
      .returning();
    const signin = await app.inject({ method: 'POST', url: '/api/auth/signin', headers: { 'x-requested-with': 'opsdeck' }, payload: { email: admin!.email, password: 'bench-password' } });
    const cookie = `opsdeck_session=${signin.cookies.find((c) => c.name === 'opsdeck_session')!.value}`;
    await new Promise((r) => setTimeout(r, 3000));
    const rssBefore = process.memoryUsage().rss;
    peak = rssBefore;
    const created = await app.inject({
      method: 'POST',
      url: '/api/servers',
      headers: { cookie, 'x-requested-with': 'opsdeck' },
      payload: { hostname: 'hostile', ipaddress: '127.0.0.1', operating_system: 'linux', agentPort: exporter.port, isAgentConfigured: true },
    });
    const id = created.json().result._id as string;
    const started = Date.now();
    while (exporter.scrapes() < 4 && Date.now() - started < 120_000) await new Promise((r) => setTimeout(r, 200));
    await new Promise((r) => setTimeout(r, 3000));
    const runs: { status: number; ms: number; lines: number; cut?: unknown }[] = [];
    for (let i = 0; i < 5; i++) {
      const to = Date.now();
      const t0 = performance.now();
      const res = await app.inject({ method: 'GET', url: `/api/servers/chart/${id}?panel=84&from=${to - 3_600_000}&to=${to}`, headers: { cookie } });
      const ms = performance.now() - t0;
      const body = res.statusCode === 200 ? res.json().result : null;
      runs.push({ status: res.statusCode, ms: Math.round(ms), lines: body?.series.length ?? 0, cut: body?.lines });
    }
    const server = (await app.inject({ method: 'GET', url: `/api/servers/${id}`, headers: { cookie } })).json().result;
    console.log(
      JSON.stringify(
        {
          devices,
          series: devices * 2,
          seriesLimit,
          scrapes: exporter.scrapes(),
          chart: runs,
          state: server.state,
          lastError: server.lastError?.slice(0, 200) ?? null,
          rssBeforeMB: mb(rssBefore),
          rssPeakMB: mb(peak),
          load: machineLoad(),
        },
        null,
        2,
      ),
    );
  } finally {
    clearInterval(sampler);
    await app.close();
    await database.close();
    await exporter.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
