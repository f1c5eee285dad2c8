import { z } from 'zod';
import { jsonValue, MAX_TEXT, str } from './common';

/** Where a run started (the browser's front doors, or `api` for a call made without a command). */
export const commandSources = ['palette', 'cmdline', 'ui', 'hotkey', 'link', 'api', 'history'] as const;
export type CommandSource = (typeof commandSources)[number];
/** Sources a record may have: also `system`, for what Opsdeck itself did (migrations, retention). */
export const historySources = [...commandSources, 'system'] as const;
export type HistorySource = (typeof historySources)[number];
export const commandOutcomes = ['ok', 'error', 'cancelled', 'refused'] as const;
export type CommandOutcome = (typeof commandOutcomes)[number];

/**
 * Server records are written by the API with the change they describe; client records are what
 * the browser reports for runs that made no API write (view-only commands, refusals and
 * cancellations before any call). Only server records say what happened on the server.
 */
export const historyOrigins = ['server', 'client'] as const;
export type HistoryOrigin = (typeof historyOrigins)[number];
/** user: a session; token: a personal API token; agent: an agent install key; anonymous: a failed sign-in; system: Opsdeck itself. */
export const actorKinds = ['user', 'token', 'agent', 'anonymous', 'system'] as const;
export type ActorKind = (typeof actorKinds)[number];

/**
 * What a call touched, named as it was at that moment: a server by its hostname, a user by their
 * username, an alert as "alertname @ hostname", a group by its name.
 */
export const auditTargetSchema = z.object({ kind: str(), id: str(), name: str() });
export type AuditTarget = z.infer<typeof auditTargetSchema>;

/**
 * The headers a command run sends with each API call, joined to the server's record of that
 * call (the command line is percent-encoded: headers carry Latin-1 only). The server answers
 * every recorded call with the record's id in `record`.
 */
export const AUDIT_HEADERS = {
  command: 'x-opsdeck-command',
  commandLine: 'x-opsdeck-command-line',
  source: 'x-opsdeck-source',
  run: 'x-opsdeck-run',
  undoOf: 'x-opsdeck-undo-of',
  record: 'x-opsdeck-record',
} as const;
export const MAX_COMMAND_LINE = 2000;

/** One record of the audit trail: the team's incident log. `who` is always filled in by the server. */
export const commandHistoryEntrySchema = z.object({
  _id: str(),
  origin: z.enum(historyOrigins),
  actorKind: z.enum(actorKinds),
  userId: str().nullable(),
  username: str(),
  role: str().nullable(),
  /** The personal token or agent key used, by id and label (prefix or name). */
  actorKeyId: str().nullable(),
  actorLabel: str().nullable(),
  command: str(),
  commandLine: str().nullable(),
  /**
   * The line as people read it: things by name (`alert.resolve high_cpu_usage@api-01`), matchers
   * and spans in words. Shown, recalled with ↑ and exported; `commandLine` is what re-runs.
   */
  displayLine: str().nullable(),
  input: z.unknown(),
  source: z.enum(historySources),
  outcome: z.enum(commandOutcomes),
  error: str().nullable(),
  status: z.number().nullable(),
  durationMs: z.number(),
  method: str().nullable(),
  route: str().nullable(),
  targets: z.array(auditTargetSchema),
  requestBody: z.unknown(),
  requestId: str().nullable(),
  runId: str().nullable(),
  /** The record this run undid (Ctrl+Z or a notice's Undo), else null. */
  undoOf: str().nullable(),
  createdAt: str(),
});
export type CommandHistoryEntry = z.infer<typeof commandHistoryEntrySchema>;

/** What the browser may report (a client record): never who, never a server outcome. */
export const createCommandHistorySchema = z
  .object({
    command: str().min(1).max(100),
    commandLine: str().max(MAX_COMMAND_LINE).nullable().optional(),
    input: jsonValue().refine((v) => JSON.stringify(v ?? null).length <= 10_000, 'input is too large (at most 10000 characters as JSON)').optional(),
    source: z.enum(commandSources),
    outcome: z.enum(commandOutcomes),
    error: str().max(MAX_TEXT * 4).nullable().optional(),
    durationMs: z.number().min(0).max(86_400_000),
    runId: z.uuid('runId must be a uuid').optional(),
    /** The id of this person's earlier record that this run undoes. */
    undoOf: z.uuid('undoOf must be the id of a history record').nullable().optional(),
  })
  .strict();
export type CreateCommandHistory = z.input<typeof createCommandHistorySchema>;

export const commandHistorySortable = ['createdAt', 'command', 'username'] as const;
export const commandHistoryFilterable = {
  command: ['contains', 'eq', 'in'],
  username: ['contains', 'eq'],
  outcome: ['in', 'eq'],
  source: ['in', 'eq'],
  origin: ['in', 'eq'],
  runId: ['eq'],
  targetId: ['eq'],
  createdAt: ['between'],
  /** command, system, signin, view (server/routes/command-history.ts). */
  kind: ['in', 'eq'],
} as const;
