import { z } from 'zod';
import { str } from './common';
import { incidentReportQuerySchema } from './incident-report';

/** Where a run started (the browser's front doors, or `api` for a call made without a command). */
export const commandSources = ['palette', 'cmdline', 'ui', 'hotkey', 'link', 'api', 'history'] as const;
export type CommandSource = (typeof commandSources)[number];
/**
 * Where a person acted from a notification itself (issue 27 §4): its signed link or button. Only
 * the server records these; a browser cannot claim them.
 */
export const pageSources = ['email', 'ntfy', 'slack', 'telegram'] as const;
export type PageSource = (typeof pageSources)[number];
/** How History names those sources. */
export const pageSourceWords: Record<PageSource, string> = { email: 'from an email link', ntfy: 'from ntfy', slack: 'from Slack', telegram: 'from Telegram' };
/** Sources a record may have: also `system`, for what Opsdeck itself did (migrations, retention), and the page sources. */
export const historySources = [...commandSources, 'system', ...pageSources] as const;
export type HistorySource = (typeof historySources)[number];
/** A record's source as History shows it: the page sources in words, the others as they are. */
export const sourceText = (source: HistorySource): string => (pageSourceWords as Record<string, string>)[source] ?? source;
export const commandOutcomes = ['ok', 'error', 'cancelled', 'refused'] as const;
export type CommandOutcome = (typeof commandOutcomes)[number];

/**
 * Server records are written by the API with the change they describe. Client records are what
 * browsers reported, before History became server-written, for runs that made no API write
 * (view-only commands, refusals and cancellations before any call); they are kept and read as
 * such, and no call writes one now (issue 25 §3).
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

/**
 * GET /api/command-history/export: the records of the incident report's window (`from`, `to`, at
 * most 31 days, optional `serverId`) as JSON Lines.
 */
export const historyExportQuerySchema = incidentReportQuerySchema;
export type HistoryExportQuery = z.input<typeof historyExportQuerySchema>;
