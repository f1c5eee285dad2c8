/**
 * `npm run build`: the UI (Vite, into dist/) and the server compiled to one JavaScript module
 * (esbuild, into build/server/cli.js) that production runs with production dependencies only.
 * `tsx scripts/build.ts ui` or `… server` builds one half (`npm start` rebuilds only what is stale).
 */
import { spawnSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
const parts = process.argv.slice(2);
const want = (part: string) => parts.length === 0 || parts.includes(part);
for (const p of parts) if (p !== 'ui' && p !== 'server') throw new Error(`unknown part '${p}' (ui or server)`);

/**
 * Brotli (quality 11) and gzip (level 9) copies beside each text file of the UI, which the server
 * sends as they are (@fastify/static preCompressed): full compression once, instead of a
 * faster, weaker one on every request.
 */
function precompress(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) precompress(path);
    else if (/\.(js|css|html|svg|json|txt)$/.test(entry.name)) {
      const data = readFileSync(path);
      if (data.length < 1024) continue;
      writeFileSync(`${path}.br`, brotliCompressSync(data, { params: { [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length } }));
      writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }));
    }
  }
}

if (want('ui')) {
  const started = Date.now();
  const res = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) {
    console.error('The UI build failed; see the messages above.');
    process.exit(1);
  }
  precompress(join(root, 'dist'));
  console.log(`UI built into dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (want('server')) {
  const started = Date.now();
  const outdir = join(root, 'build', 'server');
  const result = await build({
    // The scrape worker is a thread of its own (server/monitoring/scrape-client.ts loads it beside cli.js).
    entryPoints: { cli: join(root, 'server', 'cli.ts'), 'scrape-worker': join(root, 'server', 'monitoring', 'scrape-worker.ts') },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    // Dependencies stay in node_modules (PGlite loads its WebAssembly beside its own module).
    packages: 'external',
    sourcemap: 'linked',
    outdir,
    write: false,
    metafile: true,
    logLevel: 'warning',
  });
  // Every package the server imports must be a production dependency, or the packed package
  // (installed with --omit=dev) breaks at start while the source checkout works.
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
  const missing = new Set<string>();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const imp of output.imports) {
      if (!imp.external || builtins.has(imp.path)) continue;
      const name = imp.path.startsWith('@') ? imp.path.split('/').slice(0, 2).join('/') : imp.path.split('/')[0]!;
      if (!manifest.dependencies[name]) missing.add(name);
    }
  }
  if (missing.size) {
    console.error(`The server imports ${[...missing].join(', ')}, which package.json lists only as devDependencies (or not at all): move them to "dependencies".`);
    process.exit(1);
  }
  // Written beside and renamed, so an `npm start` reading the bundle never sees half a file.
  mkdirSync(outdir, { recursive: true });
  for (const file of result.outputFiles) {
    const tmp = `${file.path}.${process.pid}.tmp`;
    writeFileSync(tmp, file.contents);
    renameSync(tmp, file.path);
  }
  console.log(`Server compiled into build/server/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
