/**
 * "Who is on call" (issue 27): 200 schedules × 5 layers with a year of overrides, target p95 ≤ 5 ms
 * a query. Pure computation (server/oncall): schedules are compiled once, as a running console
 * keeps them, and asked about random instants over the year; also every schedule at once (what
 * `oncall.who` without a schedule answers) and a schedule compiled from its definition for each
 * question (no cache at all).
 *
 * Layers mix rotations (hours, days, a week), restrictions (weekday office hours, weekend
 * time-of-week ranges) and 20 time zones; each schedule has 150 overrides over the year (about
 * three a week, 2–30 hours each). Seeded, so every run asks the same questions.
 *
 * Then the API answer itself (`GET /api/oncall/who` through the real app: routing, session,
 * validation, SQL, the people named): the same 200 schedules stored in the database, every
 * schedule and one schedule by name, now (what the console and `oncall.who` ask) and at a
 * random instant of the year (`--at`), and the first answer after one schedule's edit.
 *
 * `npx tsx bench/oncall-who.ts [--schedules 200] [--queries 20000] [--requests 300] [--backend pglite|postgres]`
 */
import { randomUUID } from 'node:crypto';
import { buildApp } from '../server/app';
import { hashPassword } from '../server/auth/password';
import { testConfig } from '../server/config';
import type { Database } from '../server/db/client';
import { oncallOverrides, oncallSchedules, users } from '../server/db/schema';
import type { Layer, Override, Schedule } from '../server/oncall/model';
import { compileSchedule, type OnCallSchedule } from '../server/oncall/schedule';
import { whoIsOnCall } from '../server/oncall/service';
import { backends } from '../tests/api/harness';
import { cpuMeter } from './lib/cpu';
import { machineLoad, numberOption } from './lib/options';

const SCHEDULES = numberOption('--schedules', 200);
const QUERIES = numberOption('--queries', 20_000);
const TARGET_MS = 5;
const ZONES = ['UTC', 'Europe/London', 'Europe/Berlin', 'Europe/Helsinki', 'America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles', 'America/Sao_Paulo', 'America/St_Johns', 'Asia/Kolkata', 'Asia/Kathmandu', 'Asia/Tokyo', 'Asia/Singapore', 'Australia/Sydney', 'Australia/Adelaide', 'Australia/Lord_Howe', 'Pacific/Auckland', 'Africa/Johannesburg', 'Asia/Tehran'];
const YEAR_FROM = Date.UTC(2026, 0, 1);
const YEAR = 365 * 86_400_000;

// mulberry32: a small seeded generator, so runs are comparable.
let seed = 27;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
const r1 = (n: number) => Math.round(n * 1000) / 1000;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

function schedule(i: number): Schedule {
  const people = Array.from({ length: 8 }, (_, j) => `user-${i}-${j}`);
  const layers: Layer[] = Array.from({ length: 5 }, (_, j) => {
    const kind = j % 5;
    const base = { id: `L${j}`, participants: people.slice(j % 3, (j % 3) + 3 + (j % 4)), start: '2025-12-01', handoff: pick(['00:00', '09:00', '10:00', '18:30']) };
    if (kind === 0) return { ...base, shift: { length: 1, unit: 'weeks' } };
    if (kind === 1) return { ...base, shift: { length: 1, unit: 'days' }, restrictions: [{ type: 'daily', days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '18:00' }] };
    if (kind === 2) return { ...base, shift: { length: 12, unit: 'hours' } };
    if (kind === 3) return { ...base, shift: { length: 1, unit: 'weeks' }, restrictions: [{ type: 'weekly', from: { day: 'fri', time: '18:00' }, to: { day: 'mon', time: '09:00' } }] };
    return { ...base, shift: { length: 8, unit: 'hours' }, restrictions: [{ type: 'daily', from: '22:00', to: '06:00' }] };
  });
  const overrides: Override[] = [];
  let at = YEAR_FROM;
  for (let k = 0; k < 150; k++) {
    at += Math.floor((random() * YEAR) / 150);
    const end = at + (2 + Math.floor(random() * 28)) * 3_600_000;
    overrides.push({ id: `o${k}`, person: pick(people), start: new Date(at).toISOString(), end: new Date(end).toISOString() });
    at = end;
  }
  return { timeZone: ZONES[i % ZONES.length]!, layers, overrides };
}

function compile(s: Schedule): OnCallSchedule {
  const r = compileSchedule(s);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.schedule;
}

let cpu = process.cpuUsage();
/** Starts a phase's CPU count (this process's user + system time: unlike wall time, hardly moved by other work on the machine). */
const phase = () => void (cpu = process.cpuUsage());

function summary(label: string, times: number[], target: number | null = TARGET_MS): void {
  const used = process.cpuUsage(cpu);
  const cpuPer = (used.user + used.system) / 1000 / times.length;
  times.sort((a, b) => a - b);
  const p95 = pct(times, 95);
  const verdict = target === null ? '' : ` (target p95 ≤ ${target} ms: ${p95 <= target ? 'ok' : 'OVER'})`;
  console.log(`${label}: ${times.length} queries; p50 ${r1(pct(times, 50))} ms, p95 ${r1(p95)} ms, p99 ${r1(pct(times, 99))} ms, max ${r1(times[times.length - 1]!)} ms; CPU ${r1(cpuPer)} ms a query on average${verdict}`);
}

const definitions = Array.from({ length: SCHEDULES }, (_, i) => schedule(i));
const t0 = performance.now();
const compiled = definitions.map(compile);
console.log(`${SCHEDULES} schedules × 5 layers, ${SCHEDULES * 150} overrides over a year; compiled in ${r1(performance.now() - t0)} ms (${machineLoad()})`);

// Warm-up: the JIT, and each zone's table for the year (built on a zone's first question).
for (let i = 0; i < 2000; i++) pick(compiled).who(YEAR_FROM + random() * YEAR);

phase();
const one: number[] = [];
let onCall = 0;
for (let i = 0; i < QUERIES; i++) {
  const s = pick(compiled);
  const t = YEAR_FROM + random() * YEAR;
  const started = performance.now();
  if (s.who(t)) onCall++;
  one.push(performance.now() - started);
}
summary(`one schedule, compiled (${Math.round((100 * onCall) / QUERIES)} % of answers name someone)`, one);

phase();
const all: number[] = [];
for (let i = 0; i < Math.max(50, QUERIES / 40); i++) {
  const t = YEAR_FROM + random() * YEAR;
  const started = performance.now();
  for (const s of compiled) s.who(t);
  all.push(performance.now() - started);
}
summary(`all ${SCHEDULES} schedules at one instant, compiled`, all);

phase();
const cold: number[] = [];
for (let i = 0; i < Math.max(200, QUERIES / 20); i++) {
  const s = pick(definitions);
  const t = YEAR_FROM + random() * YEAR;
  const started = performance.now();
  compile(s).who(t);
  cold.push(performance.now() - started);
}
summary('one schedule, compiled from its definition for the question', cold);

phase();
const spans: number[] = [];
for (let i = 0; i < 200; i++) {
  const s = pick(compiled);
  const t = YEAR_FROM + random() * (YEAR - 14 * 86_400_000);
  const started = performance.now();
  s.final(t, t + 14 * 86_400_000);
  spans.push(performance.now() - started);
}
summary('final schedule of one schedule over two weeks (the timeline)', spans, null);

// ---- The API answer: GET /api/oncall/who through the real app ----
const REQUESTS = numberOption('--requests', 300);

async function api(database: Database, name: string): Promise<void> {
  const hash = await hashPassword('bench-password');
  const [admin] = await database.db.insert(users).values({ username: 'bench-admin', email: 'bench-admin@example.com', phonenumber: '', passwordHash: hash, role: 'admin' }).returning();
  // Each schedule's people as users; the definitions' "user-i-j" become their ids.
  const ids = new Map<string, string>();
  const people = definitions.flatMap((_, i) => Array.from({ length: 8 }, (_, j) => `user-${i}-${j}`));
  for (let k = 0; k < people.length; k += 500) {
    const rows = await database.db
      .insert(users)
      .values(people.slice(k, k + 500).map((p) => ({ username: p, email: `${p}@example.com`, phonenumber: '', passwordHash: 'x', role: 'user' as const })))
      .returning({ id: users.id, username: users.username });
    for (const r of rows) ids.set(r.username, r.id);
  }
  const names: string[] = [];
  for (const [i, d] of definitions.entries()) {
    const id = randomUUID();
    names.push(`schedule-${i}`);
    await database.db.insert(oncallSchedules).values({ id, name: `schedule-${i}`, timeZone: d.timeZone, layers: d.layers.map((l) => ({ ...l, participants: l.participants.map((p) => ids.get(p)!) })), createdById: admin!.id, createdByName: 'bench-admin' });
    await database.db.insert(oncallOverrides).values(d.overrides!.map((o) => ({ scheduleId: id, userId: ids.get(o.person)!, startsAt: new Date(o.start), endsAt: new Date(o.end), createdById: admin!.id, createdByName: 'bench-admin' })));
  }
  await database.query('analyze oncall_schedules, oncall_overrides, users');
  const app = await buildApp(testConfig(), { database });
  const signin = await app.inject({ method: 'POST', url: '/api/auth/signin', headers: { 'x-requested-with': 'opsdeck' }, payload: { email: admin!.email, password: 'bench-password' } });
  const cookie = `opsdeck_session=${signin.cookies.find((c) => c.name === 'opsdeck_session')!.value}`;
  const meter = await cpuMeter(database);
  const who = async (query: string) => {
    const res = await app.inject({ method: 'GET', url: `/api/oncall/who${query}`, headers: { cookie } });
    if (res.statusCode !== 200) throw new Error(res.body);
    return res;
  };
  // The service alone (SQL and the answer, no HTTP): where the request's time goes.
  for (const [label, input] of [['every schedule, now', () => ({})], ['one schedule by name, now', () => ({ schedule: pick(names) })]] as const) {
    const times: number[] = [];
    for (let i = 0; i < REQUESTS + 10; i++) {
      const started = performance.now();
      await whoIsOnCall(database.db, input());
      if (i >= 10) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(`service ${name}, ${label}: p50 ${r1(pct(times, 50))} ms, p95 ${r1(pct(times, 95))} ms`);
  }
  const cases: [string, () => string][] = [
    ['every schedule, now', () => ''],
    ['one schedule by name, now', () => `?schedule=${pick(names)}`],
    ['every schedule, --at a random instant of the year', () => `?at=${new Date(YEAR_FROM + random() * YEAR).toISOString()}`],
    ['one schedule by name, --at a random instant of the year', () => `?schedule=${pick(names)}&at=${new Date(YEAR_FROM + random() * YEAR).toISOString()}`],
  ];
  for (const [label, query] of cases) {
    const times: number[] = [];
    const cpuTimes: number[] = [];
    for (let i = 0; i < REQUESTS + 10; i++) {
      const q = query();
      const stop = await meter.start();
      const started = performance.now();
      await who(q);
      const ms = performance.now() - started;
      const used = await stop();
      if (i >= 10) {
        times.push(ms);
        cpuTimes.push(used);
      }
    }
    times.sort((a, b) => a - b);
    cpuTimes.sort((a, b) => a - b);
    const p95 = pct(times, 95);
    console.log(`API ${name}, ${label}: ${times.length} requests; p50 ${r1(pct(times, 50))} ms, p95 ${r1(p95)} ms, max ${r1(times[times.length - 1]!)} ms; CPU p50 ${r1(pct(cpuTimes, 50))} ms, p95 ${r1(pct(cpuTimes, 95))} ms (target p95 ≤ ${TARGET_MS} ms: ${p95 <= TARGET_MS ? 'ok' : 'OVER'})`);
  }
  // The first answer for every schedule after one schedule changed (an override added through the API).
  const edits: number[] = [];
  const list = (await who('')).json().result as { schedule: { _id: string } }[];
  for (let i = 0; i < 20; i++) {
    const s = pick(list).schedule._id;
    const start = Date.now() + (400 + i) * 86_400_000;
    const res = await app.inject({ method: 'POST', url: `/api/oncall-schedules/${s}/overrides`, headers: { cookie, 'x-requested-with': 'opsdeck' }, payload: { user: admin!.id, start: new Date(start).toISOString(), end: new Date(start + 3_600_000).toISOString() } });
    if (res.statusCode !== 201) throw new Error(res.body);
    const started = performance.now();
    await who('');
    edits.push(performance.now() - started);
  }
  edits.sort((a, b) => a - b);
  console.log(`API ${name}, every schedule, first answer after an edit of one: ${edits.length} requests; p50 ${r1(pct(edits, 50))} ms, max ${r1(edits[edits.length - 1]!)} ms`);
  await app.close();
}

const only = process.argv.includes('--backend') ? process.argv[process.argv.indexOf('--backend') + 1] : 'pglite';
for (const backend of (await backends()).filter((b) => b.name === only)) {
  const { database, drop } = await backend.open();
  try {
    await api(database, backend.name);
  } finally {
    await drop();
  }
}
console.log(machineLoad());
process.exit(0);
