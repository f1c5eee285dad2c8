import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AUDIT_HEADERS, commandSources, MAX_COMMAND_LINE, type AuditTarget, type CommandOutcome, type CommandSource, type HistorySource } from '../contract/command-history';
import type { Db } from '../db/client';
import { badRequest, HttpError } from '../http/errors';
import { appendServerRecord, type AuditActor } from './record';
import { checkUndoOf } from './undo';
import { isUuid } from '../contract/ids';

/**
 * The server-written audit trail (issue 11 §2, docs/architecture.md "Audit trail").
 *
 * Every mutating API call (any method but GET/HEAD/OPTIONS, except SPEC's list queries
 * `POST …/all` and routes that opt out with `config: { audit: false }`) gets a per-request
 * context. A route does its writes inside `audited(request, db, work)`: one transaction that
 * runs the work and appends the record, so the change and its record commit together or not at
 * all. A call that is refused or fails is recorded after the rollback, with its status and
 * message, by the onSend hook — as is (with an error in the log) a mutating route that answered
 * without `audited`, so nothing goes unrecorded while the tests catch the omission.
 */

declare module 'fastify' {
  interface FastifyRequest {
    audit: AuditContext | null;
  }
  interface FastifyContextConfig {
    /** false: not a change (or, like the client-reported history, a record itself). */
    audit?: false;
  }
  interface FastifyInstance {
    /** Mutating calls answered without an audited transaction (recorded after the fact): 0 when every route is right. */
    auditFallbacks: number;
    /** Every route the trail records ("METHOD /api/…"), so a test can check each one leaves its record. */
    auditedRoutes: string[];
  }
}

/** What the browser says about the run that made the call: joined to the server's record. */
interface Claim {
  command: string | null;
  commandLine: string | null;
  /** A browser claims a command source; the server alone says a run came from a notification (a page source). */
  source: HistorySource;
  runId: string | null;
  undoOf: string | null;
}

export interface AuditContext {
  started: number;
  /** Set by routes whose caller is not the session's user (sign-in, agent keys). */
  actor: AuditActor | null;
  claim: Claim;
  targets: AuditTarget[];
  /** Ids the record is also found by (an alert's server), without naming them as targets. */
  related: string[];
  recordId: string | null;
  recorded: boolean;
  /** Why a refused call was refused, when its answer is not JSON (a page): the record's error. */
  refusal?: string | null;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The run's headers, checked: a bad one is a 400 naming it (and is itself recorded). */
function readClaim(request: FastifyRequest): Claim {
  const claim: Claim = { command: null, commandLine: null, source: 'api', runId: null, undoOf: null };
  const command = header(request, AUDIT_HEADERS.command);
  if (command !== undefined) {
    if (!/^[a-z]+\.[a-z]+(-[a-z]+)*$/.test(command)) throw badRequest(`${AUDIT_HEADERS.command}: not a command id`, AUDIT_HEADERS.command);
    claim.command = command;
  }
  const line = header(request, AUDIT_HEADERS.commandLine);
  if (line !== undefined) {
    let text: string;
    try {
      text = decodeURIComponent(line);
    } catch {
      throw badRequest(`${AUDIT_HEADERS.commandLine}: not percent-encoded text`, AUDIT_HEADERS.commandLine);
    }
    if (text.length > MAX_COMMAND_LINE) throw badRequest(`${AUDIT_HEADERS.commandLine}: longer than ${MAX_COMMAND_LINE} characters`, AUDIT_HEADERS.commandLine);
    if (text.includes('\u0000')) throw badRequest(`${AUDIT_HEADERS.commandLine}: contains a NUL character`, AUDIT_HEADERS.commandLine);
    claim.commandLine = text;
  }
  const source = header(request, AUDIT_HEADERS.source);
  if (source !== undefined) {
    if (!(commandSources as readonly string[]).includes(source)) throw badRequest(`${AUDIT_HEADERS.source}: one of ${commandSources.join(', ')}`, AUDIT_HEADERS.source);
    claim.source = source as CommandSource;
  }
  for (const [key, name] of [
    ['runId', AUDIT_HEADERS.run],
    ['undoOf', AUDIT_HEADERS.undoOf],
  ] as const) {
    const v = header(request, name);
    if (v === undefined) continue;
    if (!isUuid(v)) throw badRequest(`${name}: not a uuid`, name);
    claim[key] = v.toLowerCase();
  }
  return claim;
}

/** The session's user, or the personal token's owner and the token, as the trail names them. */
function actorOf(request: FastifyRequest): AuditActor | null {
  if (request.audit?.actor) return request.audit.actor;
  const user = request.user;
  if (!user) return null;
  const token = request.apiToken;
  if (token) return { kind: 'token', userId: user._id, username: user.username, role: user.role, keyId: token.id, label: token.name };
  return { kind: 'user', userId: user._id, username: user.username, role: user.role };
}

function outcomeOf(status: number): CommandOutcome {
  if (status < 400) return 'ok';
  if (status === 401 || status === 403 || status === 429) return 'refused';
  return 'error';
}

function messageOf(payload: unknown): string | null {
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
  if (!text) return null;
  try {
    const body = JSON.parse(text) as { message?: unknown };
    return typeof body.message === 'string' ? body.message : null;
  } catch {
    return null;
  }
}

function recordOf(request: FastifyRequest, ctx: AuditContext, actor: AuditActor, outcome: CommandOutcome, error: string | null, status: number | null) {
  const route = request.routeOptions.url ?? null;
  return {
    actor,
    command: ctx.claim.command ?? `${request.method} ${route ?? request.url.split('?')[0]}`,
    commandLine: ctx.claim.commandLine,
    source: ctx.claim.source,
    outcome,
    error,
    status,
    durationMs: performance.now() - ctx.started,
    method: request.method,
    route,
    targets: ctx.targets,
    related: ctx.related,
    requestBody: request.body,
    requestId: request.id,
    runId: ctx.claim.runId,
    undoOf: ctx.claim.undoOf,
  };
}

/** Names what this call touches (before the change, or when it is refused, so the record says what was tried). */
export function auditTarget(request: FastifyRequest, ...targets: AuditTarget[]): void {
  const ctx = request.audit;
  if (!ctx) return;
  for (const t of targets) if (!ctx.targets.some((x) => x.kind === t.kind && x.id === t.id)) ctx.targets.push(t);
}

/** Ids a record should also be found by (the server of an alert), e.g. for a one-server incident report. */
export function auditRelated(request: FastifyRequest, ...ids: (string | null | undefined)[]): void {
  const ctx = request.audit;
  if (ctx) for (const id of ids) if (id && !ctx.related.includes(id)) ctx.related.push(id);
}

/** Routes whose caller is not a session (sign-in, the agent installer) say who it is. */
export function auditActor(request: FastifyRequest, actor: AuditActor): void {
  if (request.audit) request.audit.actor = actor;
}

/**
 * A call made from a notification's link or button (issue 27 §4) is the console's command run by
 * the person it was for: the route names the command, its line and where it came from, which
 * no header of the caller's can.
 */
export function auditCommand(request: FastifyRequest, run: { command: string; commandLine: string; source: HistorySource }): void {
  if (!request.audit) return;
  request.audit.claim = { ...request.audit.claim, command: run.command, commandLine: run.commandLine, source: run.source };
}

/** The reason a refused call's record gives, for an answer that is a page rather than JSON. */
export function auditRefusal(request: FastifyRequest, reason: string): void {
  if (request.audit) request.audit.refusal = reason;
}

export interface AuditScope {
  /** Names a target found inside the transaction. */
  target: (...targets: AuditTarget[]) => void;
  /** Ids the record should also be found by (the server of a key), e.g. for a one-server incident report. */
  related: (...ids: (string | null | undefined)[]) => void;
  /** Work that must wait until the change is committed (in-memory caches, wake-ups). */
  afterCommit: (fn: () => void) => void;
  /**
   * Records the call as failed, with this reason, though it answers 2xx: a call whose answer
   * reports a failure it carried out (a test notification no channel took) is an error in the
   * history, not a success.
   */
  fail: (reason: string) => void;
}

/**
 * Runs a route's writes and appends its record in one transaction. Everything `work` writes must
 * go through `tx` (on PGlite a query on `db` inside would wait for this transaction forever).
 */
export async function audited<T>(request: FastifyRequest, db: Db, work: (tx: Db, scope: AuditScope) => Promise<T>): Promise<T> {
  const ctx = request.audit;
  if (!ctx) throw new Error(`audited() on a route that is not audited: ${request.method} ${request.routeOptions.url}`);
  if (ctx.recorded) throw new Error('audited() runs once per request');
  const after: (() => void)[] = [];
  let failure: string | null = null;
  const scope: AuditScope = { target: (...t) => auditTarget(request, ...t), related: (...ids) => auditRelated(request, ...ids), afterCommit: (fn) => after.push(fn), fail: (reason) => void (failure = reason) };
  const result = await db.transaction(async (tx) => {
    const value = await work(tx as unknown as Db, scope);
    const actor = actorOf(request);
    if (!actor) throw new Error('audited() needs a caller: a session, a token or auditActor()');
    ctx.recordId = await appendServerRecord(tx as unknown as Db, recordOf(request, ctx, actor, failure === null ? 'ok' : 'error', failure, null));
    return value;
  });
  ctx.recorded = true;
  for (const fn of after) {
    try {
      fn();
    } catch (err) {
      request.log.error({ err }, 'after-commit work failed');
    }
  }
  return result;
}

function recorded(method: string, url: string | undefined, config: { audit?: false } | undefined): boolean {
  if (SAFE_METHODS.has(method) || !url || !url.startsWith('/api/')) return false;
  // SPEC §7's list call is a POST that reads.
  if (url.endsWith('/all')) return false;
  return config?.audit !== false;
}

const isMutating = (request: FastifyRequest) => recorded(request.method, request.routeOptions.url, request.routeOptions.config);

/** Hooks the trail into the app; call after the session is loaded (app.ts's onRequest). */
export function installAuditTrail(app: FastifyInstance, db: Db): void {
  app.decorateRequest('audit', null);
  app.decorate('auditFallbacks', 0);
  app.decorate('auditedRoutes', [] as string[]);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (recorded(method, route.url, route.config as { audit?: false } | undefined)) app.auditedRoutes.push(`${method} ${route.url}`);
  });

  app.addHook('onRequest', async (request) => {
    if (!isMutating(request)) return;
    request.audit = { started: performance.now(), actor: null, claim: { command: null, commandLine: null, source: 'api', runId: null, undoOf: null }, targets: [], related: [], recordId: null, recorded: false };
    // A read-only personal token reads: every change is refused (and recorded as refused).
    if (request.apiToken?.scope === 'read') throw new HttpError(403, 'This API token is read-only: it cannot change anything');
    request.audit.claim = readClaim(request);
    if (request.audit.claim.undoOf) await checkUndoOf(db, request.audit.claim.undoOf, request.user?._id, AUDIT_HEADERS.undoOf);
  });

  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const ctx = request.audit;
    if (!ctx) return payload;
    if (!ctx.recorded) {
      const actor = actorOf(request);
      // A call nobody can be named for (no session, wrong cross-site header) changed nothing and
      // is in the request log; the trail records people's and keys' calls.
      if (actor) {
        const status = reply.statusCode;
        if (status < 400) {
          app.auditFallbacks += 1;
          request.log.error({ route: request.routeOptions.url }, 'mutating call answered without an audited transaction: recorded after the fact');
        }
        try {
          ctx.recordId = await appendServerRecord(db, recordOf(request, ctx, actor, outcomeOf(status), status >= 400 ? (messageOf(payload) ?? ctx.refusal ?? null) : null, status >= 400 ? status : null));
          ctx.recorded = true;
        } catch (err) {
          request.log.error({ err }, 'could not record a call in the audit trail');
        }
      }
    }
    if (ctx.recordId) void reply.header(AUDIT_HEADERS.record, ctx.recordId);
    return payload;
  });
}
