/**
 * The `opsdeck` command from a source checkout (`npm start`, `npm run backup -- FILE`, `npm run
 * restore -- FILE`): builds what the command needs when its build is missing or older than its
 * sources (`npm run build`'s halves: the UI and the server for `start`, the server otherwise), then
 * runs the compiled command in this very process. package.json starts `npm start` with `exec`, so
 * the process npm signals is this one.
 *
 * Plain JavaScript: it must run before anything is compiled, without tsx.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [command = 'start', ...args] = process.argv.slice(2);

const root = join(import.meta.dirname, '..');
const HALVES = {
  ui: { output: 'dist/index.html', sources: ['src', 'commands', 'server/contract', 'index.html', 'vite.config.ts', 'package.json'] },
  server: { output: 'build/server/cli.js', sources: ['server', 'commands', 'package.json', 'scripts/build.ts'] },
};

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

const builtAt = (output) => (existsSync(join(root, output)) ? statSync(join(root, output)).mtimeMs : 0);
const stale = Object.entries(HALVES)
  .filter(([name]) => command === 'start' || name === 'server')
  .filter(([, h]) => builtAt(h.output) < Math.max(...h.sources.map((s) => newestMtime(join(root, s)))))
  .map(([name]) => name);

// SKIP_UI_BUILD=1 runs whatever is built (a build is still made when there is none at all).
const skip = process.env.SKIP_UI_BUILD === '1' || process.env.SKIP_UI_BUILD === 'true';
const toBuild = skip ? stale.filter((name) => builtAt(HALVES[name].output) === 0) : stale;
if (toBuild.length) {
  const first = toBuild.every((name) => builtAt(HALVES[name].output) === 0);
  console.log(`${first ? 'Building' : 'The sources changed since the last build: rebuilding'} ${toBuild.join(' and ')}…`);
  const res = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'build.ts'), ...toBuild], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) process.exit(1);
}

process.setSourceMapsEnabled(true);
const { runCli } = await import('../build/server/cli.js');
// npm runs scripts in the package folder: file arguments are meant from where npm was typed.
const from = process.env.INIT_CWD ?? process.cwd();
const argv = command === 'start' ? args : args.map((a) => (a.startsWith('-') ? a : resolve(from, a)));
const code = await runCli([command, ...argv], { stopWithParent: command === 'start' });
if (code !== 0) process.exit(code);
