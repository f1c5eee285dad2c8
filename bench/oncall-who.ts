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
 * `npx tsx bench/oncall-who.ts [--schedules 200] [--queries 20000]`
 */
import type { Layer, Override, Schedule } from '../server/oncall/model';
import { compileSchedule, type OnCallSchedule } from '../server/oncall/schedule';
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
console.log(machineLoad());
