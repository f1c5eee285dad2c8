import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir, LOCK_NAME, PID_NAME, running } from './data-lock';

/** Another real process holding the lock on `dir` until killed; resolves once it holds it. */
function holder(dir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', `import('./server/db/data-lock.ts').then(async (m) => { await m.lockDataDir(${JSON.stringify(dir)}); console.log('locked'); setInterval(() => {}, 1000); })`], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('locked') && resolve(child));
    child.once('exit', (code) => reject(new Error(`holder exited with ${code}`)));
  });
}

describe('one process per data folder', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'opsdeck-lock-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const c of children.splice(0)) c.kill('SIGKILL');
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('a second process is refused at once with the holder’s pid and the folder as given; after kill -9 the lock is taken over at once', async () => {
    const dir = folder();
    const other = await holder(dir);
    children.push(other);
    const t0 = Date.now();
    const refused = await lockDataDir(dir, './data').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DataDirLockedError);
    expect((refused as Error).message).toBe(`another Opsdeck (pid ${other.pid}) is using ./data`);
    expect(Date.now() - t0).toBeLessThan(2000);

    other.kill('SIGKILL');
    await new Promise((r) => other.once('exit', r));
    // Its lock and pid file are still there; its pid no longer runs.
    expect(existsSync(join(dir, LOCK_NAME))).toBe(true);
    const t1 = Date.now();
    const lock = await lockDataDir(dir);
    expect(Date.now() - t1).toBeLessThan(2000);
    expect(readFileSync(join(dir, PID_NAME), 'utf8').trim()).toBe(String(process.pid));
    // Held here now: refused to a second opener in this process too, free again once released.
    await expect(lockDataDir(dir)).rejects.toBeInstanceOf(DataDirLockedError);
    await lock.release();
    expect(existsSync(join(dir, LOCK_NAME))).toBe(false);
    await (await lockDataDir(dir)).release();
  }, 30_000);

  it('of several processes racing for an abandoned folder, exactly one wins', async () => {
    const dir = folder();
    const first = await holder(dir);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const racers = Array.from({ length: 3 }, () =>
      spawn(process.execPath, ['--import', 'tsx', '-e', `import('./server/db/data-lock.ts').then((m) => m.lockDataDir(${JSON.stringify(dir)})).then(() => { console.log('won'); setTimeout(() => process.exit(0), 3000); }, (e) => { console.log(e.constructor.name); process.exit(1); })`], { stdio: ['ignore', 'pipe', 'inherit'] }),
    );
    children.push(...racers);
    const outcomes = await Promise.all(
      racers.map(
        (c) =>
          new Promise<string>((resolve) => {
            let out = '';
            c.stdout!.on('data', (d: Buffer) => (out += d.toString()));
            c.once('exit', () => resolve(out.trim()));
          }),
      ),
    );
    expect(outcomes.sort()).toEqual(['DataDirLockedError', 'DataDirLockedError', 'won']);
  }, 30_000);

  it('a holder left a zombie (killed -9, its parent gone before reaping it) does not count as running', async () => {
    // The forked child exits at once and its parent never reaps it: a zombie for 30 s (perl is in every Debian base).
    const parent = spawn('perl', ['-e', '$| = 1; my $pid = fork(); if ($pid == 0) { exit 0 } print "$pid\\n"; sleep 30'], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(parent);
    const pid = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()))));
    // The child may not have exited yet on a busy machine: wait until it has.
    for (let i = 0; i < 100 && !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8')); i++) await new Promise((r) => setTimeout(r, 100));
    expect(readFileSync(`/proc/${pid}/stat`, 'utf8')).toMatch(/\) Z /);
    expect(running(pid)).toBe(false);
    expect(running(parent.pid!)).toBe(true);
  });
});
