/**
 * The API under a fleet's load (issue 17 §3): the console as `npm start` runs it (PGlite,
 * SCRAPE_INTERVAL 15, ALERT_EVAL_INTERVAL 15), scraping `--hosts` real-sized demo hosts (default
 * 1,000; each with the default rules, so the evaluator has 6 rules a host to look at), while
 * `--clients` browsers (default 8) page through the servers list typing a hostname prefix (1–4
 * characters) and the alerts list. Measured over the same window:
 *  - the main thread's event-loop delay (perf_hooks.monitorEventLoopDelay, 1 ms resolution,
 *    preloaded by bench/lib/loop-probe.mjs; target p99 < 20 ms);
 *  - list calls' latency from the clients;
 *  - threshold crossing → email accepted by a real SMTP server (smtp-server in this process), as
 *    bench/alert-latency.ts does: one more server whose exporter (in this process) turns its
 *    root filesystem 98 % full at a random moment of the scrape cycle; critical_disk_usage
 *    (> 95 %, grace 60 s) mails a group. Budget: grace + interval + 2 s. `--runs` (default 3);
 *  - the console's CPU (all its threads, from /proc) and RSS.
 *
 * `npm run bench -- scrape-load [--hosts 1000] [--runs 3] [--clients 8] [--warmup 60]`
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDefaultRulesIfMissing } from '../server/alerting/defaults';
import { openDatabase } from '../server/db/client';
import { registerDemoFleet } from '../server/demo/register';
import { machineLoad, numberOption } from './lib/options';
import { processCpuSeconds, processRssBytes, sleep, spawnConsole, spawnFleet } from './lib/processes';
import { startLatencyRig } from './lib/latency-rig';

const HOSTS = numberOption('--hosts', 1000);
const RUNS = numberOption('--runs', 3);
const CLIENTS = numberOption('--clients', 8);
const WARMUP_S = numberOption('--warmup', 60);
const INTERVAL_S = 15;
const ADMIN = { email: 'bench-admin@opsdeck.test', password: 'bench-admin-password' };
const r1 = (n: number) => Math.round(n * 10) / 10;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function until<T>(what: string, fn: () => T | undefined | Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

interface Probe {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

// The server whose disk fills up, and the SMTP server the email goes to.
const rig = await startLatencyRig();
const { scrapes, mails } = rig;

console.log(`Scrape load: ${HOSTS} real-sized hosts every ${INTERVAL_S} s, ${CLIENTS} list clients, ${RUNS} crossing → email runs; ${machineLoad()}`);
const fleet = await spawnFleet(HOSTS);
const dataDir = mkdtempSync(join(tmpdir(), 'opsdeck-bench-load-'));
const probeFile = join(dataDir, 'loop-probe.json');
let exitCode = 0;
try {
  let graceS = 60;
  {
    const setup = await openDatabase({ dataDir });
    await registerDemoFleet(setup, fleet.hosts);
    const [server] = await setup.query<{ id: string }>(
      `insert into servers (hostname, ipaddress, agent_port, operating_system, is_agent_configured, is_agent_installed)
       values ('db-latency', '127.0.0.1', $1, 'linux', true, true) returning id`,
      [rig.exporterPort],
    );
    for (const { id } of await setup.query<{ id: string }>('select id from servers')) await createDefaultRulesIfMissing(setup.db, id);
    const [group] = await setup.query<{ id: string }>(`insert into notification_groups (name, email_list) values ('on-call', '{oncall@example.com}') returning id`);
    const [rule] = await setup.query<{ time_limit: number }>(`update alert_rules set notification_group_id = $2 where server_id = $1 and name = 'critical_disk_usage' returning time_limit`, [
      server!.id,
      group!.id,
    ]);
    graceS = rule!.time_limit;
    await setup.close();
  }
  const budgetMs = (graceS + INTERVAL_S + 2) * 1000;
  const console_ = await spawnConsole(
    dataDir,
    { SCRAPE_INTERVAL: String(INTERVAL_S), SMTP_URL: `smtp://127.0.0.1:${rig.smtpPort}`, PUBLIC_URL: 'https://opsdeck.example.com', LOOP_PROBE_FILE: probeFile },
    ['--import', join(import.meta.dirname, 'lib', 'loop-probe.mjs')],
  );
  try {
    const api = async (path: string, cookie: string, body: unknown) => {
      const res = await fetch(`${console_.url}${path}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json', 'x-requested-with': 'opsdeck' }, body: JSON.stringify(body) });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res;
    };
    const signin = await fetch(`${console_.url}/api/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-requested-with': 'opsdeck' }, body: JSON.stringify(ADMIN) });
    const cookie = String(signin.headers.get('set-cookie')).split(';')[0]!;
    console.log(`  ${WARMUP_S} s warm-up (first rounds, PGlite's caches)`);
    await sleep(WARMUP_S * 1000);
    await until('a scrape of the latency server', () => (scrapes.length ? true : undefined), 3 * INTERVAL_S * 1000);

    // The window starts: probe reset, CPU read, clients typing.
    process.kill(console_.pid, 'SIGUSR2');
    const cpu0 = processCpuSeconds(console_.pid);
    const t0 = performance.now();
    const rss: number[] = [];
    const rssTimer = setInterval(() => rss.push(processRssBytes(console_.pid)), 2000);
    const listMs: number[] = [];
    let stopClients = false;
    const needles = ['w', 'we', 'web', 'web-', 'd', 'db', 'db-', 'a', 'ap', 'api'];
    const clients = Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = c; !stopClients; i++) {
        const started = performance.now();
        if (i % 2 === 0) await api('/api/servers/all', cookie, { pageNumber: 1, pageSize: 25, filter: { hostname: { contains: needles[i % needles.length] } } });
        else await api('/api/alerts/all', cookie, { pageNumber: 1, pageSize: 25, sort: { by: 'createdAt', direction: 'desc' } });
        listMs.push(performance.now() - started);
        await sleep(100);
      }
    });

    const latencies: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const seen = scrapes.length;
      await until('a scrape', () => (scrapes.length > seen ? true : undefined), 2 * INTERVAL_S * 1000);
      const offset = Math.random() * INTERVAL_S * 1000;
      await sleep(offset);
      const mailsBefore = mails.length;
      const crossed = Date.now();
      rig.setDisk(98);
      const mail = await until('the firing email', () => mails.slice(mailsBefore).find((m) => m.subject.includes('db-latency')), budgetMs + 60_000);
      const latency = mail.at - crossed;
      latencies.push(latency);
      console.log(`  run ${run}: crossed ${r1(offset / 1000)} s after a scrape; email accepted +${r1(latency / 1000)} s (${latency <= budgetMs ? 'within' : 'OVER'} the ${budgetMs / 1000} s budget)`);
      const resolvedBefore = mails.length;
      rig.setDisk(40);
      await until('the resolution email', () => (mails.length > resolvedBefore ? true : undefined), 3 * INTERVAL_S * 1000 + 10_000);
    }
    stopClients = true;
    await Promise.all(clients);
    clearInterval(rssTimer);
    const wallS = (performance.now() - t0) / 1000;
    const cpuS = processCpuSeconds(console_.pid) - cpu0;
    const probe = JSON.parse(readFileSync(probeFile, 'utf8')) as Probe;
    const sorted = [...listMs].sort((a, b) => a - b);
    const maxLatency = Math.max(...latencies);
    console.log(`  ${HOSTS} hosts, ${r1(wallS)} s measured; ${machineLoad()}`);
    console.log('  | Event-loop delay p50 / p99 / max | List calls (n) p50 / p95 / p99 | Crossing → email max (budget) | Console CPU, % of a core | RSS mean / max |');
    console.log(
      `  | ${probe.p50} / ${probe.p99} / ${probe.max} ms | (${sorted.length}) ${r1(pct(sorted, 50))} / ${r1(pct(sorted, 95))} / ${r1(pct(sorted, 99))} ms | ${r1(maxLatency / 1000)} s (${budgetMs / 1000} s) | ${r1((cpuS / wallS) * 100)} % | ${Math.round(rss.reduce((s, v) => s + v, 0) / rss.length / 2 ** 20)} / ${Math.round(Math.max(...rss) / 2 ** 20)} MB |`,
    );
    const met = probe.p99 < 20 && maxLatency <= budgetMs;
    console.log(`  targets (event-loop p99 < 20 ms, every email within ${budgetMs / 1000} s): ${met ? 'met' : 'NOT met'}`);
    if (!met) exitCode = 1;
  } finally {
    await console_.stop();
  }
} finally {
  await fleet.stop();
  await rig.close();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
