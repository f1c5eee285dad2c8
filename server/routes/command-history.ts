import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { createCommandHistorySchema, type CommandHistoryEntry } from '../contract/command-history';
import type { Db } from '../db/client';
import { commandHistory } from '../db/schema';
import { registerResource } from './resource';

type Row = typeof commandHistory.$inferSelect;

const toApi = (row: Row): CommandHistoryEntry => ({
  _id: row.id,
  userId: row.userId,
  username: row.username,
  command: row.command,
  input: row.input,
  source: row.source as CommandHistoryEntry['source'],
  outcome: row.outcome as CommandHistoryEntry['outcome'],
  error: row.error,
  durationMs: row.durationMs,
  createdAt: row.createdAt.toISOString(),
});

/** The shared log of every command run. Append-only: no update or delete call exists. */
export function registerCommandHistory(app: FastifyInstance, db: Db): void {
  registerResource<Row, CommandHistoryEntry>(app, db, {
    name: 'command-history',
    table: commandHistory,
    id: commandHistory.id,
    toApi,
    read: 'read',
    sortable: { createdAt: commandHistory.createdAt, command: commandHistory.command, username: commandHistory.username },
    filterable: {
      command: { column: commandHistory.command, ops: ['contains', 'eq', 'in'] },
      username: { column: commandHistory.username, ops: ['contains', 'eq'] },
      userId: { column: commandHistory.userId, ops: ['eq'], kind: 'uuid' },
      outcome: { column: commandHistory.outcome, ops: ['in', 'eq'] },
      source: { column: commandHistory.source, ops: ['in', 'eq'] },
      createdAt: { column: commandHistory.createdAt, ops: ['between'], kind: 'date' },
    },
    search: [sql`lower(${commandHistory.command})`, sql`lower(${commandHistory.username})`],
    defaultSort: { by: 'createdAt', direction: 'desc' },
    create: {
      permission: 'read',
      schema: createCommandHistorySchema,
      async toRow(input, { user }) {
        return {
          userId: user._id,
          username: user.username,
          command: input.command,
          input: input.input ?? null,
          source: input.source,
          outcome: input.outcome,
          error: input.error ?? null,
          durationMs: Math.round(input.durationMs),
        };
      },
    },
  });
}
