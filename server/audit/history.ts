import { sql } from 'drizzle-orm';
import type { AuditTarget, CommandHistoryEntry } from '../contract/command-history';
import { rowCount } from '../db/row-counts';
import { commandHistory, shortGrams } from '../db/schema';
import { badRequest } from '../http/errors';
import type { ResourceDef } from '../routes/resource';
import { recordDisplayLine } from './display';

type Row = typeof commandHistory.$inferSelect;

export const historyToApi = (row: Row): CommandHistoryEntry => ({
  _id: row.id,
  origin: row.origin,
  actorKind: row.actorKind,
  userId: row.userId,
  username: row.username,
  role: row.role,
  actorKeyId: row.actorKeyId,
  actorLabel: row.actorLabel,
  command: row.command,
  commandLine: row.commandLine,
  displayLine: recordDisplayLine(row),
  input: row.input,
  source: row.source as CommandHistoryEntry['source'],
  outcome: row.outcome as CommandHistoryEntry['outcome'],
  error: row.error,
  status: row.status,
  durationMs: row.durationMs,
  method: row.method,
  route: row.route,
  targets: (row.targets ?? []) as AuditTarget[],
  requestBody: row.requestBody,
  requestId: row.requestId,
  runId: row.runId,
  undoOf: row.undoOf,
  createdAt: row.createdAt.toISOString(),
});

/** The History panel filters these (contains): indexed as lower(…), with trigrams and short grams (migration 0024). */
const usernameLc = sql`lower(${commandHistory.username})`;
const commandLc = sql`lower(${commandHistory.command})`;

/**
 * What a record is, for the History panel's "show" choices (issue 24 §4): a person's or script's
 * `command`, a `system` event (the evaluator, deliveries, retention), a `signin` (or sign-out), or
 * a `view` (a browser's report of a run that made no API write, which consoles stored before
 * History became server-written; kept, as every record is). The panel hides sign-ins and views
 * unless asked for.
 */
export const historyKinds = ['command', 'system', 'signin', 'view'] as const;
const SIGNIN_COMMANDS = ['session.signin', 'session.signout', 'POST /api/auth/signin', 'POST /api/auth/signout'];
const kindOf = sql`(case when ${commandHistory.actorKind} = 'system' then 'system' when ${commandHistory.command} in (${sql.join(
  SIGNIN_COMMANDS.map((c) => sql`${c}`),
  sql`, `,
)}) then 'signin' when ${commandHistory.origin} = 'client' and ${commandHistory.outcome} = 'ok' then 'view' else 'command' end)`;
const kindIn = (values: unknown[]) => {
  for (const v of values) if (!(historyKinds as readonly unknown[]).includes(v)) throw badRequest(`filter.kind: one of ${historyKinds.join(', ')}`, 'kind');
  return values.length ? sql`${kindOf} in (${sql.join(values.map((v) => sql`${v}`), sql`, `)})` : sql`false`;
};

/**
 * The audit trail as a resource: list, many, one — no create, update or delete call exists, and
 * the database refuses updates and deletes (migration 0018). Records are written by the server
 * only, with the change they record (server/audit/trail.ts): a browser attaches its description
 * of a run (command, re-runnable line, source, run id) as headers of the run's own API calls and
 * never writes a record itself, so nothing in History is a client's word alone (issue 25 §3).
 */
export const historyResource: ResourceDef<Row, CommandHistoryEntry> = {
  name: 'command-history',
  table: commandHistory,
  id: commandHistory.id,
  toApi: historyToApi,
  read: 'read',
  sortable: { createdAt: commandHistory.createdAt, command: commandHistory.command, username: commandHistory.username },
  filterable: {
    command: { column: commandHistory.command, lower: commandLc, grams: shortGrams(commandLc), ops: ['contains', 'eq', 'in'] },
    username: { column: commandHistory.username, lower: usernameLc, grams: shortGrams(usernameLc), ops: ['contains', 'eq'] },
    userId: { column: commandHistory.userId, ops: ['eq'], kind: 'uuid' },
    outcome: { column: commandHistory.outcome, ops: ['in', 'eq'] },
    source: { column: commandHistory.source, ops: ['in', 'eq'] },
    origin: { column: commandHistory.origin, ops: ['in', 'eq'] },
    runId: { column: commandHistory.runId, ops: ['eq'], kind: 'uuid' },
    targetId: { column: commandHistory.targetIds, ops: ['eq'], kind: 'uuid', match: (id) => sql`${commandHistory.targetIds} @> array[${id}]::uuid[]` },
    createdAt: { column: commandHistory.createdAt, ops: ['between'], kind: 'date' },
    undoOf: { column: commandHistory.undoOf, ops: ['eq'], kind: 'uuid' },
    kind: { column: commandHistory.command, ops: ['in', 'eq'], match: (v) => kindIn([v]), matchIn: kindIn },
  },
  search: [{ lower: commandLc, grams: shortGrams(commandLc) }, { lower: usernameLc, grams: shortGrams(usernameLc) }, { lower: sql`lower(coalesce(${commandHistory.commandLine}, ''))` }, { lower: sql`lower(${commandHistory.targets}::text)` }],
  total: (db) => rowCount(db, 'command_history'),
  defaultSort: { by: 'createdAt', direction: 'desc' },
};
