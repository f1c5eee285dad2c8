/**
 * Issue 16 checks: the Checks list at 5,000 checks answers p95 ≤ 25 ms through the real app
 * (inject: routing, session, validation, SQL, rules and uptime of the page), on PGlite and
 * PostgreSQL; wall time and CPU time (this process, plus PostgreSQL's backends) per request.
 *
 * `npm run bench -- checks-list [--list 5000] [--backend pglite|postgres] [--unkept]` (`npx tsx bench/checks-list.ts`)
 */
import { buildApp } from '../server/app';
import { hashPassword } from '../server/auth/password';
import { testConfig } from '../server/config';
import { CheckStore } from '../server/monitoring/checks/check-store';
import type { Database } from '../server/db/client';
import { users } from '../server/db/schema';
import { backends } from '../tests/api/harness';
import { cpuMeter } from './lib/cpu';
import { machineLoad, numberOption } from './lib/options';

const LIST = numberOption('--list', 5000);
const RUNS = 300;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function listLatency(database: Database, name: string): Promise<void> {
  await database.query(
    `insert into checks (name, kind, target, url, interval_s, state, latency_ms, last_checked_at, created_at)
     select 'check-' || i || '-' || substr(md5(i::text), 1, 6), 'http', 'https://svc' || i || '.example.com/health', 'https://svc' || i || '.example.com/health', 60,
            (array['up','up','up','down'])[1 + i % 4], 20 + i % 300, now(), now() - (i || ' seconds')::interval
     from generate_series(1, ${LIST}) as i`,
  );
  await database.query(
    `insert into check_rules (check_id, kind, enabled, time_limit, threshold, severity)
     select c.id, k.kind, true, 60, k.threshold, 'warning' from checks c
     cross join (values ('down', null::int), ('latency', 2000), ('cert_expiry', 14)) as k(kind, threshold)`,
  );
  // A day of hourly sums per check: what uptime24h reads for each page.
  await database.query(
    `insert into check_hourly (check_id, bucket, total, up, latency_sum, latency_count, latency_max)
     select c.id, date_trunc('hour', now()) - (h || ' hours')::interval, 60, 59, 6000, 60, 300 from checks c, generate_series(0, 24) as h`,
  );
  // What the result writer leaves on each check after writing its results this hour (uptime24h's
  // sums, docs/decisions.md "The Checks list at 5,000 checks"); `--unkept`: as in an hour's first minute, before any check was written in it.
  if (!process.argv.includes('--unkept')) await new CheckStore(database).keepUptime24h(null, Date.now());
  await database.query('analyze checks, check_rules, check_hourly');
  const hash = await hashPassword('bench-password');
  const [admin] = await database.db.insert(users).values({ username: 'bench-admin', email: 'bench-admin@example.com', phonenumber: '', passwordHash: hash, role: 'admin' }).returning();
  const app = await buildApp(testConfig(), { database });
  const signin = await app.inject({ method: 'POST', url: '/api/auth/signin', headers: { 'x-requested-with': 'opsdeck' }, payload: { email: admin!.email, password: 'bench-password' } });
  const cookie = `opsdeck_session=${signin.cookies.find((c) => c.name === 'opsdeck_session')!.value}`;
  const bodies: [string, object][] = [
    ['default (newest first)', { pageNumber: 1, pageSize: 25 }],
    ['page 40', { pageNumber: 40, pageSize: 25 }],
    ['search "svc12"', { pageNumber: 1, pageSize: 25, search: 'svc12' }],
    ['state down, by name', { pageNumber: 1, pageSize: 25, filter: { state: 'down' }, sort: { by: 'name', direction: 'asc' } }],
    ['100 per page', { pageNumber: 1, pageSize: 100 }],
  ];
  const meter = await cpuMeter(database);
  for (const [label, body] of bodies) {
    const times: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < RUNS / bodies.length + 10; i++) {
      const stop = await meter.start();
      const t0 = performance.now();
      const res = await app.inject({ method: 'POST', url: '/api/checks/all', headers: { cookie, 'x-requested-with': 'opsdeck' }, payload: body });
      const ms = performance.now() - t0;
      const cpuMs = await stop();
      if (res.statusCode !== 200) throw new Error(res.body);
      if (i >= 10) {
        times.push(ms);
        cpu.push(cpuMs);
      }
    }
    times.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    console.log(`${name}, ${LIST} checks, ${label}: p50 ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms (CPU p50 ${pct(cpu, 50).toFixed(1)} ms, p95 ${pct(cpu, 95).toFixed(1)} ms); target p95 ≤ 25 ms`);
  }
  await app.close();
}

console.log(`checks list bench, ${machineLoad()}`);
const only = process.argv.includes('--backend') ? process.argv[process.argv.indexOf('--backend') + 1] : undefined;
for (const backend of (await backends()).filter((b) => !only || b.name === only)) {
  const { database, drop } = await backend.open();
  try {
    await listLatency(database, backend.name);
  } finally {
    await drop();
  }
}
console.log(machineLoad());
process.exit(0);
