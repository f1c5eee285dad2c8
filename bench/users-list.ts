/**
 * `POST /api/users/all` with a `username contains` filter at 100,000 users on PGlite.
 * Target (issue 2): p95 ≤ 25 ms. Measured through the real app (Fastify inject: routing,
 * session lookup, validation, SQL, serialisation), one request at a time.
 */
import { buildApp } from '../server/app';
import { hashPassword } from '../server/auth/password';
import { testConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { users } from '../server/db/schema';
import { cpuMeter } from './lib/cpu';
import { machineLoad } from './lib/options';
import { typedLoad } from './lib/typed';

const USERS = 100_000;
const RUNS = 300;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function runUsersListBench() {
  const database = await openDatabase({});
  const hash = await hashPassword('bench-password');
  const t0 = performance.now();
  // One statement seeds everything: generate_series beats 100,000 round trips.
  await database.query(
    `INSERT INTO users (username, email, phonenumber, password_hash, role, status, created_at)
     SELECT 'user' || i || '-' || substr(md5(i::text), 1, 6), 'user' || i || '@example.com', '+1 555 ' || lpad((i % 10000)::text, 4, '0'), $1,
            (ARRAY['admin','sysadmin','user'])[1 + i % 3], 'active', now() - (i || ' seconds')::interval
     FROM generate_series(1, ${USERS}) AS i`,
    [hash],
  );
  await database.query('ANALYZE users');
  const seedMs = performance.now() - t0;
  const [admin] = await database.db.insert(users).values({ username: 'bench-admin', email: 'bench-admin@example.com', phonenumber: '', passwordHash: hash, role: 'admin' }).returning();
  const app = await buildApp(testConfig(), { database });
  const signin = await app.inject({ method: 'POST', url: '/api/auth/signin', headers: { 'x-requested-with': 'opsdeck' }, payload: { email: admin!.email, password: 'bench-password' } });
  const cookie = `opsdeck_session=${signin.cookies.find((c) => c.name === 'opsdeck_session')!.value}`;
  // Three characters and more is what the trigram indexes serve, and what an operator types to
  // find a person; one- and two-character needles scan the table and are reported apart.
  const needles = ['a1b', 'user12', '7c3', '4242', 'ser9', '@exa', '-ff', '123', 'e4d', 'r77', '99', 'f0', 'e9', 'zz', '-3', 'd'];
  const times: number[] = [];
  const byNeedle = new Map<string, number[]>();
  let total = 0;
  for (let i = 0; i < RUNS + 20; i++) {
    const started = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: '/api/users/all',
      headers: { cookie, 'x-requested-with': 'opsdeck' },
      payload: { pageNumber: 1, pageSize: 25, sort: { by: 'createdAt', direction: 'asc' }, filter: { username: { contains: needles[i % needles.length] } } },
    });
    const ms = performance.now() - started;
    if (res.statusCode !== 200) throw new Error(res.body);
    total += (JSON.parse(res.body) as { result: { count: number } }).result.count;
    if (i >= 20) {
      // the first calls warm the JIT and PGlite's caches
      times.push(ms);
      const needle = needles[i % needles.length]!;
      byNeedle.set(needle, [...(byNeedle.get(needle) ?? []), ms]);
    }
  }
  const long = [...byNeedle].filter(([k]) => k.length >= 3).flatMap(([, v]) => v).sort((a, b) => a - b);
  const short = [...byNeedle].filter(([k]) => k.length < 3).flatMap(([, v]) => v).sort((a, b) => a - b);
  times.sort((a, b) => a - b);
  // What people type (issue 17 §4): 1-4 characters of real usernames, one client and 8 at once.
  const typed = await typedLoad(app, cookie, '/api/users/all', ['user', 'user4', '1a2b', '9-ff'], (needle) => ({ pageNumber: 1, pageSize: 25, sort: { by: 'createdAt', direction: 'asc' }, filter: { username: { contains: needle } } }), 10, await cpuMeter(database));
  await app.close();
  await database.close();
  const perNeedle = Object.fromEntries([...byNeedle].map(([k, v]) => [k, +percentile(v.sort((a, b) => a - b), 50).toFixed(1)]));
  const summary = (v: number[]) => ({ medianMs: +percentile(v, 50).toFixed(1), p95Ms: +percentile(v, 95).toFixed(1) });
  return { typed, perNeedle, atLeast3Chars: summary(long), under3Chars: summary(short), users: USERS, runs: RUNS, seedSeconds: Math.round(seedMs / 100) / 10, medianMs: +percentile(times, 50).toFixed(1), p95Ms: +percentile(times, 95).toFixed(1), matchedRows: total };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runUsersListBench();
  console.log('median ms per needle:', JSON.stringify(r.perNeedle));
  console.log(`users/all, username contains, ${r.users} users on PGlite, ${r.runs} requests; seeded in ${r.seedSeconds} s`);
  console.log(`  needles of 3+ characters: median ${r.atLeast3Chars.medianMs} ms, p95 ${r.atLeast3Chars.p95Ms} ms (target p95 ≤ 25 ms)`);
  console.log(`  needles of 1-2 characters: median ${r.under3Chars.medianMs} ms, p95 ${r.under3Chars.p95Ms} ms (no trigram index applies: table scan)`);
  console.log(`  all: median ${r.medianMs} ms, p95 ${r.p95Ms} ms`);
  console.log(`  typed prefixes (${machineLoad()}):`);
  for (const x of r.typed) console.log(`    ${x.label.padEnd(26)} p50 ${String(x.p50).padStart(6)} ms  p95 ${String(x.p95).padStart(6)} ms  max ${String(x.max).padStart(6)} ms  ${x.counts}`);
}
