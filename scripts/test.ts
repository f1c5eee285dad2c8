/**
 * `npm test`: type-check and `npm run build` (the UI and the compiled server) side by side; then
 * the unit and API tests (PGlite and the local PostgreSQL) with the browser files that mostly
 * wait beside them; then the other browser end-to-end tests in two lanes, each against a server
 * started as `npm start` starts it. `npm test e2e build` (and the other parts' names) runs only
 * those parts. Prints one closing line "N passed, N failed" over everything, and exits non-zero
 * when anything failed.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';

interface Lane {
  name: string;
  /** What `npm test NAME…` selects it by: typecheck, unit-api, build or e2e. */
  part: 'typecheck' | 'unit-api' | 'build' | 'e2e';
  cmd: string[];
  /** Vitest's JSON report: how many passed and failed. */
  report?: string;
}

/** A step runs its lanes side by side and counts their reports together; steps run in turn. */
interface Step {
  name: string;
  lanes: Lane[];
}

const e2eLane = (name: string, files: string[], exclude: string[] = []): Lane => ({
  name: `e2e-${name}`,
  part: 'e2e',
  report: `.tmp/e2e-${name}.json`,
  cmd: [
    'npx',
    'vitest',
    'run',
    '-c',
    'vitest.e2e.config.ts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=.tmp/e2e-${name}.json`,
    ...exclude.flatMap((f) => ['--exclude', f]),
    ...files,
  ],
});

/**
 * Browser files that spend most of their time waiting on real clocks (a rule's 60 s grace period,
 * a real installer, a delivery retry): they use little of the machine, so they run beside the
 * unit and API files, in lanes of their own (each lane its own server, its files one after
 * another), and their waits overlap instead of adding up. Grouped so the lanes end together.
 */
const WAITING_E2E = [
  // Several alerts, each after a 60 s grace period; installs the packed tarball with npm.
  ['tests/e2e/notifications.e2e.test.ts', 'tests/e2e/package.e2e.test.ts'],
  // A 60 s grace period each; a real Prometheus rule through a real Alertmanager (~15 s of their clocks).
  ['tests/e2e/incident-report.e2e.test.ts', 'tests/e2e/untrusted-text.e2e.test.ts', 'tests/e2e/alertmanager.e2e.test.ts'],
  // A 60 s grace period; a real installer run; a real delivery retry (30 s) after a restore.
  ['tests/e2e/routing.e2e.test.ts', 'tests/e2e/agent-setup.e2e.test.ts', 'tests/e2e/backup.e2e.test.ts'],
];
/**
 * The other browser files keep the machine busy: after the unit and API files, in two lanes.
 * The first lane's files are named (about half the time); the second takes every other file,
 * so a new file runs without being listed.
 */
const FIRST_HALF_E2E = [
  'tests/e2e/pinned-widgets.e2e.test.ts',
  'tests/e2e/dashboard.e2e.test.ts',
  'tests/e2e/live.e2e.test.ts',
  'tests/e2e/start.e2e.test.ts',
  'tests/e2e/notification-groups.e2e.test.ts',
  'tests/e2e/screens-fit.e2e.test.ts',
  'tests/e2e/keyboard-power.e2e.test.ts',
  'tests/e2e/accessibility.e2e.test.ts',
];

mkdirSync('.tmp', { recursive: true });
const only = process.argv.slice(2);
const phases: Step[] = [
  {
    name: 'typecheck and build',
    lanes: [
      { name: 'typecheck', part: 'typecheck', cmd: ['npx', 'tsc', '-p', 'tsconfig.json', '--noEmit'] },
      // The browser files beside the unit files serve the built UI.
      { name: 'build', part: 'build', cmd: ['npx', 'tsx', 'scripts/build.ts'] },
    ],
  },
  {
    name: 'unit-api, and the waiting browser files',
    lanes: [
      { name: 'unit-api', part: 'unit-api', cmd: ['npx', 'vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=.tmp/unit-api.json'], report: '.tmp/unit-api.json' },
      ...WAITING_E2E.map((files, i) => e2eLane(`waiting-${i + 1}`, files)),
    ],
  },
  {
    name: 'e2e',
    lanes: [e2eLane('first', FIRST_HALF_E2E), e2eLane('second', [], [...WAITING_E2E.flat(), ...FIRST_HALF_E2E])],
  },
];
const steps: Step[] = phases
  .map((s) => ({ ...s, lanes: s.lanes.filter((l) => only.length === 0 || only.includes(l.part)) }))
  .filter((s) => s.lanes.length > 0);

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
