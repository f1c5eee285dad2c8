import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { endpoints } from '../contract/api-routes';
import { migrationsFolder, type Database } from '../db/client';
import { serve } from '../http/serve';
import type { Monitoring } from '../monitoring/monitoring';
import type { LeaderGate } from './leader';
import { leaderHolder } from './leader-lock';
import { monitoringStatus, type FreshnessWatch } from './freshness-watch';
import { faultsOf } from './faults';

/** What one readiness check found. `detail` says why it failed (or what it saw), for a person. */
export interface CheckResult {
  ok: boolean;
  detail: string;
  /** Stable, machine-readable causes of a failure (`disk_full`, `read_only`, `pool_exhausted`). */
  reasons?: string[];
}

/** A part of readiness: the database, the migrations, the metric backend, the leader. */
export interface ReadinessCheck {
  name: string;
  run(): Promise<CheckResult>;
}

/** How long the whole of /api/ready may take: each check is cut off after this. */
export const READY_CHECK_TIMEOUT_MS = 2000;

function bounded(check: ReadinessCheck, ms: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, detail: `No answer within ${ms / 1000} s` }), ms);
  });
  const run = check.run().catch((error: unknown): CheckResult => ({ ok: false, detail: (error as Error)?.message || String(error) }));
  return Promise.race([run, timeout]).finally(() => clearTimeout(timer));
}

/** The newest migration this build ships (drizzle's journal), to compare with what the database has applied. */
function newestShippedMigration(): { count: number; when: number; tag: string } {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number; tag: string }[] };
  const last = journal.entries.at(-1)!;
  return { count: journal.entries.length, when: last.when, tag: last.tag };
}

/** The database answers a trivial query (bounded by the caller). */
export function databaseCheck(database: Database): ReadinessCheck {
  return {
    name: 'database',
    async run() {
      const started = Date.now();
      await database.query('select 1');
      return { ok: true, detail: `answered in ${Date.now() - started} ms` };
    },
  };
}

/** Every migration of this build is applied (a process of an older build on a newer database is fine). */
export function migrationsCheck(database: Database): ReadinessCheck {
  const shipped = newestShippedMigration();
  return {
    name: 'migrations',
    async run() {
      const [row] = await database.query<{ newest: string | number | null }>('select max(created_at) as newest from drizzle.__drizzle_migrations');
      const newest = Number(row?.newest ?? 0);
      if (newest >= shipped.when) return { ok: true, detail: `applied up to ${shipped.tag}` };
      return { ok: false, detail: `The database lacks migration ${shipped.tag} (and maybe others): restart a process of this version to apply them` };
    },
  };
}

/**
 * `/api/health` (liveness: the process answers, nothing else is asked) and `/api/ready`
 * (readiness: every check passes within READY_CHECK_TIMEOUT_MS; otherwise 503 naming the parts
 * that fail). Neither needs a session, so a load balancer or an orchestrator can probe them;
 * neither touches the database through the session hook (app.ts skips it for these paths).
 */
export function registerHealth(app: FastifyInstance, database: Database, checks: () => ReadinessCheck[]): void {
  serve(app, endpoints['ops.health'], () => ({ status: 'ok', db: database.kind }));

  serve(app, endpoints['ops.ready'], async ({ reply }) => {
    const list = checks();
    const results = await Promise.all(list.map((c) => bounded(c, READY_CHECK_TIMEOUT_MS)));
    const byName = Object.fromEntries(list.map((c, i) => [c.name, results[i]!]));
    const failing = list.filter((_, i) => !results[i]!.ok).map((c) => c.name);
    if (!failing.length) return { status: 'ready', checks: byName };
    const message = `Not ready: ${failing.map((name) => `${name}: ${byName[name]!.detail}`).join('; ')}`;
    const reasons = [...new Set(results.flatMap((r) => (r.ok ? [] : (r.reasons ?? []))))];
    return reply.status(503).send({ statusCode: 503, error: 'Service Unavailable', message, status: 'not ready', failing, reasons, checks: byName });
  });
}

/**
 * Changes can be stored: no full disk, no read-only database, a free connection (faults.ts:
 * what requests and writers met lately, and what the probes see now).
 */
export function storageCheck(database: Database): ReadinessCheck {
  return {
    name: 'storage',
    async run() {
      const faults = faultsOf(database);
      await faults.probe(database);
      const current = faults.current();
      if (!current.length) return { ok: true, detail: 'changes are stored' };
      return { ok: false, detail: current.map((f) => `${f.reason}: ${f.message} (${f.detail})`).join('; '), reasons: current.map((f) => f.reason) };
    },
  };
}

/** The metric backend answers and the figures are fresh (monitoringStatus: the leader's watch, as every process sees it). */
export function monitoringCheck(database: Database, monitoring: Monitoring, watch: FreshnessWatch, gate: LeaderGate): ReadinessCheck {
  return {
    name: 'monitoring',
    async run() {
      const view = await monitoringStatus(database, monitoring, watch, gate.isLeader);
      if (view.status === 'off') return { ok: true, detail: 'monitoring is off in this process' };
      if (view.status !== 'ok') return { ok: false, detail: view.cause ?? 'no fresh figures' };
      return { ok: true, detail: `${view.backend}, fresh${view.lastFreshAt ? ` (figures from ${view.lastFreshAt})` : ''}${view.staleServers ? `; ${view.staleServers} server(s) stale` : ''}` };
    },
  };
}

/** Some process holds the leader lock: this one (always so on PGlite), or another one PostgreSQL names. */
export function leaderCheck(database: Database, gate: LeaderGate): ReadinessCheck {
  return {
    name: 'leader',
    async run() {
      if (database.kind === 'pglite') return { ok: true, detail: 'this process (embedded database: one process, always the leader)' };
      if (gate.isLeader) return { ok: true, detail: `this process (${gate.name})` };
      const holder = await leaderHolder(database);
      if (!holder) return { ok: false, detail: 'No process holds the leader lock: nothing collects, evaluates or delivers' };
      return { ok: true, detail: holder.name ? `${holder.name} (backend pid ${holder.pid})` : `backend pid ${holder.pid}` };
    },
  };
}
