import type { ActorKind, AuditTarget, CommandOutcome, HistorySource } from '../contract/command-history';
import type { Db } from '../db/client';
import { commandHistory } from '../db/schema';
import { isUuid } from '../contract/ids';

/** Who made a call, as they were at that moment. */
export interface AuditActor {
  kind: ActorKind;
  userId: string | null;
  username: string;
  role: string | null;
  /** The personal token or agent key used. */
  keyId?: string | null;
  /** Its label: a token's name, an agent key's prefix. */
  label?: string | null;
}

/** Opsdeck itself (migrations, the retention prune). */
export const SYSTEM_ACTOR: AuditActor = { kind: 'system', userId: null, username: 'Opsdeck', role: null };

export interface ServerRecord {
  actor: AuditActor;
  command: string;
  commandLine: string | null;
  source: HistorySource;
  outcome: CommandOutcome;
  error: string | null;
  status: number | null;
  durationMs: number;
  method: string | null;
  route: string | null;
  targets: AuditTarget[];
  /** Further ids the record is found by (not shown as targets). */
  related?: string[];
  requestBody: unknown;
  requestId: string | null;
  runId: string | null;
  undoOf: string | null;
}

// A check's request headers often carry credentials (Authorization); agent keys travel as "key".
const SECRET_KEYS = /password|secret|token|^key$|apikey|headers|authorization|cookie|^code$/i;
const NUL = /\u0000/g;

/** PostgreSQL text and jsonb hold no NUL character: a record must never fail on one. */
export const clean = (text: string, max = 2000) => (text.length > max ? `${text.slice(0, max)}…` : text).replace(NUL, '\uFFFD');

/**
 * A request body as the trail keeps it: secrets replaced, and bounded (depth, list length, text
 * length) so that no body a client can send makes the record itself fail to store.
 */
export function clip(value: unknown, depth = 0): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return clean(value);
  if (depth >= 6) return '…';
  if (Array.isArray(value)) {
    const items = value.slice(0, 50).map((v) => clip(v, depth + 1));
    return value.length > 50 ? [...items, `… ${value.length - 50} more`] : items;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).slice(0, 50);
    return Object.fromEntries(entries.map(([k, v]) => [clean(k, 100), SECRET_KEYS.test(k) && v !== undefined && v !== null ? '••••' : clip(v, depth + 1)]));
  }
  return undefined;
}

/** Appends one server record; returns its id. `db` is the change's own transaction when there is one. */
export async function appendServerRecord(db: Db, r: ServerRecord, createdAt?: Date): Promise<string> {
  const targets = r.targets.map((t) => ({ kind: clean(t.kind, 50), id: clean(t.id, 100), name: clean(t.name, 500) }));
  const [row] = await db
    .insert(commandHistory)
    .values({
      origin: 'server',
      actorKind: r.actor.kind,
      userId: r.actor.userId,
      username: clean(r.actor.username, 500),
      role: r.actor.role,
      actorKeyId: r.actor.keyId ?? null,
      actorLabel: r.actor.label ? clean(r.actor.label, 200) : null,
      command: clean(r.command, 200),
      commandLine: r.commandLine ? clean(r.commandLine) : null,
      input: null,
      source: r.source,
      outcome: r.outcome,
      error: r.error ? clean(r.error) : null,
      status: r.status,
      durationMs: Math.max(0, Math.round(r.durationMs)),
      method: r.method,
      route: r.route ? clean(r.route, 300) : null,
      targets,
      targetIds: [...new Set([...targets.map((t) => t.id), ...(r.related ?? [])].filter((id) => isUuid(id)).map((id) => id.toLowerCase()))],
      requestBody: r.requestBody === undefined ? null : clip(r.requestBody),
      requestId: r.requestId,
      runId: r.runId,
      undoOf: r.undoOf,
      ...(createdAt ? { createdAt } : {}),
    })
    .returning({ id: commandHistory.id });
  return row!.id;
}
