/**
 * `GET /api/incident-report` at 100,000 alerts over 1,000 servers (the alerts-list seed) with
 * their timelines (a firing event each, a resolved event for the resolved ones: ~200,000
 * events), on PGlite and on the local PostgreSQL. No target in the issues: a report is asked for
 * during or after an incident, and should come back in well under a second.
 * Measured through the real app (Fastify inject), one request at a time, after warm-up requests.
 */
import { buildApp } from '../server/app';
import { hashPassword } from '../server/auth/password';
import { testConfig } from '../server/config';
import { users } from '../server/db/schema';
import { backends } from '../tests/api/harness';
import { seedAlerts } from './alerts-list';
import { machineLoad, numberOption } from './lib/options';

const RUNS = numberOption('--runs', 10);
const WARMUP = 2;
const NOW = Date.parse('2026-06-01T12:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const r1 = (n: number) => Math.round(n * 10) / 10;

const only = process.argv.includes('--backend') ? process.argv[process.argv.indexOf('--backend') + 1] : undefined;
console.log(`GET /api/incident-report at 100,000 alerts / ~200,000 timeline events, ${RUNS} requests per case; ${machineLoad()}`);
for (const backend of (await backends()).filter((b) => !only || b.name === only)) {
  const { database, drop } = await backend.open();
  try {
    await seedAlerts(database);
    await database.query(
      `insert into alert_events (alert_id, type, at)
       select id, 'firing', created_at from alerts
       union all select id, 'resolved', resolved_at from alerts where resolved_at is not null`,
    );
    await database.query('vacuum analyze alert_events');
    const hash = await hashPassword('bench-password');
    const [admin] = await database.db.insert(users).values({ username: 'bench-admin', email: 'bench-admin@example.com', phonenumber: '', passwordHash: hash, role: 'admin' }).returning();
    const app = await buildApp(testConfig(), { database });
    const signin = await app.inject({ method: 'POST', url: '/api/auth/signin', headers: { 'x-requested-with': 'opsdeck' }, payload: { email: admin!.email, password: 'bench-password' } });
    const cookie = `opsdeck_session=${signin.cookies.find((c) => c.name === 'opsdeck_session')!.value}`;
    const [server] = await database.query<{ id: string }>(`select id from servers order by hostname limit 1`);
    const iso = (ms: number) => new Date(ms).toISOString();
    const cases: { name: string; q: Record<string, string> }[] = [
      { name: 'last 6 hours, all servers', q: { from: iso(NOW - 6 * HOUR), to: iso(NOW) } },
      { name: 'last 7 days, all servers', q: { from: iso(NOW - 7 * DAY), to: iso(NOW) } },
      { name: 'one day 3 months ago, all servers', q: { from: iso(NOW - 90 * DAY), to: iso(NOW - 89 * DAY) } },
      { name: 'last 31 days, one server', q: { from: iso(NOW - 31 * DAY), to: iso(NOW), serverId: server!.id } },
    ];
    console.log(`  ${backend.name}:`);
    for (const c of cases) {
      const times: number[] = [];
      let alerts = 0;
      for (let i = 0; i < RUNS + WARMUP; i++) {
        const started = performance.now();
        const res = await app.inject({ method: 'GET', url: `/api/incident-report?${new URLSearchParams(c.q)}`, headers: { cookie, 'x-requested-with': 'opsdeck' } });
        const ms = performance.now() - started;
        if (res.statusCode !== 200) throw new Error(`${c.name}: ${res.statusCode} ${res.body}`);
        alerts = (JSON.parse(res.body) as { result: { alerts: number } }).result.alerts;
        if (i >= WARMUP) times.push(ms);
      }
      times.sort((a, b) => a - b);
      console.log(`    ${c.name.padEnd(36)} p50 ${String(r1(pct(times, 50))).padStart(7)} ms  p95 ${String(r1(pct(times, 95))).padStart(7)} ms  (${alerts} alerts in the report)`);
    }
    await app.close();
  } finally {
    await drop();
  }
}
