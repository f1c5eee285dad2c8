/**
 * Issue 16 checks: 500 HTTP checks every 30 s cost < 10 % of one core — the runner, probes and
 * result writes (PGlite in this process) measured as this process's CPU time over a steady minute,
 * the target served by a separate process so serving it is not counted.
 *
 * `npm run bench -- checks-cost [--checks 500] [--seconds 60]` (`npx tsx bench/checks-cost.ts`)
 */
import { spawn } from 'node:child_process';
import { openDatabase } from '../server/db/client';
import { CheckRunner } from '../server/monitoring/checks/check-runner';
import { cpuMeter } from './lib/cpu';
import { machineLoad, numberOption } from './lib/options';
import { freePort, sleep } from './lib/processes';

const CHECKS = numberOption('--checks', 500);
const SECONDS = numberOption('--seconds', 60);
const quiet = { warn: () => {}, error: (o: object, m: string) => console.error(m, o) };

async function runnerCost(): Promise<void> {
  const port = await freePort();
  // The target in its own process: serving 17 requests a second is not the checks' cost.
  const target = spawn(process.execPath, ['-e', `require('http').createServer((q, s) => s.end('ok: all systems operational')).listen(${port}, '127.0.0.1')`], { stdio: 'ignore' });
  await sleep(500);
  const database = await openDatabase({});
  await database.query(
    `insert into checks (name, kind, target, url, interval_s, timeout_s, keyword, last_checked_at)
     select 'web-' || i, 'http', $1 || '/page/' || i, $1 || '/page/' || i, 30, 10, 'operational',
            now() - ((i % 30) || ' seconds')::interval - interval '30 seconds'
     from generate_series(1, ${CHECKS}) as i`,
    [`http://127.0.0.1:${port}`],
  );
  const runner = new CheckRunner(database, { concurrency: 32, retentionHours: 48 }, quiet);
  runner.start();
  // One whole interval to settle (every check has run once), then the measured window.
  await sleep(32_000);
  const runsBefore = runner.stats.runs;
  const meter = await cpuMeter(database);
  const stop = await meter.start();
  const t0 = performance.now();
  await sleep(SECONDS * 1000);
  const cpuMs = await stop();
  const wallMs = performance.now() - t0;
  const runs = runner.stats.runs - runsBefore;
  await runner.stop();
  const [rows] = await database.query<{ n: number }>('select count(*)::int as n from check_samples');
  target.kill();
  await database.close();
  console.log(
    `${CHECKS} HTTP checks every 30 s for ${(wallMs / 1000).toFixed(0)} s: ${runs} runs (${(runs / (wallMs / 1000)).toFixed(1)}/s, ${runner.stats.failures} failed), ` +
      `${(cpuMs / 1000).toFixed(2)} CPU s = ${((cpuMs / wallMs) * 100).toFixed(1)} % of one core (target < 10 %); ${(cpuMs / runs).toFixed(2)} CPU ms per run; ${rows!.n} samples written; ${machineLoad()}`,
  );
}

console.log(`checks runner cost, ${machineLoad()} before`);
await runnerCost();
process.exit(0);
