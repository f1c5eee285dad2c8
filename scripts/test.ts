/**
 * `npm test`: type-check, unit and API tests (PGlite and the local PostgreSQL), the UI build,
 * then browser end-to-end tests against the server `npm start` runs. Prints one closing line
 * "N passed, N failed" over everything, and exits non-zero when anything failed.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';

interface Step {
  name: string;
  cmd: string[];
  report?: string;
}

mkdirSync('.tmp', { recursive: true });
const only = process.argv.slice(2);
const steps: Step[] = [
  { name: 'typecheck', cmd: ['npx', 'tsc', '-p', 'tsconfig.json', '--noEmit'] },
  { name: 'unit-api', cmd: ['npx', 'vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=.tmp/unit-api.json'], report: '.tmp/unit-api.json' },
  { name: 'build', cmd: ['npx', 'vite', 'build', '--logLevel', 'warn'] },
  { name: 'e2e', cmd: ['npx', 'vitest', 'run', '-c', 'vitest.e2e.config.ts', '--reporter=default', '--reporter=json', '--outputFile.json=.tmp/e2e.json'], report: '.tmp/e2e.json' },
].filter((s) => only.length === 0 || only.includes(s.name));

let passed = 0;
let failed = 0;
let skipped = 0;
const failures: string[] = [];
const started = Date.now();

for (const step of steps) {
  const t0 = Date.now();
  console.log(`\n== ${step.name}: ${step.cmd.join(' ')}`);
  if (step.report) rmSync(step.report, { force: true });
  const res = spawnSync(step.cmd[0]!, step.cmd.slice(1), { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: '0' } });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  if (step.report) {
    try {
      const r = JSON.parse(readFileSync(step.report, 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
      passed += r.numPassedTests;
      failed += r.numFailedTests;
      skipped += r.numPendingTests + r.numTodoTests;
      if (r.numFailedTests > 0) failures.push(`${step.name}: ${r.numFailedTests} failed`);
    } catch {
      // No report means the runner itself broke: count the step as one failure.
      failed += 1;
      failures.push(`${step.name}: no test report`);
    }
  } else if (res.status === 0) {
    passed += 1;
  } else {
    failed += 1;
  }
  if (res.status !== 0 && !failures.some((f) => f.startsWith(step.name))) failures.push(`${step.name}: exit ${res.status}`);
  console.log(`== ${step.name} finished in ${secs}s with exit code ${res.status}`);
}

console.log(`\nnpm test took ${((Date.now() - started) / 1000).toFixed(0)}s`);
if (failures.length) console.log(`Failed: ${failures.join('; ')}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failures.length ? 1 : 0);
