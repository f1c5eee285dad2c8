import { sql } from 'drizzle-orm';
import { openBackendAlert, openLimitsAlert, resolveBackendAlert, resolveLimitsAlert, type OverLimitTarget } from '../alerting/meta-alert';
import type { Database, Db } from '../db/client';
import type { Monitoring } from '../monitoring/monitoring';
import type { LeaderLogger, WorkGate } from './leader';
import { OutageNotice } from './outage';

/** The settings row where the leader publishes what it knows of the monitoring backend (every process reads it). */
export const MONITORING_HEALTH_KEY = 'monitoring_health';

/** What the leader last found about the figures' freshness (GET /api/monitoring/health, readiness, the banner). */
export interface MonitoringHealth {
  /** ok: figures are fresh; blind: they stopped (the cause says why). */
  status: 'ok' | 'blind';
  cause: string | null;
  /** When the figures stopped (ISO), while blind. */
  since: string | null;
  /** When fresh figures were last written (ISO). */
  lastFreshAt: string | null;
  /** Monitored servers in state `stale`. */
  staleServers: number;
  mode: 'builtin' | 'prometheus';
  /** "Prometheus at http://…" (no credentials) or "built-in collector". */
  backend: string;
  checkedAt: string;
  checkedBy: string;
  /** The open "Monitoring backend unreachable" alert, while blind. */
  alertId: string | null;
  /** Monitored servers in state `over_limits` (SCRAPE_SERIES_LIMIT, SCRAPE_LABEL_LIMIT). */
  overLimitServers?: number;
  /** The open "Monitoring targets over their limits" alert, while any server is over them. */
  limitsAlertId?: string | null;
}

/** Over-limit servers named in the meta alert's description; the rest are counted. */
const LISTED_OVER_LIMITS = 20;

/**
 * The leader's watch over its own figures (issue 12 "never blind without saying so"). Once per
 * scrape interval it
 * 1. marks `stale` every monitored server whose last verdict (up or down) is older than
 *    Monitoring.staleAfterMs — orange "Stale", never "Running" — with the cause as its error;
 * 2. decides whether the backend is blind: no fresh figures written for that long (Prometheus
 *    unreachable or erroring, the built-in collector stalled or unable to write), or every
 *    monitored server stale;
 * 3. on going blind opens the meta alert "Monitoring backend unreachable" for the chosen groups
 *    (alerting/meta-alert.ts), and resolves it when figures are fresh again;
 * 4. publishes the result in the settings row MONITORING_HEALTH_KEY, which every process's
 *    readiness and the dashboard banner read.
 */
export class FreshnessWatch {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private startedAt = 0;
  private last: MonitoringHealth | null = null;
  private readonly outage: OutageNotice;
  /** Called after the meta alert queued notifications (app.ts wakes the delivery worker). */
  onQueued: (() => void) | null = null;

  constructor(
    private readonly database: Database,
    private readonly monitoring: Monitoring,
    private readonly gate: WorkGate,
    private readonly name: string,
    private readonly log: LeaderLogger,
    private readonly now: () => number = Date.now,
  ) {
    this.outage = new OutageNotice(log, 'Checking the monitoring backend', monitoring.settings.scrapeIntervalS * 1000);
  }

  /** The last result this process computed (only the leader computes), or null. */
  get latest(): MonitoringHealth | null {
    return this.last;
  }

  get intervalMs(): number {
    return this.monitoring.settings.scrapeIntervalS * 1000;
  }

  start(): void {
    if (this.timer || !this.monitoring.settings.enabled) return;
    this.startedAt = this.now();
    const loop = () => {
      this.timer = setTimeout(() => {
        this.running = this.check()
          .then(() => this.outage.ok())
          .catch((error) => void this.outage.failed(error))
          .finally(() => {
            this.running = null;
            if (this.timer) loop();
          });
      }, this.intervalMs);
      this.timer.unref?.();
    };
    loop();
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
    this.last = null;
  }

  /** One look (the loop's step; tests call it directly). */
  async check(): Promise<MonitoringHealth> {
    const now = this.now();
    const freshness = this.monitoring.freshness(now);
    const backend = this.monitoring.mode === 'prometheus' ? `Prometheus at ${this.monitoring.prometheus!.displayUrl}` : 'built-in collector';
    // Rows a restart left behind are refreshed by the first rounds: judge them after one full window.
    const settled = now - this.startedAt >= this.monitoring.staleAfterMs;
    const cutoff = new Date(now - this.monitoring.rowStaleAfterMs).toISOString();
    const rowCause =
      freshness.cause ?? (this.monitoring.mode === 'prometheus' ? 'Prometheus has no fresh samples of this server' : 'The built-in collector has no fresh figures of this server');
    const outcome = await this.gate.transaction(async (tx: Db) => {
      if (settled) {
        await tx.execute(sql`
          update servers set stale_from = state, state = 'stale', last_error = ${rowCause.slice(0, 500)}
          where status = 'active' and is_agent_configured and state in ('up', 'down', 'over_limits')
            and (observed_at is null or observed_at < ${cutoff}::timestamptz)`);
        // A server that went stale before the backend's failure was known says so now.
        if (freshness.cause) {
          await tx.execute(sql`
            update servers set last_error = ${freshness.cause.slice(0, 500)}
            where state = 'stale' and status = 'active' and is_agent_configured and last_error is distinct from ${freshness.cause.slice(0, 500)}`);
        }
      }
      const counts = await tx.execute<{ stale: number; monitored: number }>(sql`
        select count(*) filter (where state = 'stale')::int as stale, count(*) filter (where state <> 'unknown')::int as monitored
        from servers where status = 'active' and is_agent_configured`);
      const stale = Number(counts.rows[0]?.stale ?? 0);
      const monitored = Number(counts.rows[0]?.monitored ?? 0);
      const allStale = settled && monitored > 0 && stale === monitored;
      const blind = !freshness.fresh || allStale;
      const cause = !freshness.fresh ? freshness.cause : allStale ? `No server has fresh figures from the ${backend} (newer than ${Math.round(this.monitoring.staleAfterMs / 1000)} s)` : null;
      const previous = this.last ?? (await readHealth(tx));
      let alertId = previous?.alertId ?? null;
      let queued = 0;
      const at = new Date(now);
      if (blind && (previous?.status !== 'blind' || !alertId)) {
        ({ alertId, queued } = await openBackendAlert(tx, at, { backend, cause: cause!, staleServers: stale }));
      } else if (!blind && (previous?.status === 'blind' || alertId)) {
        queued = (await resolveBackendAlert(tx, at)).queued;
        alertId = null;
      }
      // Targets over their limits: one meta alert names them, and resolves when none is left.
      const limited = await tx.execute<{ hostname: string; ipaddress: string; agent_port: number; last_error: string | null; total: number }>(sql`
        select hostname, ipaddress, agent_port, last_error, count(*) over ()::int as total from servers
        where status = 'active' and is_agent_configured and state = 'over_limits'
        order by hostname limit ${LISTED_OVER_LIMITS}`);
      const overLimits = Number(limited.rows[0]?.total ?? 0);
      let limitsAlertId = previous?.limitsAlertId ?? null;
      if (overLimits > 0) {
        const targets: OverLimitTarget[] = limited.rows.map((r) => ({ hostname: r.hostname, address: `${r.ipaddress}:${r.agent_port}`, reason: r.last_error ?? 'over the scrape limits' }));
        const opened = await openLimitsAlert(tx, at, targets, overLimits);
        limitsAlertId = opened.alertId;
        queued += opened.queued;
      } else if (limitsAlertId || previous?.overLimitServers) {
        queued += (await resolveLimitsAlert(tx, at)).queued;
        limitsAlertId = null;
      }
      const health: MonitoringHealth = {
        status: blind ? 'blind' : 'ok',
        cause,
        since: blind ? (previous?.status === 'blind' && previous.since ? previous.since : at.toISOString()) : null,
        lastFreshAt: freshness.lastFreshAt ? new Date(freshness.lastFreshAt).toISOString() : (previous?.lastFreshAt ?? null),
        staleServers: stale,
        mode: this.monitoring.mode,
        backend,
        checkedAt: at.toISOString(),
        checkedBy: this.name,
        alertId,
        overLimitServers: overLimits,
        limitsAlertId,
      };
      await tx.execute(sql`
        insert into settings (key, value, updated_at) values (${MONITORING_HEALTH_KEY}, ${JSON.stringify(health)}::jsonb, ${at.toISOString()}::timestamptz)
        on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at`);
      return { health, queued };
    });
    if (!outcome.ran) return this.last ?? unknownHealth(this.monitoring, this.name, now);
    const { health, queued } = outcome.value;
    if (health.status !== this.last?.status) {
      if (health.status === 'blind') this.log.error({ cause: health.cause, staleServers: health.staleServers }, 'Monitoring is blind: no fresh figures');
      else if (this.last) this.log.warn({ backend: health.backend }, 'Monitoring has fresh figures again');
    }
    this.last = health;
    if (queued) this.onQueued?.();
    return health;
  }
}

async function readHealth(tx: Db): Promise<MonitoringHealth | null> {
  const rows = await tx.execute<{ value: MonitoringHealth }>(sql`select value from settings where key = ${MONITORING_HEALTH_KEY}`);
  return rows.rows[0]?.value ?? null;
}

function unknownHealth(monitoring: Monitoring, name: string, now: number): MonitoringHealth {
  return {
    status: 'ok',
    cause: null,
    since: null,
    lastFreshAt: null,
    staleServers: 0,
    mode: monitoring.mode,
    backend: monitoring.mode === 'prometheus' ? `Prometheus at ${monitoring.prometheus!.displayUrl}` : 'built-in collector',
    checkedAt: new Date(now).toISOString(),
    checkedBy: name,
    alertId: null,
    overLimitServers: 0,
    limitsAlertId: null,
  };
}

/** What the leader last published, as any process reads it; null when nothing was published yet. */
export async function publishedHealth(database: Database): Promise<MonitoringHealth | null> {
  const [row] = await database.query<{ value: MonitoringHealth | string }>('select value from settings where key = $1', [MONITORING_HEALTH_KEY]);
  if (!row) return null;
  return typeof row.value === 'string' ? (JSON.parse(row.value) as MonitoringHealth) : row.value;
}

/** MonitoringHealth as a reader sees it: `unknown` when no leader has published lately, `off` without monitoring. */
export type MonitoringStatus = Omit<MonitoringHealth, 'status'> & { status: MonitoringHealth['status'] | 'unknown' | 'off' };

/**
 * The monitoring backend's health as this process can tell: the leader knows first hand (its
 * watch, or before the watch's first look its collector); every other process reads what the
 * leader last published, which must itself be recent — a leader that stopped publishing is no
 * news either (readiness, GET /api/monitoring/health, the dashboard banner).
 */
export async function monitoringStatus(database: Database, monitoring: Monitoring, watch: FreshnessWatch, isLeader: boolean): Promise<MonitoringStatus> {
  const now = Date.now();
  const base = unknownHealth(monitoring, '', now);
  if (!monitoring.settings.enabled) return { ...base, status: 'off' };
  let health = watch.latest;
  if (!health && isLeader) {
    const f = monitoring.freshness(now);
    return { ...base, status: f.fresh ? 'ok' : 'blind', cause: f.cause, lastFreshAt: f.lastFreshAt ? new Date(f.lastFreshAt).toISOString() : null };
  }
  health ??= await publishedHealth(database);
  if (!health) return { ...base, status: 'unknown', cause: 'No leader has reported on the monitoring backend yet' };
  const age = now - Date.parse(health.checkedAt);
  if (age > monitoring.staleAfterMs + 2 * watch.intervalMs) {
    return { ...health, status: 'unknown', cause: `The monitoring backend was last checked ${Math.round(age / 1000)} s ago (by ${health.checkedBy}): no leader is watching it` };
  }
  return health;
}
