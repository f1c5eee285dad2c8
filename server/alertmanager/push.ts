import { sql } from 'drizzle-orm';
import type { AlertmanagerSettings } from '../config';
import type { Db } from '../db/client';
import { labelKey, toPostable, type PostableAlert, type PushedAlertRow } from './labels';
import { SilenceMirror, type MirrorStatus } from './silence-mirror';
import { networkReason, statusMeaning } from '../channels/http';
import { outboundFetch, refusalOf, type OutboundFetch } from '../outbound/http-client';
import { OutboundPolicy } from '../outbound/policy';

export interface PushLogger {
  warn: (obj: object, msg: string) => void;
  info: (obj: object, msg: string) => void;
}

/** How one Alertmanager instance answered lately (GET /api/integrations/alertmanager). */
export interface InstanceStatus {
  url: string;
  ok: boolean | null;
  lastOkAt: string | null;
  lastError: string | null;
}

export interface PushStatus {
  urls: string[];
  running: boolean;
  lastPushAt: string | null;
  lastFullAt: string | null;
  instances: InstanceStatus[];
  silences: MirrorStatus | null;
}

/** Resolved alerts are posted again for this long after they resolve, as Prometheus does (an instance that was down hears it too). */
const RESOLVED_KEEP_MS = 15 * 60_000;
/** A change written in a transaction that commits later than our look carries an older updated_at: look back this far. */
const OVERLAP_MS = 15_000;
const BATCH = 500;
const TIMEOUT_MS = 10_000;

type Row = PushedAlertRow & { updated_at: Date; in_maintenance: boolean };

const asDate = (v: Date | string | null): Date | null => (v === null ? null : v instanceof Date ? v : new Date(v));

/**
 * Issue 15 §2: Opsdeck's alerts go to Alertmanager's POST /api/v2/alerts, on every instance of a
 * cluster (alerts are not gossiped between instances; notifications are, so the cluster sends
 * each one once). Like Prometheus: open alerts are posted again every `resendS` with an endsAt
 * four resends ahead, so Alertmanager never resolves a firing alert by timeout while Opsdeck
 * lives; a resolved alert is posted with its endsAt, and again for 15 minutes. Between full
 * resends, alerts changed since the last look are posted within `pollMs`.
 *
 * Never pushed: alerts received from Alertmanager (source 'alertmanager': no loop), and firing
 * alerts of servers in maintenance (SPEC: maintenance sends nothing). Runs in the leader only.
 */
export class AlertmanagerPush {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private current: Promise<void> | null = null;
  private abort: AbortController | null = null;
  private lastFullMs = 0;
  private lastPushAt: Date | null = null;
  private lastFullAt: Date | null = null;
  /** What each alert was when last posted (status, updated_at, maintenance): a change posts it again. */
  private posted = new Map<string, string>();
  private instances: InstanceStatus[];
  private wakeAgain = false;
  readonly mirror: SilenceMirror | null;
  /** Requests to Alertmanager, through the outbound policy. */
  private readonly fetch: OutboundFetch;

  constructor(
    private readonly db: Db,
    private readonly settings: AlertmanagerSettings,
    private readonly log: PushLogger,
    outbound: OutboundPolicy = new OutboundPolicy(),
  ) {
    this.fetch = outboundFetch(outbound, 'alertmanager');
    this.instances = settings.urls.map((url) => ({ url, ok: null, lastOkAt: null, lastError: null }));
    this.mirror = settings.mirrorSilences && settings.urls.length ? new SilenceMirror(db, settings.urls, log, this.fetch) : null;
  }

  get enabled(): boolean {
    return this.settings.urls.length > 0;
  }

  start(): void {
    if (!this.enabled || this.running) return;
    this.running = true;
    // A new leader knows nothing of what was posted: everything goes out at once.
    this.posted.clear();
    this.lastFullMs = 0;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.abort?.abort();
    await this.current?.catch(() => undefined);
  }

  /** Look now (an alert changed); the next regular look follows `pollMs` later. */
  wake(): void {
    if (!this.running) return;
    if (this.current) {
      this.wakeAgain = true;
      return;
    }
    this.schedule(0);
  }

  status(): PushStatus {
    return {
      urls: this.settings.urls,
      running: this.running,
      lastPushAt: this.lastPushAt?.toISOString() ?? null,
      lastFullAt: this.lastFullAt?.toISOString() ?? null,
      instances: this.instances.map((i) => ({ ...i })),
      silences: this.mirror?.status() ?? null,
    };
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.current = this.tick()
        .then(() => undefined)
        .catch((error: unknown) => this.log.warn({ err: error }, 'Alertmanager push failed'))
        .finally(() => {
          this.current = null;
          if (!this.running) return;
          const again = this.wakeAgain;
          this.wakeAgain = false;
          this.schedule(again ? 0 : this.settings.pollMs);
        });
    }, ms);
    this.timer.unref?.();
  }

  /** One look: a full resend when one is due, else the alerts changed lately. Exposed for tests. */
  async tick(now = new Date()): Promise<{ posted: number; full: boolean }> {
    const full = now.getTime() - this.lastFullMs >= this.settings.resendS * 1000;
    const rows = full ? await this.openAndRecent(now) : await this.changedSince(new Date(now.getTime() - Math.max(OVERLAP_MS, this.settings.pollMs * 3)));
    const validUntil = new Date(now.getTime() + 4 * this.settings.resendS * 1000);
    const chosen: Row[] = [];
    for (const row of rows) {
      // Maintenance sends nothing: a firing alert is not posted (one posted before it expires in
      // Alertmanager at its endsAt); its resolution still is.
      if (row.status !== 'resolved' && row.in_maintenance) continue;
      if (!full && this.posted.get(row.id) === signature(row)) continue;
      chosen.push(row);
    }
    // Alertmanager knows an alert by its labels: a resolved alert must not overwrite an open one
    // with the same labels (the same condition fired again).
    const openKeys = new Set<string>();
    const alerts: PostableAlert[] = [];
    const postable = chosen.map((row) => ({ row, alert: toPostable(row, { publicUrl: this.settings.publicUrl, runbookUrl: this.settings.runbookUrl, validUntil }) }));
    for (const p of postable) if (p.row.status !== 'resolved') openKeys.add(labelKey(p.alert.labels));
    const sent: Row[] = [];
    for (const p of postable) {
      if (p.row.status === 'resolved' && openKeys.has(labelKey(p.alert.labels))) continue;
      alerts.push(p.alert);
      sent.push(p.row);
    }
    if (this.mirror) await this.mirror.sync(now, full).catch((error: unknown) => this.log.warn({ err: error }, 'Mirroring silences to Alertmanager failed'));
    if (full) {
      this.lastFullMs = now.getTime();
      this.lastFullAt = now;
    }
    if (!alerts.length) return { posted: 0, full };
    const accepted = await this.post(alerts);
    if (accepted) {
      if (full) this.posted.clear();
      for (const row of sent) this.posted.set(row.id, signature(row));
      this.lastPushAt = new Date();
    }
    return { posted: accepted ? alerts.length : 0, full };
  }

  /** Posts to every instance; true when at least one took them (the others get them at the next full resend). */
  private async post(alerts: PostableAlert[]): Promise<boolean> {
    this.abort = new AbortController();
    const signal = this.abort.signal;
    const results = await Promise.all(
      this.instances.map(async (instance) => {
        try {
          for (let i = 0; i < alerts.length; i += BATCH) {
            const res = await this.fetch(`${instance.url}/api/v2/alerts`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(alerts.slice(i, i + BATCH)),
              signal: AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]),
            });
            // Read to the end (the connection is reused); what it says is not repeated.
            await res.text();
            if (!res.ok) throw new Error(`HTTP ${res.status} (${statusMeaning(res.status)})`);
          }
          if (instance.ok === false) this.log.info({ url: instance.url }, 'Alertmanager takes alerts again');
          instance.ok = true;
          instance.lastOkAt = new Date().toISOString();
          instance.lastError = null;
          return true;
        } catch (error) {
          const message = refusalOf(error) ?? (error instanceof Error && error.cause ? `could not be reached: ${networkReason(error, TIMEOUT_MS)}` : error instanceof Error ? error.message : String(error));
          if (instance.ok !== false) this.log.warn({ url: instance.url, error: message }, 'Alertmanager did not take the alerts');
          instance.ok = false;
          instance.lastError = message;
          return false;
        }
      }),
    );
    return results.some(Boolean);
  }

  private async openAndRecent(now: Date): Promise<Row[]> {
    const since = new Date(now.getTime() - RESOLVED_KEEP_MS).toISOString();
    return this.select(sql`(a.status in ('firing', 'snoozed') or (a.status = 'resolved' and a.resolved_at > ${since}::timestamptz))`);
  }

  private async changedSince(since: Date): Promise<Row[]> {
    return this.select(sql`a.updated_at > ${since.toISOString()}::timestamptz`);
  }

  private async select(where: ReturnType<typeof sql>): Promise<Row[]> {
    const result = await this.db.execute<Row & { created_at: Date | string; resolved_at: Date | string | null; updated_at: Date | string }>(sql`
      select a.id, a.server_id, a.hostname, a.instance, a.alertname, a.description, a.summary, a.type, a.severity, a.status,
             a.service, a.mountpoint, a.created_at, a.resolved_at, a.updated_at,
             (coalesce(s.suppress_alarm, 'no') = 'yes' or a.mute = 'maintenance') as in_maintenance
      from alerts a left join servers s on s.id = a.server_id
      where a.source = 'opsdeck' and ${where}`);
    return result.rows.map((r) => ({ ...r, created_at: asDate(r.created_at)!, resolved_at: asDate(r.resolved_at), updated_at: asDate(r.updated_at)! }));
  }
}

const signature = (row: Row) => `${row.status}|${row.updated_at.getTime()}|${row.in_maintenance}`;
