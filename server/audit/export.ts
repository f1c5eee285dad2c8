import { Readable } from 'node:stream';
import { and, asc, between, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { CommandHistoryEntry, historyExportQuerySchema } from '../contract/command-history';
import type { Db } from '../db/client';
import { commandHistory } from '../db/schema';
import { escapeLike } from '../db/list-query';

/**
 * The records of a window, for one server when given: records that name it (or one of `alertIds`)
 * among their targets, or — records written before targets were kept, and client records — whose
 * input names its id, hostname or address as a whole value.
 */
export function historyInWindow(from: Date, to: Date, server?: { id: string; hostname: string; ipaddress: string } | null, alertIds: string[] = []): SQL {
  const inWindow = between(commandHistory.createdAt, from, to);
  if (!server) return inWindow;
  const ids = [server.id, ...alertIds];
  const values = [server.id, server.hostname, server.ipaddress, ...alertIds].map((v) => `%"${escapeLike(v.toLowerCase())}"%`);
  // One `like any` reads each row's text once; an `or` of likes re-reads it per pattern (3x slower).
  const byInput = sql`lower(${commandHistory.input}::text) like any(${sql.param(values)}::text[])`;
  return and(inWindow, or(sql`${commandHistory.targetIds} && ${sql.param(ids)}::uuid[]`, byInput))!;
}

const PAGE = 500;

/** JSON Lines, oldest first, read page by page (keyset on created_at, id) so a month streams in bounded memory. */
export function streamHistory(db: Db, q: z.output<typeof historyExportQuerySchema>, toApi: (row: typeof commandHistory.$inferSelect) => CommandHistoryEntry): Readable {
  async function* lines() {
    let server: { id: string; hostname: string; ipaddress: string } | null = null;
    if (q.serverId) {
      const rows = await db.execute<{ id: string; hostname: string; ipaddress: string }>(sql`select id, hostname, ipaddress from servers where id = ${q.serverId}`);
      server = rows.rows[0] ?? { id: q.serverId, hostname: q.serverId, ipaddress: q.serverId };
    }
    const where = historyInWindow(q.from, q.to, server);
    // The cursor keeps PostgreSQL's microseconds (a JS Date has milliseconds only).
    let after: { at: string; id: string } | null = null;
    for (;;) {
      const next: SQL | undefined = after ? sql`(${commandHistory.createdAt}, ${commandHistory.id}) > (${after.at}::timestamptz, ${after.id}::uuid)` : undefined;
      const rows: { row: typeof commandHistory.$inferSelect; at: string }[] = await db
        .select({ row: commandHistory, at: sql<string>`${commandHistory.createdAt}::text` })
        .from(commandHistory)
        .where(and(where, next))
        .orderBy(asc(commandHistory.createdAt), asc(commandHistory.id))
        .limit(PAGE);
      for (const { row } of rows) yield `${JSON.stringify(toApi(row))}\n`;
      if (rows.length < PAGE) return;
      const last: { row: typeof commandHistory.$inferSelect; at: string } = rows[rows.length - 1]!;
      after = { at: last.at, id: last.row.id };
    }
  }
  return Readable.from(lines());
}
