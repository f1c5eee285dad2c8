import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiSession } from './http';
import { ADMIN, startServer } from './server-process';

const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

// Issue 12 part 9: `npm pack` gives a package whose `opsdeck` binary starts the console on
// production dependencies only, from any working directory, and stops on SIGTERM to its pid.
describe('the packed package', () => {
  it('installs from its tarball into an empty folder and its opsdeck binary serves the console', { timeout: 240_000 }, async () => {
    // The global setup's `npm start` built what was stale; packing reuses that build
    // (--ignore-scripts skips prepack's full rebuild, which `npm pack` runs for a release).
    const packDir = mkdtempSync(join(tmpdir(), 'opsdeck-pack-'));
    const [packed] = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], process.cwd())) as { filename: string; files: { path: string }[] }[];
    const files = packed!.files.map((f) => f.path);
    for (const needed of ['bin/opsdeck.js', 'build/server/cli.js', 'dist/index.html', 'server/db/migrations/meta/_journal.json', 'server/db/migrations/0000_init.sql', 'server/agent/sb-cli.sh', 'server/agent/sb-cli.ps1']) {
      expect(files, needed).toContain(needed);
    }
    expect(files.filter((f) => /^(src|tests|commands|scripts)\/|\.ts$/.test(f))).toEqual([]);

    const installDir = mkdtempSync(join(tmpdir(), 'opsdeck-install-'));
    writeFileSync(join(installDir, 'package.json'), '{ "private": true }\n');
    npm(['install', '--omit=dev', '--no-audit', '--no-fund', join(packDir, packed!.filename)], installDir);
    const modules = join(installDir, 'node_modules');
    for (const runtime of ['fastify', '@electric-sql/pglite', 'drizzle-orm', 'pg', 'zod']) expect(existsSync(join(modules, runtime)), runtime).toBe(true);
    // Production dependencies only: no build tools, no UI libraries (the UI ships built).
    for (const devOnly of ['vite', 'tsx', 'typescript', 'esbuild', 'react', 'vitest']) expect(existsSync(join(modules, devOnly)), devOnly).toBe(false);

    const bin = join(modules, '.bin', 'opsdeck');
    expect(execFileSync(bin, ['version'], { encoding: 'utf8' }).trim()).toMatch(/^\d+\.\d+\.\d+/);
    // Started from another folder: the UI and the migrations are found beside the package, not the cwd.
    const server = await startServer({ command: [bin], cwd: tmpdir(), fresh: true });
    try {
      expect(server.output()).toContain(`Sign in with ${ADMIN.email} / ${ADMIN.password}`);
      expect(await (await fetch(`${server.url}/servers`)).text()).toContain('<div id="root">');
      const api = await apiSession(server.url);
      expect((await api.createUser({ username: 'packed', email: 'packed@example.com' })).status).toBe(201);
      expect(await (await fetch(`${server.url}/cli/0.0.2/sb-cli`)).text()).toMatch(/^#!\/bin\/sh/);
    } finally {
      const { clean, ms, leftover } = await server.stop('SIGTERM');
      expect(leftover, server.output()).toEqual([]);
      expect(clean, server.output()).toBe(true);
      expect(ms).toBeLessThan(2000);
      for (const dir of [packDir, installDir, server.dataDir]) rmSync(dir, { recursive: true, force: true });
    }
  });
});
