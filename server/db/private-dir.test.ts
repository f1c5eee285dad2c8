import { spawn } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from './client';
import { makeDataDirPrivate } from './private-dir';

/** Every folder and file under `dir` whose mode lets another account in, as "path 0755". */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const visit = (path: string) => {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return;
    if (st.mode & 0o077) found.push(`${path.slice(dir.length) || '/'} ${(st.mode & 0o7777).toString(8)}`);
    if (st.isDirectory()) for (const e of readdirSync(path)) visit(join(path, e));
  };
  visit(dir);
  return found;
}

const count = (dir: string) => {
  let n = 0;
  const visit = (path: string) => {
    n++;
    if (lstatSync(path).isDirectory()) for (const e of readdirSync(path)) visit(join(path, e));
  };
  visit(dir);
  return n;
};

/** chmod -R as a careless earlier start or a restore from another tool would have left it. */
function openUp(dir: string) {
  const visit = (path: string) => {
    const st = lstatSync(path);
    if (st.isDirectory()) {
      chmodSync(path, 0o755);
      for (const e of readdirSync(path)) visit(join(path, e));
    } else chmodSync(path, 0o666);
  };
  visit(dir);
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

/**
 * Issue 25 §5: DATA_DIR and everything in it are the owner's alone (folders 0700, files 0600), on
 * creation and on every start, whatever umask the process was started with; what an earlier
 * start left open is fixed and said once.
 */
describe('the data folder is owner-only', () => {
  const root = mkdtempSync(join(tmpdir(), 'opsdeck-modes-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const previousUmask = process.umask();
  afterAll(() => void process.umask(previousUmask));

  it('a new folder and every file the embedded database writes, also after the start, under umask 022', async () => {
    process.umask(0o022);
    const dataDir = join(root, 'new', 'data');
    const database = await openDatabase({ dataDir });
    try {
      // Files made after the start (a new table's relation files, WAL written at a checkpoint).
      await database.query('create table grown (id int, note text)');
      await database.query(`insert into grown select g, repeat('x', 200) from generate_series(1, 5000) g`);
      await database.query('checkpoint');
    } finally {
      await database.close();
    }
    expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);
    expect(count(dataDir)).toBeGreaterThan(100);
    expect(openToOthers(dataDir)).toEqual([]);
  }, 60_000);

  it('an existing 755 folder with 666 files is fixed at start, and the fix is said once', async () => {
    process.umask(0o022);
    const dataDir = join(root, 'new', 'data');
    writeFileSync(join(dataDir, 'notes.txt'), 'left here\n');
    mkdirSync(join(dataDir, 'extra'), { recursive: true });
    openUp(dataDir);
    expect(openToOthers(dataDir).length).toBeGreaterThan(100);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const database = await openDatabase({ dataDir });
      await database.close();
      const said = warn.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('owner-only'));
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(new RegExp(`^Made DATA_DIR ${dataDir} owner-only: \\d+ folders \\(now 0700\\) and \\d+ files \\(now 0600\\) were open to other local accounts$`));
      // A second start finds nothing to fix and says nothing.
      warn.mockClear();
      await (await openDatabase({ dataDir })).close();
      expect(warn.mock.calls.filter((c) => String(c[0]).includes('owner-only'))).toEqual([]);
    } finally {
      warn.mockRestore();
    }
    expect(openToOthers(dataDir)).toEqual([]);
    expect(lstatSync(join(dataDir, 'notes.txt')).mode & 0o777).toBe(0o600);
  }, 60_000);

  it('a shared DATA_DIR (sticky bit, like /tmp) keeps its mode and its other files; only Opsdeck\'s own are fixed', () => {
    const dataDir = join(root, 'shared');
    mkdirSync(join(dataDir, 'pglite', 'base'), { recursive: true });
    writeFileSync(join(dataDir, 'pglite', 'base', '1'), 'x');
    writeFileSync(join(dataDir, 'secret.key'), 'k');
    writeFileSync(join(dataDir, 'someone-elses.txt'), 'y');
    openUp(dataDir);
    chmodSync(dataDir, 0o1777);
    const lines: string[] = [];
    expect(makeDataDirPrivate(dataDir, (l) => lines.push(l))).toEqual({ folders: 2, files: 2 });
    expect(lstatSync(dataDir).mode & 0o7777).toBe(0o1777);
    expect(lstatSync(join(dataDir, 'someone-elses.txt')).mode & 0o777).toBe(0o666);
    expect(openToOthers(join(dataDir, 'pglite'))).toEqual([]);
    expect(lstatSync(join(dataDir, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(lines[0]).toMatch(/is a shared folder \(sticky bit set\)/);
  });

  it('`opsdeck start` under umask 022: the folder, the key, the control socket and the database files', async () => {
    const dataDir = join(root, 'started');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    const port = await freePort();
    const child = spawn('sh', ['-c', `umask 022; exec "${process.execPath}" --import tsx server/main.ts start`], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1', DEMO_FLEET: '0', OPSDECK_SECRET_KEY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await expect.poll(() => out, { timeout: 60_000, interval: 200 }).toContain('Opsdeck is running');
      expect(out).toContain(`Made DATA_DIR ${dataDir} owner-only: 1 folder (now 0700) and 0 files (now 0600)`);
      for (const name of ['secret.key', 'opsdeck.sock', 'pglite']) expect(readdirSync(dataDir)).toContain(name);
      expect(openToOthers(dataDir)).toEqual([]);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    expect(openToOthers(dataDir)).toEqual([]);
  }, 90_000);
});
