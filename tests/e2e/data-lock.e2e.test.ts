import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiSession } from './http';
import { freePort, liveGroupMembers, startServer, type RunningServer } from './server-process';

/**
 * Issue 11 §4: one process per data folder. A second `npm start` on the folder exits at once,
 * non-zero, naming the running one's pid and the folder as DATA_DIR gave it; the first keeps
 * serving. After the first is killed with SIGKILL (no chance to unlock), the next start takes the
 * folder over and finds what was written.
 */
describe('one process per data folder', () => {
  // Relative, as most people write DATA_DIR: the message repeats it as given.
  const dataDir = `./${relative(process.cwd(), mkdtempSync('.tmp/lock-e2e-'))}`;
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a second npm start on the folder is refused at once; after kill -9 of the first the next start takes over with the data', async () => {
    const first = await startServer({ dataDir });
    servers.push(first);
    const api = await apiSession(first.url);
    expect((await api.createUser({ username: 'before-kill', email: 'before-kill@example.com' })).status).toBe(201);
    const pid = Number(readFileSync(`${dataDir}/opsdeck.pid`, 'utf8'));
    expect(liveGroupMembers(first.child.pid!)).toContain(pid);

    const t0 = Date.now();
    const second = spawn('npm', ['start', '--silent'], { env: { ...process.env, DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1', DEMO_FLEET: '0', LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    second.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    second.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
    expect(code, out).not.toBe(0);
    expect(out).toContain(`another Opsdeck (pid ${pid}) is using ${dataDir}`);
    expect(out).not.toContain('Opsdeck is running');
    // At once: no database opened, no port bound (a normal start here takes several seconds).
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect((await fetch(`${first.url}/api/health`)).status).toBe(200);

    process.kill(pid, 'SIGKILL');
    await first.stop('SIGKILL');
    const third = await startServer({ dataDir });
    servers.push(third);
    expect(third.output()).toContain('Opsdeck is running');
    const again = await apiSession(third.url);
    expect(await again.findUserByEmail('before-kill@example.com')).toMatchObject({ username: 'before-kill' });
    expect(Number(readFileSync(`${dataDir}/opsdeck.pid`, 'utf8'))).not.toBe(pid);
  }, 240_000);
});
