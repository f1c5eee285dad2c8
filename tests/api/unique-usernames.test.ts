import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../server/db/client';
import { backends, TEST_DATABASE_URL } from './harness';

/**
 * The migration that makes usernames unique (issue 11 §2) on a database that already holds
 * duplicates: in each case-insensitive group the oldest account keeps its name, the others get
 * the smallest free "-n", each rename is in the audit trail, and the unique index holds after.
 */

/** The migrations folder as it was before the audit-trail migration (journal cut before it). */
function foldersBeforeAudit(): string {
  const dir = mkdtempSync(join(tmpdir(), 'opsdeck-migrations-'));
  cpSync(migrationsFolder, dir, { recursive: true });
  const journalPath = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag.endsWith('_audit_trail'));
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

interface Migrating {
  query: (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;
  migrate: (folder: string) => Promise<void>;
  close: () => Promise<void>;
}

async function open(kind: 'pglite' | 'postgres'): Promise<Migrating> {
  if (kind === 'pglite') {
    const client = await PGlite.create({ extensions: { pg_trgm } });
    const db = drizzlePglite(client);
    return {
      query: async (sql, params) => (await client.query(sql, params)).rows as Record<string, unknown>[],
      migrate: (folder) => migratePglite(db, { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
  const name = `opsdeck_usernames_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  const db = drizzlePg(pool);
  return {
    query: async (sql, params) => (await pool.query(sql, params)).rows,
    migrate: (folder) => migratePg(db, { migrationsFolder: folder }),
    close: async () => {
      await pool.end();
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

const before = foldersBeforeAudit();
afterAll(() => rmSync(before, { recursive: true, force: true }));

describe.each((await backends()).map((b) => b.name))('unique usernames migration on %s', (kind) => {
  // A fresh PGlite initdb plus every migration: slow on a loaded two-core machine.
  it('renames later duplicates deterministically, records each rename, then enforces uniqueness', { timeout: 120_000 }, async () => {
    const db = await open(kind);
    try {
      await db.migrate(before);
      const add = (username: string, day: number) =>
        db.query(`insert into users (username, email, phonenumber, password_hash, role, created_at) values ($1, $2, '1', 'x', 'user', $3) returning id`, [username, `${username.toLowerCase()}-${day}@example.com`, new Date(Date.UTC(2026, 0, day))]);
      const ids: Record<string, string> = {};
      for (const [username, day] of [['ann-2', 1], ['ann', 2], ['Ann', 3], ['ANN', 4], ['bob', 5], ['Bob', 6], ['carol', 7]] as const) ids[`${username}@${day}`] = (await add(username, day))[0]!.id as string;
      // Someone who ran commands under a duplicated name keeps their history row as it was.
      await db.query(`insert into command_history (user_id, username, command, source, outcome, duration_ms) values ($1, 'Ann', 'user.show', 'ui', 'ok', 1)`, [ids['Ann@3']]);

      await db.migrate(migrationsFolder);

      const names = Object.fromEntries((await db.query(`select id, username from users`)).map((r) => [r.id as string, r.username as string]));
      expect(names[ids['ann-2@1']!]).toBe('ann-2');
      expect(names[ids['ann@2']!]).toBe('ann');
      expect(names[ids['Ann@3']!]).toBe('Ann-3'); // "Ann-2" is taken by ann-2, case-insensitively
      expect(names[ids['ANN@4']!]).toBe('ANN-4'); // then ANN-2 and ANN-3 are
      expect(names[ids['bob@5']!]).toBe('bob');
      expect(names[ids['Bob@6']!]).toBe('Bob-2');
      expect(names[ids['carol@7']!]).toBe('carol');

      const renames = await db.query(`select username, actor_kind, origin, command, targets, request_body from command_history where command = 'user.rename-duplicate' order by created_at, request_body->>'was'`);
      expect(renames).toHaveLength(3);
      expect(renames.map((r) => (r.request_body as { was: string; username: string }).username).sort()).toEqual(['ANN-4', 'Ann-3', 'Bob-2']);
      expect(renames[0]).toMatchObject({ username: 'Opsdeck', actor_kind: 'system', origin: 'server' });
      expect(renames.find((r) => (r.request_body as { was: string }).was === 'Ann')).toMatchObject({ targets: [{ kind: 'user', id: ids['Ann@3'], name: 'Ann' }] });
      expect((await db.query(`select username from command_history where command = 'user.show'`))[0]).toEqual({ username: 'Ann' });

      await expect(db.query(`insert into users (username, email, phonenumber, password_hash, role) values ('CAROL', 'c2@example.com', '1', 'x', 'user')`)).rejects.toThrow(/users_username_lower_idx/);
    } finally {
      await db.close();
    }
  });
});
