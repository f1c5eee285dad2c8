/**
 * Where the tick's CPU goes on PGlite, statement by statement: runs bench/alert-tick.ts (same
 * seed, same 120 warm ticks) with drizzle's PGlite query wrapped, and prints each statement's CPU
 * per measured tick (parse, plan and run; PGlite runs in this process), heaviest first.
 * `RECHECK=1`: only the ticks whose router sweep re-read open alerts after a silence or window
 * changed (FACTS), else only the others. Not for PostgreSQL (its backends' CPU is not seen here).
 *
 *   npx tsx bench/alert-tick-statements.ts --backend pglite
 */
import { PglitePreparedQuery } from 'drizzle-orm/pglite/session';
import { AlertEvaluator } from '../server/alerting/evaluator';
import { cachedPlanProbe } from '../server/db/cached-plans';
import { runAlertTickBench } from './alert-tick';

/** The bench's ticks before measuring: 1 + 100 simulated minutes + 8 warm-up. */
const UNMEASURED = 109;
let ticks = 0;
let on = false;
let current: [string, number][] = [];
let counted = 0;
let tickCpu = 0;
const stats = new Map<string, { n: number; cpu: number }>();
const recheckOnly = process.env.RECHECK === '1';

const execute = PglitePreparedQuery.prototype.execute;
PglitePreparedQuery.prototype.execute = async function (this: PglitePreparedQuery<never>, ...args: Parameters<typeof execute>) {
  if (!on) return execute.apply(this, args);
  const c = process.cpuUsage();
  try {
    return await execute.apply(this, args);
  } finally {
    const u = process.cpuUsage(c);
    current.push([String((this as unknown as { queryString: string }).queryString).replace(/\s+/g, ' ').trim().slice(0, 110), (u.user + u.system) / 1000]);
  }
} as typeof execute;

// Statements run through a kept plan (server/db/cached-plans.ts) bypass drizzle: marked [cached].
cachedPlanProbe.onRun = (text, ms) => {
  if (on) current.push([`[cached] ${text.replace(/\s+/g, ' ').trim().slice(0, 101)}`, ms]);
};

const tick = AlertEvaluator.prototype.tick;
AlertEvaluator.prototype.tick = async function (this: AlertEvaluator) {
  on = ++ticks > UNMEASURED;
  current = [];
  const c = process.cpuUsage();
  try {
    return await tick.call(this);
  } finally {
    const u = process.cpuUsage(c);
    const recheck = current.some(([k]) => k.startsWith('select a.id, a.server_id, a.hostname, a.alertname'));
    if (on && recheck === recheckOnly) {
      counted++;
      tickCpu += (u.user + u.system) / 1000;
      for (const [key, ms] of current) {
        const s = stats.get(key) ?? { n: 0, cpu: 0 };
        s.n++;
        s.cpu += ms;
        stats.set(key, s);
      }
    }
    on = false;
  }
};

if (!process.argv.includes('--backend')) process.argv.push('--backend', 'pglite');
const [result] = await runAlertTickBench();
let sum = 0;
console.log(`${counted} ${recheckOnly ? 're-checking' : 'other'} measured ticks; whole bench CPU ${JSON.stringify(result?.cpu)}`);
for (const [key, s] of [...stats].sort((a, b) => b[1].cpu - a[1].cpu)) {
  sum += s.cpu;
  console.log(`${(s.cpu / counted).toFixed(2).padStart(7)} ms/tick ${String(s.n).padStart(5)}×  ${key}`);
}
console.log(`statements ${(sum / counted).toFixed(1)} ms per tick; whole tick ${(tickCpu / counted).toFixed(1)} ms per tick (CPU of this process)`);
