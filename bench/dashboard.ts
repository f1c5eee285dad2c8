/**
 * The home dashboard's first meaningful paint with 1,000 servers and 100,000 alerts (issue 5
 * §6): target under 1 s in headless Chromium on this machine.
 *
 * The real app (`buildApp`, the built UI from `dist/`, PGlite) listens on a free port with the
 * fleet and alerts seeded in one statement each; monitoring is off so the seeded figures stay as
 * written (a live scrape of 1,000 hosts is bench/fleet-200.ts's subject, not this one's). A signed-in
 * Chromium loads `/` again and again; each load is timed inside the page from navigation start
 * (performance.timeOrigin) to the first frame in which every card shows its figures: both rings
 * have their numbers, no card shows a skeleton, and Instance Down shows its first page of firing
 * alerts. The first load (empty browser cache) is reported apart from the reloads.
 *
 * `npx tsx bench/dashboard.ts [--servers 1000] [--alerts 100000] [--runs 15]`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { buildApp } from '../server/app';
import { hashPassword } from '../server/auth/password';
import { testConfig } from '../server/config';
import { openDatabase, type Database } from '../server/db/client';
import { machineLoad, numberOption } from './lib/options';
import { processCpuSeconds } from './lib/processes';
import { readdirSync, readFileSync } from 'node:fs';

const TARGET_MS = 1000;

/** CPU seconds of every Chromium process using this profile folder (browser, renderer, GPU, utility). */
function chromiumCpuSeconds(profileDir: string): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(profileDir)) continue;
      total += processCpuSeconds(Number(pid));
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export async function seed(database: Database, servers: number, alerts: number): Promise<void> {
  // Figures spread over 0–100 so every threshold has rows; every 20th server down; five
  // services each, one in twenty down.
  await database.query(
    `insert into servers (hostname, ipaddress, operating_system, is_agent_configured, state, state_changed_at, last_scraped_at,
                          cpu_usage, memory_usage, disk_usage, created_at)
     select 'host-' || lpad(g::text, 4, '0'), '10.' || (g / 250) || '.' || (g % 250) || '.1', case when g % 5 = 0 then 'windows' else 'linux' end, true,
            case when g % 20 = 0 then 'down' else 'up' end, now() - make_interval(secs => g * 7), now(),
            (g * 37) % 100 + 0.3, (g * 53) % 100 + 0.6, (g * 71) % 100 + 0.2, now() - make_interval(secs => g)
     from generate_series(1, ${servers}) g`,
  );
  await database.query(
    `insert into services (server_id, service_name, status)
     select s.id, 'svc-' || n || '.service', case when abs(hashtext(s.hostname || '/' || n)) % 20 = 0 then 'down' else 'up' end
     from servers s, generate_series(1, 5) n`,
  );
  // One in ten firing, the rest resolved, spread over the last 30 days.
  await database.query(
    `insert into alerts (server_id, hostname, instance, alertname, description, type, severity, status, subject, created_at, resolved_at)
     select s.id, s.hostname, s.ipaddress, (array['high_cpu_usage','high_memory_usage','high_disk_usage','instance_down','service_down'])[1 + g % 5],
            'Seeded alert ' || g, case when g % 5 = 4 then 'service_down_alert' else 'resouce_alert' end,
            (array['critical','warning','normal','info'])[1 + g % 4], case when g % 10 = 0 then 'firing' else 'resolved' end, 'bench-' || g,
            now() - make_interval(secs => g * 26), case when g % 10 = 0 then null else now() - make_interval(secs => g * 20) end
     from generate_series(1, ${alerts}) g
     join servers s on s.hostname = 'host-' || lpad((1 + g % ${servers})::text, 4, '0')`,
  );
  await database.query('analyze');
}

/** Injected before the app loads: the time of the first frame in which the dashboard is complete. */
const PAINT_PROBE = `(() => {
  const done = () => {
    const cards = document.querySelectorAll('main article, article[data-span]');
    if (cards.length < 8) return false;
    if (document.querySelector('article [aria-busy="true"]')) return false;
    const rings = [...document.querySelectorAll('article [role="img"]')].map((e) => e.getAttribute('aria-label') || '');
    if (rings.length < 2 || rings.some((l) => l.endsWith(': --'))) return false;
    const down = document.querySelector('article table[aria-label="Instance Down"]');
    if (!down) return false;
    return down.querySelectorAll('tbody tr').length > 0 || (down.parentElement && down.parentElement.textContent || '').includes('No firing alerts');
  };
  const check = () => {
    if (window.__dashPaint) return;
    if (done()) requestAnimationFrame(() => { window.__dashPaint = performance.now(); });
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

export async function runDashboardBench(opts: { servers: number; alerts: number; runs: number }, log = console.log) {
  if (!existsSync('dist/index.html')) throw new Error('Build the UI first (npx vite build): the bench serves dist/.');
  const database = await openDatabase({});
  const t0 = performance.now();
  await seed(database, opts.servers, opts.alerts);
  const [counts] = await database.query<{ servers: number; alerts: number; firing: number }>(
    `select (select count(*)::int from servers) as servers, (select count(*)::int from alerts) as alerts, (select count(*)::int from alerts where status = 'firing') as firing`,
  );
  log(`seeded ${counts!.servers} servers, ${counts!.alerts} alerts (${counts!.firing} firing) in ${Math.round(performance.now() - t0)} ms`);
  const password = 'bench-password';
  await database.query(`insert into users (username, email, phonenumber, password_hash, role) values ('bench', 'bench@example.com', '', $1, 'admin')`, [await hashPassword(password)]);

  const app = await buildApp(testConfig({ uiDir: 'dist' }), { database });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  const baseURL = `http://127.0.0.1:${address.port}`;
  const dir = mkdtempSync(join(tmpdir(), 'opsdeck-bench-dash-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    baseURL,
    viewport: { width: 1400, height: 900 },
  });
  try {
    const signin = await context.request.post('/api/auth/signin', { headers: { 'x-requested-with': 'opsdeck' }, data: { email: 'bench@example.com', password } });
    if (!signin.ok()) throw new Error(`sign-in failed: ${signin.status()}`);
    await context.addInitScript(PAINT_PROBE);
    const page = context.pages()[0] ?? (await context.newPage());
    const times: number[] = [];
    const apiDone: number[] = [];
    const cpuMs: number[] = [];
    const apiCpuMs: number[] = [];
    const slowest = new Map<string, number[]>();
    for (let i = 0; i <= opts.runs; i++) {
      const cpu0 = process.cpuUsage();
      const chromium0 = chromiumCpuSeconds(dir);
      await page.goto('/', { waitUntil: 'commit' });
      await page.waitForFunction(() => (window as { __dashPaint?: number }).__dashPaint, undefined, { timeout: 30_000, polling: 50 });
      const ms = await page.evaluate(() => (window as unknown as { __dashPaint: number }).__dashPaint);
      const cpu = process.cpuUsage(cpu0);
      if (i > 0) {
        apiCpuMs.push((cpu.user + cpu.system) / 1000);
        cpuMs.push((cpu.user + cpu.system) / 1000 + (chromiumCpuSeconds(dir) - chromium0) * 1000);
      }
      // Where the time went: when the last API answer and the last script arrived, per call.
      const entries = await page.evaluate(() =>
        performance.getEntriesByType('resource').map((e) => ({ name: e.name, start: e.startTime, end: (e as PerformanceResourceTiming).responseEnd })),
      );
      const api = entries.filter((e) => e.name.includes('/api/'));
      if (i > 0) {
        apiDone.push(Math.max(...api.map((e) => e.end)));
        for (const e of api) {
          const key = new URL(e.name).pathname.replace('/api/', '');
          slowest.set(key, [...(slowest.get(key) ?? []), e.end - e.start]);
        }
      }
      // Sanity: the figures are the seeded fleet's, not an empty screen.
      if (i === 0) {
        const ring = await page.locator('[role="img"][aria-label^="Running instances"]').getAttribute('aria-label');
        log(`first load (empty cache): ${ms.toFixed(0)} ms — ${ring}`);
      } else times.push(ms);
    }
    times.sort((a, b) => a - b);
    apiDone.sort((a, b) => a - b);
    cpuMs.sort((a, b) => a - b);
    // With nothing else on the machine a load waits only on the CPU (everything is in memory on
    // one host), so the CPU it costs bounds its wall-clock time from above on one free core.
    apiCpuMs.sort((a, b) => a - b);
    log(`CPU per load, API process + Chromium (reloads): median ${pct(cpuMs, 50).toFixed(0)} ms, p95 ${pct(cpuMs, 95).toFixed(0)} ms (API process alone: median ${pct(apiCpuMs, 50).toFixed(0)} ms)`);
    log(`last API answer (reloads): median ${pct(apiDone, 50).toFixed(0)} ms after navigation start`);
    for (const [key, list] of [...slowest].sort((a, b) => pct(b[1].sort((x, y) => x - y), 50) - pct(a[1].sort((x, y) => x - y), 50))) {
      log(`  ${key.padEnd(42)} median ${pct(list, 50).toFixed(0)} ms`);
    }
    const result = { servers: counts!.servers, alerts: counts!.alerts, median: pct(times, 50), p95: pct(times, 95), max: times[times.length - 1]!, cpuMedian: pct(cpuMs, 50), cpuP95: pct(cpuMs, 95) };
    log(`reloads (${times.length}): median ${result.median.toFixed(0)} ms, p95 ${result.p95.toFixed(0)} ms, max ${result.max.toFixed(0)} ms — target < ${TARGET_MS} ms; ${machineLoad()}`);
    return result;
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
    await app.close();
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runDashboardBench({ servers: numberOption('--servers', 1000), alerts: numberOption('--alerts', 100_000), runs: numberOption('--runs', 15) });
  process.exit(r.p95 < TARGET_MS ? 0 : 1);
}

/** For profiling by hand: the default fleet. */
export const seedForProfile = (database: Database) => seed(database, 1000, 100_000);
