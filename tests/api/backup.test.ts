import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backup, BackupError, restore } from '../../server/backup/backup';
import { testConfig } from '../../server/config';
import { openDatabase } from '../../server/db/client';
import { DataDirLockedError, lockDataDir } from '../../server/db/data-lock';
import { backends } from './harness';

// `opsdeck backup/restore` with DATABASE_URL: pg_dump's custom format and pg_restore against the
// local PostgreSQL (the embedded database's round trip, through a running server, is
// tests/e2e/backup.e2e.test.ts). The refusals need no database at all.
const folder = mkdtempSync(join(tmpdir(), 'opsdeck-backup-api-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const quiet = () => {};

describe('opsdeck restore refuses what it cannot restore, changing nothing', () => {
  const config = testConfig({ dataDir: join(folder, 'never-created') });
  it('a file that is no backup', async () => {
    const file = join(folder, 'notes.txt');
    writeFileSync(file, 'hello');
    await expect(restore(config, file, { force: false }, quiet)).rejects.toThrow(/is not an Opsdeck backup/);
    await expect(restore(config, join(folder, 'missing'), { force: false }, quiet)).rejects.toThrow(/There is no file/);
  });
  it('a PostgreSQL dump without DATABASE_URL, and an embedded backup with it', async () => {
    const dump = join(folder, 'pg.dump');
    writeFileSync(dump, 'PGDMP\x01\x0f\x00');
    await expect(restore(config, dump, { force: false }, quiet)).rejects.toThrow(/is a PostgreSQL dump; set DATABASE_URL/);
    const embedded = join(folder, 'embedded.backup');
    writeFileSync(embedded, Buffer.from([0x1f, 0x8b, 0x08, 0x00]));
    await expect(restore(testConfig({ databaseUrl: 'postgres://nobody@127.0.0.1:1/none' }), embedded, { force: false }, quiet)).rejects.toThrow(BackupError);
  });
});

describe('opsdeck backup and restore respect the data folder lock (issue 11 §4)', () => {
  it('neither reads nor replaces a folder another process holds, even when its control socket is missing', async () => {
    const dataDir = join(folder, 'held');
    mkdirSync(join(dataDir, 'pglite'), { recursive: true });
    writeFileSync(join(dataDir, 'pglite', 'PG_VERSION'), '17\n');
    const embedded = join(folder, 'held.backup');
    writeFileSync(embedded, Buffer.from([0x1f, 0x8b, 0x08, 0x00]));
    const lock = await lockDataDir(dataDir);
    try {
      const config = testConfig({ dataDir });
      await expect(backup(config, join(folder, 'never-written.backup'), quiet)).rejects.toBeInstanceOf(DataDirLockedError);
      await expect(restore(config, embedded, { force: true }, quiet)).rejects.toBeInstanceOf(DataDirLockedError);
      expect(readFileSync(join(dataDir, 'pglite', 'PG_VERSION'), 'utf8')).toBe('17\n');
    } finally {
      await lock.release();
    }
  });
});

const postgres = (await backends()).find((b) => b.name === 'postgres');

describe.skipIf(!postgres)('opsdeck backup and restore on PostgreSQL (pg_dump / pg_restore)', () => {
  // Two databases migrated, a dump and a restore: work, not waiting, that a loaded machine stretches.
  it('round-trips the database through pg_dump into another, and replaces a non-empty one only with --force', { timeout: 90_000 }, async () => {
    const source = await postgres!.open();
    const target = await postgres!.open();
    try {
      await source.database.query(`insert into users (username, email, phonenumber, password_hash, role, status) values ('kept', 'kept@example.com', '', 'x', 'user', 'active')`);
      await source.database.query(`insert into servers (hostname, ipaddress, operating_system, is_agent_configured) values ('db-01', '10.0.0.1', 'linux', false)`);
      const file = join(folder, 'opsdeck.dump');
      const lines: string[] = [];
      await backup(testConfig({ databaseUrl: source.url }), file, (l) => lines.push(l));
      expect(lines.join('\n')).toContain('pg_dump custom format');
      expect(readFileSync(file).subarray(0, 5).toString()).toBe('PGDMP');

      // The target was migrated by the harness: it is not empty.
      const config = testConfig({ databaseUrl: target.url });
      await expect(restore(config, file, { force: false }, quiet)).rejects.toThrow(/is not empty/);
      await target.database.query(`insert into servers (hostname, ipaddress, operating_system, is_agent_configured) values ('replaced', '10.0.0.9', 'linux', false)`);
      const restored: string[] = [];
      await restore(config, file, { force: true }, (l) => restored.push(l));
      expect(restored.at(-1)).toBe('Restored: 1 user, 1 server, 0 alerts, 0 notifications waiting to be sent.');
      // Reopened through Opsdeck's own client: migrations find everything applied.
      const reopened = await openDatabase({ databaseUrl: target.url });
      try {
        expect(await reopened.query(`select hostname from servers order by hostname`)).toEqual([{ hostname: 'db-01' }]);
        expect(await reopened.query(`select username from users`)).toEqual([{ username: 'kept' }]);
      } finally {
        await reopened.close();
      }
    } finally {
      await source.drop();
      await target.drop();
    }
  });
});
