/**
 * Keystrokes of the keyboard triage journey (issue 24 §8): an alert fires → acknowledge it with a
 * note → open its server → its CPU chart over the last hour → maintenance on → resolve the alert →
 * see it in History. The real console (`npm start`, built UI, seeded data folder with a scripted
 * alert) in headless Chromium; a script does what a keyboard operator does and counts every key
 * (tests/e2e/triage-journey.ts), checks each step's effect through the API and that every change
 * is a palette run in History. Target: ≤ 35 keys beside the notes' text.
 *
 * `--plan before` drives the console only with what it offered before issue 24 (the tab and range
 * commands, the maintenance command's pickers); `--checkout DIR` runs the console of another
 * checkout (built), to count the journey on the code before a change.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBrowser, signIn } from '../tests/e2e/browser';
import { apiSession } from '../tests/e2e/http';
import { startServer } from '../tests/e2e/server-process';
import { runTriageJourney, seedTriage, type Plan } from '../tests/e2e/triage-journey';
import { machineLoad } from './lib/options';

const TARGET = 35;
const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const plan = (option('--plan') ?? 'now') as Plan;
if (plan !== 'now' && plan !== 'before') {
  console.error('--plan is now or before');
  process.exit(2);
}
const checkout = option('--checkout');

const dataDir = mkdtempSync(join(tmpdir(), 'opsdeck-bench-triage-'));
await seedTriage(dataDir);
const server = await startServer({ dataDir, env: { ALERT_EVALUATION: '0' }, ...(checkout ? { cwd: checkout } : {}) });
const browser = await openBrowser(server.url);
let failed = false;
try {
  await signIn(browser.page);
  const admin = await apiSession(server.url);
  console.log(`triage journey, plan "${plan}"${checkout ? ` on ${checkout}` : ''}; ${machineLoad()}`);
  const count = await runTriageJourney(browser.page, admin, plan);
  for (const s of count.steps) console.log(`  ${s.step.padEnd(28)} ${String(s.keys).padStart(3)} keys${s.text ? ` + ${s.text} characters of note` : ''}: ${s.pressed.join(' ')}`);
  console.log(`keys beside the text: ${count.keys} (target ≤ ${TARGET}: ${count.keys <= TARGET ? 'met' : 'not met'}); notes' text: ${count.text} characters; in all: ${count.keys + count.text}`);
  console.log('every step checked through the API or the URL; alert.ack, server.toggle-maintenance and alert.resolve are in History as palette runs');
} catch (err) {
  failed = true;
  console.error(err);
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
