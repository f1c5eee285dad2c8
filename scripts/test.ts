/**
 * `npm test`: type-check, unit and API tests (PGlite and the local PostgreSQL), `npm run build`
 * (the UI and the compiled server), then browser end-to-end tests against the server `npm start` runs. Prints one closing line
 * "N passed, N failed" over everything, and exits non-zero when anything failed.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';

interface Lane {
  name: string;
  cmd: string[];
  /** Vitest's JSON report: how many passed and failed. */
  report?: string;
}

/** A step runs its lanes side by side (most steps have one) and counts their reports together. */
interface Step {
  name: string;
  lanes: Lane[];
}

const vitestE2e = (lane: string, files: string[], exclude: string[] = []) => [
  'npx',
  'vitest',
  'run',
  '-c',
  'vitest.e2e.config.ts',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=.tmp/e2e-${lane}.json`,
  ...exclude.flatMap((f) => ['--exclude', f]),
  ...files,
];
/**
 * Browser files that spend most of their time waiting on real clocks (a rule's 60 s grace period,
 * a real installer): they run in a lane of their own beside the others, each lane with its own
 * server, so the waits no longer add up (`npm test` was 800 s of its 900 s budget).
 */
const WAITING_E2E = [
  'tests/e2e/notifications.e2e.test.ts',
  'tests/e2e/incident-report.e2e.test.ts',
  'tests/e2e/agent-setup.e2e.test.ts',
  'tests/e2e/untrusted-text.e2e.test.ts',
  'tests/e2e/routing.e2e.test.ts',
  // A real Prometheus rule through a real Alertmanager into Opsdeck (~15 s of their clocks).
  'tests/e2e/alertmanager.e2e.test.ts',
  // Installs the packed tarball with npm (mostly waiting on the registry mirror).
  'tests/e2e/package.e2e.test.ts',
  // Waits out a real delivery retry (30 s) after a restore.
  'tests/e2e/backup.e2e.test.ts',
  // Not waiting: they even out the lanes (~600 s waiting, ~880 s the rest without them; each
  // ~740 s with them).
  'tests/e2e/pinned-widgets.e2e.test.ts',
  'tests/e2e/dashboard.e2e.test.ts',
  'tests/e2e/live.e2e.test.ts',
  'tests/e2e/start.e2e.test.ts',
  'tests/e2e/csp.e2e.test.ts',
];

mkdirSync('.tmp', { recursive: true });
const only = process.argv.slice(2);
const steps: Step[] = [
  { name: 'typecheck', lanes: [{ name: 'typecheck', cmd: ['npx', 'tsc', '-p', 'tsconfig.json', '--noEmit'] }] },
  { name: 'unit-api', lanes: [{ name: 'unit-api', cmd: ['npx', 'vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=.tmp/unit-api.json'], report: '.tmp/unit-api.json' }] },
  { name: 'build', lanes: [{ name: 'build', cmd: ['npx', 'tsx', 'scripts/build.ts'] }] },
  {
    name: 'e2e',
    lanes: [
      { name: 'e2e-waiting', cmd: vitestE2e('waiting', WAITING_E2E), report: '.tmp/e2e-waiting.json' },
      { name: 'e2e-rest', cmd: vitestE2e('rest', [], WAITING_E2E), report: '.tmp/e2e-rest.json' },
    ],
  },
].filter((s) => only.length === 0 || only.includes(s.name));

/** Runs one lane; with others beside it, each output line carries the lane's name. */
function runLane(lane: Lane, prefixed: boolean): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(lane.cmd[0]!, lane.cmd.slice(1), { stdio: prefixed ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, FORCE_COLOR: '0' } });
    if (prefixed) {
      for (const stream of [child.stdout!, child.stderr!]) {
        let rest = '';
        stream.on('data', (d: Buffer) => {
          const lines = (rest + d.toString()).split('\n');
          rest = lines.pop()!;
          for (const line of lines) console.log(`[${lane.name}] ${line}`);
        });
        stream.on('end', () => rest && console.log(`[${lane.name}] ${rest}`));
      }
    }
    child.on('close', (code) => resolve(code));
  });
}

let passed = 0;
let failed = 0;
let skipped = 0;
const failures: string[] = [];
const started = Date.now();

for (const step of steps) {
  const t0 = Date.now();
  console.log(`\n== ${step.name}: ${step.lanes.map((l) => l.cmd.join(' ')).join('  &  ')}`);
  for (const lane of step.lanes) if (lane.report) rmSync(lane.report, { force: true });
  const codes = await Promise.all(step.lanes.map((lane) => runLane(lane, step.lanes.length > 1)));
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  step.lanes.forEach((lane, i) => {
    const status = codes[i];
    if (lane.report) {
      try {
        const r = JSON.parse(readFileSync(lane.report, 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
        passed += r.numPassedTests;
        failed += r.numFailedTests;
        skipped += r.numPendingTests + r.numTodoTests;
        if (r.numFailedTests > 0) failures.push(`${lane.name}: ${r.numFailedTests} failed`);
      } catch {
        // No report means the runner itself broke: count the lane as one failure.
        failed += 1;
        failures.push(`${lane.name}: no test report`);
      }
    } else if (status === 0) {
      passed += 1;
    } else {
      failed += 1;
    }
    if (status !== 0 && !failures.some((f) => f.startsWith(lane.name))) failures.push(`${lane.name}: exit ${status}`);
  });
  console.log(`== ${step.name} finished in ${secs}s with exit code${codes.length > 1 ? 's' : ''} ${codes.join(', ')}`);
}

console.log(`\nnpm test took ${((Date.now() - started) / 1000).toFixed(0)}s`);
if (failures.length) console.log(`Failed: ${failures.join('; ')}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failures.length ? 1 : 0);
