/**
 * Faults that say what they are (issue 25 §7, finding 9), against real parts:
 * - the embedded database on a small tmpfs that is filled up: writes that need room answer 503
 *   with reason disk_full (never a 500), /api/ready says so, the meta alert "Opsdeck cannot store
 *   changes" opens; once space is freed everything works again and the alert resolves, with no
 *   restart;
 * - PostgreSQL made read-only (default_transaction_read_only, as a standby answers): 503 with
 *   reason read_only, /api/ready says so, and writes work again once it is writable;
 * - PostgreSQL's pool exhausted (every connection held by long statements): 503 with reason
 *   pool_exhausted, /api/ready says so, and it clears when the connections come back;
 * - PostgreSQL whose tablespace (a small tmpfs) is filled up: 503 disk_full, /api/ready and
 *   /metrics say so, and writes work again once space is freed.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../server/config';
import { openDatabase } from '../../server/db/client';
import { adminQuery, backends, startTestApp, type Backend, type TestApp } from './harness';

const until = async (what: string, probe: () => Promise<boolean>, ms = 20_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Timed out waiting for ${what}`);
};

const config = () => {
  const base = testConfig();
  // Monitoring off, but its interval paces the fault watch (1 s here).
  return { monitoring: { ...base.monitoring, scrapeIntervalS: 1, scrapeTimeoutS: 0.9 } };
};

function tryMount(dir: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=160m', 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const mountPoint = mkdtempSync(join(tmpdir(), 'opsdeck-small-fs-'));
const mounted = tryMount(mountPoint);
if (!mounted) rmSync(mountPoint, { recursive: true, force: true });
if (!mounted) console.warn('tmpfs cannot be mounted here (not root?): the full-disk test is skipped; classifyFault is unit-tested in server/ops/faults.test.ts');

describe.skipIf(!mounted)('a full disk under the embedded database', () => {
  let t: TestApp;
  let admin: string;
  const fill = join(mountPoint, 'fill');

  beforeAll(async () => {
    const dataDir = join(mountPoint, 'data');
    mkdirSync(dataDir);
    const backend: Backend = {
      name: 'pglite',
      open: async () => {
        const database = await openDatabase({ dataDir });
        return { database, drop: () => database.close() };
      },
    };
    t = await startTestApp(backend, config());
    const a = await t.addUser({ role: 'admin' });
    admin = await t.signIn(a.email, a.password);
    // A first start on a new data folder runs initdb and every migration: slow on a loaded machine.
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    rmSync(fill, { force: true });
    rmSync(`${fill}-2`, { force: true });
    // Lazily, so a database still closing (a start cut short) never leaves the mount behind.
    execFileSync('umount', ['--lazy', mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  it('answers 503 disk_full, reports it in /api/ready, raises the meta alert, and recovers without a restart', async () => {
    expect((await t.call('GET', '/api/ready')).status).toBe(200);
    const fillUp = (file: string) => {
      try {
        execFileSync('dd', ['if=/dev/zero', `of=${file}`, 'bs=1M'], { stdio: 'ignore' });
      } catch {
        // dd ends with "No space left on device": that is the point.
      }
    };
    // Fill what is left of the file system: the leader sees it, gives back its reserve and
    // writes the meta alert into that room.
    fillUp(fill);
    await until('the meta alert', async () => (await t.database.query(`select 1 from alerts where subject = 'database-storage' and status = 'firing'`)).length === 1);
    const [alert] = await t.database.query<{ alertname: string; summary: string; type: string }>(`select alertname, summary, type from alerts where subject = 'database-storage'`);
    expect(alert).toEqual({ alertname: 'Opsdeck cannot store changes', summary: 'Opsdeck cannot store changes: disk_full', type: 'monitoring_alert' });
    const ready = await t.call('GET', '/api/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.failing).toContain('storage');
    expect(ready.body.reasons).toEqual(['disk_full']);
    expect(ready.body.checks.storage.detail).toMatch(/^disk_full: The disk holding the database is full/);

    // The reserve's room filled too: writes that need room now fail, each saying why.
    fillUp(`${fill}-2`);
    const statuses = new Set<number>();
    let refused: { status: number; body: any } | undefined;
    for (let i = 0; i < 2000 && !refused; i++) {
      const res = await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: `group ${i}`, description: 'd'.repeat(500), emailList: [`g${i}@example.com`] } });
      statuses.add(res.status);
      if (res.status !== 201) refused = res;
    }
    expect(refused, 'a write that needs room fails').toBeDefined();
    expect(refused!.status).toBe(503);
    expect(refused!.body).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      reason: 'disk_full',
      message: 'The disk holding the database is full: changes cannot be stored until space is freed (reading still works)',
    });
    expect([...statuses].filter((s) => s !== 201 && s !== 503)).toEqual([]);
    // Reading still works.
    expect((await t.call('GET', '/api/auth/whoami', { cookie: admin })).status).toBe(200);

    rmSync(fill);
    rmSync(`${fill}-2`);
    await until('ready again', async () => (await t.call('GET', '/api/ready')).status === 200);
    const again = await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: 'after the disk was freed', description: 'd'.repeat(500) } });
    expect(again.status).toBe(201);
    await until('the meta alert to resolve', async () => (await t.database.query(`select 1 from alerts where subject = 'database-storage' and status = 'resolved'`)).length === 1);
  }, 120_000);
});

const postgres = (await backends()).find((b) => b.name === 'postgres');

describe.skipIf(!postgres)('PostgreSQL faults', () => {
  let t: TestApp;
  let admin: string;
  let name: string;

  beforeAll(async () => {
    let url = '';
    const backend: Backend = {
      name: 'postgres',
      open: async () => {
        const opened = await postgres!.open();
        url = opened.url!;
        await opened.database.close();
        // A small pool that gives up waiting after a second, so exhaustion shows quickly.
        const database = await openDatabase({ databaseUrl: url, poolMax: 4, poolTimeoutMs: 1000 });
        return {
          database,
          drop: async () => {
            await database.close();
            await adminQuery(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
          },
        };
      },
    };
    t = await startTestApp(backend, config());
    name = new URL(url).pathname.slice(1);
    const a = await t.addUser({ role: 'admin' });
    admin = await t.signIn(a.email, a.password);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const terminateSessions = () => adminQuery(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`);

  it('a read-only database: 503 read_only, /api/ready says so, and writes work once it is writable', async () => {
    await adminQuery(`ALTER DATABASE ${name} SET default_transaction_read_only = on`);
    await terminateSessions();
    let refused: { status: number; body: any } | undefined;
    await until('a write refused as read-only', async () => {
      const res = await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: `ro ${Date.now()}` } });
      expect(res.status, JSON.stringify(res.body)).not.toBe(500);
      expect(res.status).not.toBe(201);
      if (res.body?.reason === 'read_only') refused = res;
      return refused !== undefined;
    });
    expect(refused!.status).toBe(503);
    expect(refused!.body.message).toBe('The database is read-only: changes cannot be stored until it is writable again (reading still works)');
    await until('readiness to say read_only', async () => {
      const ready = await t.call('GET', '/api/ready');
      return ready.status === 503 && (ready.body.reasons ?? []).includes('read_only');
    });
    // The meta alert cannot be stored in a read-only database: /metrics says it for a Prometheus to alert on.
    const fault = async () => (await t.app.inject({ method: 'GET', url: '/metrics' })).body.match(/^opsdeck_storage_fault\{reason="read_only"\} (\d)$/m)?.[1];
    await until('the fault gauge to say read_only', async () => (await fault()) === '1');

    await adminQuery(`ALTER DATABASE ${name} RESET default_transaction_read_only`);
    await terminateSessions();
    await until('ready again', async () => (await t.call('GET', '/api/ready')).status === 200);
    await until('a write to work', async () => (await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: `rw ${Date.now()}` } })).status === 201);
    await until('the fault gauge to clear', async () => (await fault()) === '0');
  }, 60_000);

  it('an exhausted pool: 503 pool_exhausted, /api/ready says so, and it clears when connections come back', async () => {
    // Every connection of the pool busy for 4 s.
    const held = Promise.all([1, 2, 3, 4].map(() => t.database.query('select pg_sleep(4)')));
    await new Promise((r) => setTimeout(r, 200));
    const res = await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: 'while the pool is full' } });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ reason: 'pool_exhausted', message: 'Every database connection is in use: try again shortly' });
    const ready = await t.call('GET', '/api/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.reasons).toContain('pool_exhausted');
    await held;
    await until('ready again', async () => (await t.call('GET', '/api/ready')).status === 200);
    expect((await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: 'after the pool came back' } })).status).toBe(201);
  }, 60_000);
});

/**
 * PostgreSQL on a full disk: the test database is moved to a tablespace on a small tmpfs, which is
 * then filled. PostgreSQL fails what needs a new page with 53100 (could not extend file): writes
 * answer 503 disk_full, /api/ready says so, /metrics carries it, and everything works again once
 * space is freed, without a restart. (The meta alert needs room in that same tablespace: Opsdeck
 * keeps no reserve on a disk that is the database server's, so it is written once there is room.)
 */
const pgUid = (() => {
  try {
    return execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
})();
const pgMount = postgres && pgUid ? mkdtempSync(join(tmpdir(), 'opsdeck-pg-small-fs-')) : null;
const pgMounted = (() => {
  if (!pgMount) return false;
  try {
    execFileSync('chmod', ['755', pgMount]);
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=64m,uid=${pgUid},mode=0700`, 'tmpfs', pgMount], { stdio: 'ignore' });
    return true;
  } catch {
    rmSync(pgMount, { recursive: true, force: true });
    return false;
  }
})();

describe.skipIf(!pgMounted)('a full disk under PostgreSQL', () => {
  let t: TestApp;
  let admin: string;
  let name = '';
  const space = `opsdeck_small_${process.pid}`;
  const fill = join(pgMount ?? '/nonexistent', 'fill');

  beforeAll(async () => {
    await adminQuery(`CREATE TABLESPACE ${space} LOCATION '${pgMount}'`);
    const backend: Backend = {
      name: 'postgres',
      open: async () => {
        const opened = await postgres!.open();
        const url = opened.url!;
        await opened.database.close();
        name = new URL(url).pathname.slice(1);
        await adminQuery(`ALTER DATABASE ${name} SET TABLESPACE ${space}`);
        const database = await openDatabase({ databaseUrl: url });
        return {
          database,
          drop: async () => {
            await database.close();
            await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          },
        };
      },
    };
    t = await startTestApp(backend, config());
    const a = await t.addUser({ role: 'admin' });
    admin = await t.signIn(a.email, a.password);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    rmSync(fill, { force: true });
    await adminQuery(`DROP TABLESPACE IF EXISTS ${space}`).catch(() => undefined);
    execFileSync('umount', ['--lazy', pgMount!]);
    rmSync(pgMount!, { recursive: true, force: true });
  });

  it('answers 503 disk_full, reports it in /api/ready and /metrics, and recovers without a restart', async () => {
    expect((await t.call('GET', '/api/ready')).status).toBe(200);
    try {
      execFileSync('dd', ['if=/dev/zero', `of=${fill}`, 'bs=1M'], { stdio: 'ignore' });
    } catch {
      // "No space left on device": the point.
    }
    const statuses = new Set<number>();
    let refused: { status: number; body: any } | undefined;
    for (let i = 0; i < 5000 && !refused; i++) {
      const res = await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: `pg group ${i}`, description: 'd'.repeat(500), emailList: [`g${i}@example.com`] } });
      statuses.add(res.status);
      if (res.status !== 201) refused = res;
    }
    expect(refused, 'a write that needs room fails').toBeDefined();
    expect(refused!.body).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      reason: 'disk_full',
      message: 'The disk holding the database is full: changes cannot be stored until space is freed (reading still works)',
    });
    expect([...statuses].filter((s) => s !== 201 && s !== 503)).toEqual([]);
    const ready = await t.call('GET', '/api/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.reasons).toContain('disk_full');
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/^opsdeck_storage_fault\{reason="disk_full"\} 1$/m);
    expect((await t.call('GET', '/api/auth/whoami', { cookie: admin })).status).toBe(200);

    rmSync(fill);
    await until('a write to work', async () => (await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: `after ${Date.now()}` } })).status === 201, 30_000);
    await until('ready again', async () => (await t.call('GET', '/api/ready')).status === 200, 30_000);
  }, 120_000);
});
