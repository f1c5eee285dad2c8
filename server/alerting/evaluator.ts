import { appendSystemEvents, type SystemEvent } from '../audit/system-events';
import { sql, type SQL } from 'drizzle-orm';
import type { AlertingSettings } from '../config';
import type { Database, Db } from '../db/client';
import { executeCached } from '../db/cached-plans';
import { alerts } from '../db/schema';
import { expireAcks } from './acknowledge';
import { evaluateCheckRules } from './check-rules';
import { computeForecasts } from './forecasts';
import { recordFlaps } from './flaps';
import { Router } from './routing';
import { createDefaultRulesIfMissing } from './defaults';
import { describe, type DueCondition } from './describe';
import { chunked, recordTransitions, type Transition } from './lifecycle';
import { alwaysLeads, type WorkGate } from '../ops/leader';
import { OutageNotice } from '../ops/outage';
import { evaluationDuration, evaluationTicks } from '../ops/metrics';

export interface EvaluatorLogger {
  info: (obj: object, msg?: string) => void;
  warn: (obj: object, msg?: string) => void;
  error: (obj: object, msg?: string) => void;
}

export interface TickResult {
  fired: string[];
  resolved: string[];
  /** Snoozes whose duration ran out: back to firing. */
  unsnoozed: string[];
  /** Acknowledgements whose time ran out (issue 14). */
  ackExpired: string[];
  /** Notifications queued (transitions and what the router sent: firing, repeats, escalations …). */
  queued: number;
  pendingStarted: number;
  pendingCleared: number;
}

/**
 * The default-rules pass (ensureDefaults) runs before the loop's first tick and then between
 * ticks, every this many, two ticks apart from the housekeeping (VACUUM): in its own transaction,
 * never inside a tick.
 */
const DEFAULTS_EVERY_TICKS = 4;
/** Before the third of every four ticks; the housekeeping comes after the fourth. */
const DEFAULTS_PHASE = 2;
/** Forecasts read five-minute averages: recomputing them more often would change nothing. */
const FORECAST_EVERY_MS = 5 * 60_000;
/** Alert counts are compacted, and on PGlite the tables rewritten on every scrape and tick vacuumed, every this many ticks. */
const VACUUM_EVERY_TICKS = 4;
/** After a tick a scrape round triggered, the periodic fallback waits this many intervals. */
const ROUND_FALLBACK_FACTOR = 1.5;
/** The grace-period tick comes this much after the end it waits for (timers may fire a ms early). */
const GRACE_SLACK_MS = 5;

/**
 * Conditions that hold now, for every enabled rule of every active, agent-configured server that
 * is not in maintenance: one row per rule and subject ('' server-wide, '/' the root filesystem,
 * a service name), with the rule's grace period. Figures are trusted only from a server that is
 * up and only when fresh (a down server's last figures stay on its row); `> threshold` as
 * SPEC's "above 90". Only servers that are down or above the lowest enabled threshold of a
 * metric (three probes of alert_rules_enabled_metric_idx; SPEC's lowest choice, 60, let half of a
 * healthy fleet through), and only services that are down, reach the rules, which are read from
 * alert_rules_enabled_server_idx: a healthy fleet costs one pass over the servers.
 */
const holdingNow = (fresh: SQL) => sql`
  with candidates as materialized (
    select s.id, s.operating_system, s.state, s.cpu_usage, s.memory_usage, s.disk_usage
    from servers s
    where s.status = 'active' and s.is_agent_configured and s.suppress_alarm = 'no'
      and (s.state = 'down' or (s.state = 'up' and s.last_scraped_at >= ${fresh} and (
        s.cpu_usage > (select min(threshold) from alert_rules where enabled and metric = 'cpu')
        or s.memory_usage > (select min(threshold) from alert_rules where enabled and metric = 'memory')
        or s.disk_usage > (select min(threshold) from alert_rules where enabled and metric = 'disk'))))
  ), down_services as materialized (
    select sv.server_id, sv.service_name
    from services sv
    join servers s on s.id = sv.server_id
    where sv.status = 'down' and s.status = 'active' and s.is_agent_configured and s.suppress_alarm = 'no' and s.state = 'up'
      and s.last_scraped_at >= ${fresh}
  )
  select r.id as rule_id, r.server_id, r.time_limit,
         case when r.metric = 'disk' and s.operating_system = 'linux' then '/' else '' end as subject
  from candidates s
  join alert_rules r on r.server_id = s.id
  where r.enabled and case r.metric
          when 'cpu' then s.state = 'up' and s.cpu_usage > r.threshold
          when 'memory' then s.state = 'up' and s.memory_usage > r.threshold
          when 'disk' then s.state = 'up' and s.disk_usage > r.threshold
          when 'instance_down' then s.state = 'down'
          else false
        end
  union all
  select r.id, r.server_id, r.time_limit, d.service_name
  from down_services d
  join alert_rules r on r.server_id = d.server_id
  where r.enabled and r.metric = 'service_down'
  union all
  -- Forecast rules (issue 16): full within the rule's hours by the latest fresh forecast.
  select r.id, r.server_id, r.time_limit, ''
  from server_forecasts f
  join servers s on s.id = f.server_id
  join alert_rules r on r.server_id = f.server_id and r.metric = f.metric || '_forecast'
  where r.enabled and f.hours_left is not null and f.hours_left <= r.threshold and f.computed_at >= ${fresh}::timestamptz - ${FORECAST_FRESH}::interval
    and s.status = 'active' and s.is_agent_configured and s.suppress_alarm = 'no' and s.state = 'up' and s.last_scraped_at >= ${fresh}`;

/** A forecast older than this (plus the figures' staleness) neither opens nor resolves anything. */
const FORECAST_FRESH = '15 minutes';

/**
 * Checks every rule against the latest figures on each tick and moves alerts through their
 * states (docs/alerting.md). Every state lives in the database (open alerts, pending grace
 * periods), so a restart continues where the last tick left off. A tick is a handful of
 * set-wise statements in one transaction, whatever the number of servers.
 */
export class AlertEvaluator {
  private timer: NodeJS.Timeout | null = null;
  /** The tick at the moment the earliest grace period ends (pending state in alert_pending). */
  private graceTimer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  /** A trigger came while a tick ran: one more tick follows it (however many triggers came). */
  private again = false;
  /** A scrape round asked for a tick that has not run yet (trigger('round')). */
  private roundPending = false;
  private stopped = true;
  /** A database outage: logged once, and triggers wait for the back-off (OutageNotice). */
  private readonly outage: OutageNotice;
  private retryAt = 0;
  private ticks = 0;
  private lastForecastMs = 0;
  /**
   * Where forecasts come from when not the built-in store: Prometheus mode's predict_linear
   * (forecasts-promql.ts), set by the app. Its failures are logged, never a database outage.
   */
  forecaster: ((nowMs: number) => Promise<unknown>) | null = null;
  private sinceVacuum = 0;
  /** When the earliest grace period still running ends, as the last tick saw it (ms; null: none). */
  private nextDueMs: number | null = null;
  /**
   * Called after a tick that queued notifications (fired, resolved, unsnoozed), so the delivery
   * worker sends them now rather than on its next poll. Set by whoever wires the two (app.ts).
   */
  onQueued: (() => void) | null = null;
  /** Issue 14: who hears about each alert, and when; the routes sweep with it after their changes. */
  readonly router: Router;

  constructor(
    readonly database: Database,
    readonly settings: AlertingSettings,
    private readonly log: EvaluatorLogger,
    /** The clock; tests move it by hand. */
    private readonly now: () => number = Date.now,
    /**
     * Where ticks run: the app passes its LeaderGate (only the leader evaluates, fenced); code
     * that runs an evaluator on its own (tests, benchmarks) evaluates always.
     */
    private readonly gate: WorkGate = alwaysLeads(database),
  ) {
    this.router = new Router(log, database);
    this.outage = new OutageNotice(log, 'Alert evaluation', settings.evalIntervalS * 1000);
  }

  start(): void {
    if (!this.settings.enabled || !this.stopped) return;
    this.stopped = false;
    // Another process may have routed while this one did not lead: its first sweep reads every
    // open alert instead of trusting the silences and windows it held (routing.ts `scope`).
    this.router.reset();
    // The first tick waits one interval, so monitoring's first pass has refreshed the rows a
    // stop left behind (a host marked down an hour ago is not down for an hour).
    this.schedule(this.settings.evalIntervalS * 1000);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.timer = this.graceTimer = null;
    this.again = false;
    await this.running?.catch(() => {});
  }

  /**
   * Evaluate now (monitoring wrote a scrape round's figures): a threshold crossing is seen as
   * soon as it is written, not up to ALERT_EVAL_INTERVAL later. Coalesced: while a tick runs,
   * any number of triggers make one more tick after it, never two at once. Does nothing unless
   * the loop runs (start()), so tests that call tick() by hand are not disturbed.
   */
  trigger(source: 'round' | 'other' = 'other'): void {
    if (this.stopped) return;
    if (source === 'round') this.roundPending = true;
    // While the database is out, scrape rounds keep triggering: wait for the back-off instead.
    if (this.outage.failing && Date.now() < this.retryAt) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.runTick();
  }

  /** The periodic timer: a fallback when no scrape round triggers (monitoring off, a stuck collector). */
  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.running) this.again = true;
      else this.runTick();
    }, delayMs);
    this.timer.unref?.();
  }

  /** One tick from any source (timer, trigger, grace period); the only place the loop ticks. */
  private runTick(): void {
    this.again = false;
    // Servers that became agent-configured by a path that did not give them their rules (the demo
    // fleet, scripts, a failed request) get them here: before the first tick, then every few.
    const n = this.ticks++;
    const defaults = this.settings.autoDefaults && (n === 0 || n % DEFAULTS_EVERY_TICKS === DEFAULTS_PHASE);
    const afterRound = this.roundPending;
    this.roundPending = false;
    this.running = (defaults ? this.ensureDefaults().then(() => this.tick()) : this.tick())
      .then(async (r) => {
        if (r && (r.fired.length || r.resolved.length || r.unsnoozed.length)) {
          this.log.info({ fired: r.fired.length, resolved: r.resolved.length, unsnoozed: r.unsnoozed.length }, 'Alerts changed');
        }
        if (r?.queued) this.onQueued?.();
        if (++this.sinceVacuum >= VACUUM_EVERY_TICKS) {
          this.sinceVacuum = 0;
          await this.compactCounts();
          await this.vacuum();
        }
        // Disk and memory forecasts (issue 16): every few minutes, outside the tick's transaction;
        // the next ticks' forecast rules read what it wrote.
        if (r && this.now() - this.lastForecastMs >= FORECAST_EVERY_MS) {
          this.lastForecastMs = this.now();
          if (!this.forecaster) await computeForecasts(this.database, this.now());
          else await this.forecaster(this.now()).catch((err: unknown) => this.log.warn({ err }, 'Forecasts from Prometheus failed; the previous ones stay'));
        }
        this.outage.ok();
      })
      .catch((err) => {
        this.outage.failed(err);
        this.retryAt = Date.now() + this.outage.backoffMs();
      })
      .finally(() => {
        this.running = null;
        if (this.stopped) return;
        // Whatever ran this tick, the periodic one comes a full interval after it (or the
        // back-off, during a database outage). After a scrape round's tick the next round is
        // due about one interval later and ticks itself: the fallback waits half an interval
        // more, so it does not run moments before that round's tick (issue 17 §2: it did, for
        // about every other round, a tick that found nothing new).
        const intervalMs = this.settings.evalIntervalS * 1000 * (afterRound ? ROUND_FALLBACK_FACTOR : 1);
        this.schedule(Math.max(intervalMs, this.outage.failing ? this.outage.backoffMs() : 0));
        this.scheduleGrace();
        if (this.again && !this.outage.failing) this.runTick();
      });
  }

  /**
   * A tick at the moment the earliest running grace period ends, so an alert opens then and not
   * up to an interval later. A few ms late on purpose: the tick must see `since + grace <= now`.
   */
  private scheduleGrace(): void {
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = null;
    if (this.nextDueMs === null || this.stopped) return;
    const delay = Math.max(0, this.nextDueMs - this.now()) + GRACE_SLACK_MS;
    // Not further than the periodic tick: that one recomputes it anyway.
    if (delay > this.settings.evalIntervalS * 1000) return;
    this.graceTimer = setTimeout(() => {
      this.graceTimer = null;
      this.trigger();
    }, delay);
    this.graceTimer.unref?.();
  }

  /**
   * PGlite runs no autovacuum. Monitoring rewrites every server row on each scrape and the
   * evaluator rewrites grace periods on each tick, so without this the dead row versions pile
   * up: 1,000 servers scraped 60 times grew `servers` from 17 to 695 pages, and every tick's
   * pass over the fleet with it. Vacuumed once a minute they stay near 84 pages, for about 15–25
   * ms of CPU (bench/alert-tick.ts). PostgreSQL's autovacuum does this itself.
   */
  async vacuum(): Promise<void> {
    if (this.database.kind !== 'pglite') return;
    await this.database.query('vacuum (analyze) servers, services, alert_pending, alert_counts');
    // The grace-period statement reads rules from an index alone only where the visibility map
    // says a page holds no changed rows; rules change rarely, so this finds nothing to do mostly.
    await this.database.query('vacuum alert_rules');
  }

  /**
   * Folds the delta rows the alerts triggers add to alert_counts (migrations 0008, 0009) into
   * one row per hostname, status and search text, so the list's counts sum a few rows per
   * server. Safe beside
   * writers and another process doing the same: a delta committed meanwhile is not seen, so it
   * stays for the next time; rows are deleted and their sum inserted in one statement.
   */
  async compactCounts(): Promise<void> {
    await this.database.query(`
      with keys as (select hostname, status, search_lc from alert_counts group by 1, 2, 3 having count(*) > 1),
      gone as (
        delete from alert_counts c using keys k where c.hostname = k.hostname and c.status = k.status and c.search_lc = k.search_lc
        returning c.hostname, c.status, c.search_lc, c.n
      )
      insert into alert_counts (hostname, status, search_lc, n)
      select hostname, status, search_lc, sum(n) from gone group by 1, 2, 3 having sum(n) <> 0`);
  }

  /**
   * The default-rules safety net: every active, agent-configured server without an alert config
   * gets the default rules (the API and agent registration already create them when a server is
   * created or configured; docs/alerting.md). Its own transaction, on the leader only; the loop
   * runs it between ticks (runTick), not inside one: on PGlite it is an anti-join over the fleet,
   * 1.5–2.5 ms, which sat in every fourth tick. Returns how many servers got rules (null: not the
   * leader).
   */
  async ensureDefaults(): Promise<number | null> {
    const outcome = await this.gate.transaction((tx) => createDefaultRulesIfMissing(tx));
    return outcome.ran ? outcome.value.length : null;
  }

  /** One evaluation; null when another process evaluates (it holds the lock). */
  async tick(): Promise<TickResult | null> {
    const at = new Date(this.now());
    const started = performance.now();
    const outcome = await this.gate.transaction((tx) => this.evaluate(tx, at)).catch((error: unknown) => {
      evaluationTicks.inc({ outcome: 'error' });
      // The sweep remembered a set of silences and windows its rolled-back writes never applied.
      this.router.reset();
      throw error;
    });
    if (outcome.ran) {
      evaluationDuration.observe((performance.now() - started) / 1000);
      evaluationTicks.inc({ outcome: 'success' });
    }
    if (!outcome.ran) {
      this.nextDueMs = null;
      // Another process routes meanwhile: when this one leads again, it looks at every alert.
      this.router.reset();
    }
    return outcome.ran ? outcome.value : null;
  }

  private async evaluate(tx: Db, at: Date): Promise<TickResult> {
    const now = sql`${at.toISOString()}::timestamptz`;
    // Figures older than this say nothing (a stuck collector, the first tick after a long stop).
    const fresh = sql`${new Date(at.getTime() - this.settings.staleAfterS * 1000).toISOString()}::timestamptz`;
    const result: TickResult = { fired: [], resolved: [], unsnoozed: [], ackExpired: [], queued: 0, pendingStarted: 0, pendingCleared: 0 };
    const transitions: Transition[] = [];

    // 1. Open alerts whose condition is known not to hold any more resolve. A server that is not
    //    up (or not monitored) says nothing about CPU or services: those alerts stay as they are.
    //    Found first, then updated by id: as one UPDATE … FROM (subquery on alerts), the planner
    //    joined alerts with itself in a nested loop whenever its statistics were older than the
    //    open alerts (always so on PGlite, which never analyzes on its own): 30+ ms at a few
    //    hundred open alerts, growing with their square (bench/alert-tick.ts).
    //    The same statement says which of the tick's later statements can find anything (`work`):
    //    on PGlite each costs about a millisecond even when it finds nothing, so those that cannot
    //    are skipped. What this tick changes before them only takes work away (a resolution ends a
    //    snooze and an acknowledgement), so a "no" stays true.
    //    Not through a kept plan (server/db/cached-plans.ts): PostgreSQL's generic plan for it cost
    //    11.9 ms a tick against 7.3 ms planned each time (docs/benchmarks.md "npx tsx bench/alert-tick-statements.ts").
    const clearing = await tx.execute<{ id: string | null; reason: string; group_id: string | null; suppress_alarm: string; notified: boolean; muted: boolean; snoozes: boolean; acks: boolean; checks: boolean }>(sql`
      with work as (
        select exists (select 1 from alerts where status = 'snoozed' and snoozed_until <= ${now}) as snoozes,
               exists (select 1 from alerts where ack_until <= ${now}) as acks,
               exists (select 1 from check_rules where enabled) or exists (select 1 from check_pending)
                 or exists (select 1 from alerts where check_id is not null and status in ('firing', 'snoozed')) as checks
      )
      select w.snoozes, w.acks, w.checks, c.* from work w left join (
      select a.id, r.notification_group_id as group_id, s.suppress_alarm, a.notified_at is not null as notified, a.mute is not null as muted,
             case when r.id is null then 'The rule was removed.' when not r.enabled then 'The rule was disabled.' else 'The condition cleared.' end as reason
      from alerts a
      join servers s on s.id = a.server_id
      left join alert_rules r on r.id = a.rule_id
      where a.status in ('firing', 'snoozed') and a.source = 'opsdeck' and (
        r.id is null or not r.enabled or (
          s.status = 'active' and s.is_agent_configured and s.state = 'up' and s.last_scraped_at >= ${fresh} and case r.metric
            when 'instance_down' then true
            when 'cpu' then s.cpu_usage <= r.threshold
            when 'memory' then s.memory_usage <= r.threshold
            when 'disk' then s.disk_usage <= r.threshold
            -- The service is gone or up (looked up for service_down alerts alone, by services_server_name_idx).
            when 'service_down' then not exists (select 1 from services sv where sv.server_id = a.server_id and sv.service_name = a.subject and sv.status is distinct from 'up')
            when 'disk_forecast' then coalesce((select f.hours_left is null or f.hours_left > r.threshold from server_forecasts f where f.server_id = s.id and f.metric = 'disk'), true)
            when 'memory_forecast' then coalesce((select f.hours_left is null or f.hours_left > r.threshold from server_forecasts f where f.server_id = s.id and f.metric = 'memory'), true)
            else false
          end
        )
      )) c on true`);
    const work = clearing.rows[0] ?? { snoozes: true, acks: true, checks: true };
    const clears = clearing.rows.filter((r): r is typeof r & { id: string } => r.id !== null);
    const clearingById = new Map(clears.map((r) => [r.id, r]));
    const resolved = clears.length
      ? await executeCached<{ id: string }>(this.database, tx, sql`
          update alerts set status = 'resolved', resolved_at = ${now}, updated_at = ${now}, snoozed_until = null, next_action_at = null,
            ack_user_id = null, ack_username = null, ack_note = null, ack_at = null, ack_until = null
          where id = any(${sql.param(clears.map((r) => r.id))}::uuid[]) and status in ('firing', 'snoozed')
          returning id`)
      : { rows: [] as { id: string }[] };
    for (const { id } of resolved.rows) {
      const r = clearingById.get(id)!;
      result.resolved.push(r.id);
      // A resolution is sent to those who heard it fire: not for one never sent (muted, deferred)
      // nor while muted (silenced, in maintenance, flapping).
      transitions.push({ alertId: r.id, type: 'resolved', note: r.reason, notify: r.suppress_alarm === 'no' && r.notified && !r.muted, groupId: r.group_id, routed: true });
    }

    // 2. A snooze with a duration that ran out returns the alert to firing (notified unless
    //    someone acknowledged it meanwhile), and acknowledgements whose time ran out end.
    const unsnoozed = !work.snoozes
      ? { rows: [] as { id: string; group_id: string | null; suppress_alarm: string; acked: boolean }[] }
      : await tx.execute<{ id: string; group_id: string | null; suppress_alarm: string; acked: boolean }>(sql`
      update alerts a set status = 'firing', snoozed_until = null, updated_at = ${now}, notified_at = null, escalation_step = 0, next_action_at = ${now}
      where a.status = 'snoozed' and a.snoozed_until <= ${now}
      returning a.id, a.ack_at is not null as acked,
        coalesce((select r.notification_group_id from alert_rules r where r.id = a.rule_id),
                 (select cr.notification_group_id from check_rules cr where cr.id = a.check_rule_id)) as group_id,
        coalesce((select s.suppress_alarm from servers s where s.id = a.server_id), 'no') as suppress_alarm`);
    for (const r of unsnoozed.rows) {
      result.unsnoozed.push(r.id);
      transitions.push({ alertId: r.id, type: 'firing', note: 'The snooze ended and the condition still holds.', notify: r.suppress_alarm === 'no' && !r.acked, groupId: r.group_id, routed: true });
    }
    for (const t of work.acks ? await expireAcks(tx, at) : []) {
      result.ackExpired.push(t.alertId);
      transitions.push(t);
    }

    // Checks' website_alert rules (issue 16): the same states, in their own file.
    const checkOutcome = work.checks ? await evaluateCheckRules(tx, at) : { transitions: [], fired: [], resolved: [], nextDueMs: null };
    result.fired.push(...checkOutcome.fired);
    result.resolved.push(...checkOutcome.resolved);
    transitions.push(...checkOutcome.transitions);

    // 3. Grace periods: forget conditions that stopped holding (flapping opens nothing, and so
    //    does maintenance), start one for each new condition without an open alert, keep the rest.
    //    The same statement finds the grace periods that are over.
    // On PGlite through a named statement whose plan is kept (server/db/cached-plans.ts): its
    // planning was 1.6 ms quiet, and its generic plan is as good as the planned one.
    const pending = await executeCached<{ cleared: number; started: number; next_due: string | Date | null; due: [string, string][] | string }>(this.database, tx, sql`
      with t as (${holdingNow(fresh)}),
      cleared as (
        delete from alert_pending p
        where not exists (select 1 from t where t.rule_id = p.rule_id and t.subject = p.subject)
        returning 1
      ),
      started as (
        insert into alert_pending (rule_id, subject, server_id, since)
        select t.rule_id, t.subject, t.server_id, ${now} from t
        where not exists (select 1 from alert_pending p where p.rule_id = t.rule_id and p.subject = t.subject)
          and not exists (
          select 1 from alerts a
          where a.server_id = t.server_id and a.rule_id = t.rule_id and a.subject = t.subject and a.status in ('firing', 'snoozed')
        )
        on conflict (rule_id, subject) do nothing
        returning rule_id, subject
      )
      select (select count(*) from cleared)::int as cleared, (select count(*) from started)::int as started,
        -- When the earliest grace period left running ends (scheduleGrace): those kept, and those
        -- just started (not visible in alert_pending within this statement).
        least(
          (select min(p.since + make_interval(secs => t.time_limit)) from t join alert_pending p on p.rule_id = t.rule_id and p.subject = t.subject
           where p.since + make_interval(secs => t.time_limit) > ${now}),
          (select min(${now} + make_interval(secs => t.time_limit)) from started n join t on t.rule_id = n.rule_id and t.subject = n.subject)
        ) as next_due,
        coalesce((
          select json_agg(json_build_array(t.rule_id, t.subject))
          from t join alert_pending p on p.rule_id = t.rule_id and p.subject = t.subject
          where p.since + make_interval(secs => t.time_limit) <= ${now}
        ), '[]'::json) as due`);
    result.pendingCleared = Number(pending.rows[0]?.cleared ?? 0);
    result.pendingStarted = Number(pending.rows[0]?.started ?? 0);
    const nextDue = pending.rows[0]?.next_due;
    const serverDue = nextDue ? new Date(nextDue).getTime() : null;
    this.nextDueMs = serverDue === null ? checkOutcome.nextDueMs : checkOutcome.nextDueMs === null ? serverDue : Math.min(serverDue, checkOutcome.nextDueMs);

    // 4. Conditions that held for their whole grace period open an alert.
    const rawDue = pending.rows[0]?.due ?? [];
    const dueKeys: [string, string][] = typeof rawDue === 'string' ? JSON.parse(rawDue) : rawDue;
    if (!dueKeys.length) return this.finish(tx, at, transitions, result);
    // Their grace periods end here whether or not the alert opens (a reopened one wins the
    // conflict): deleted in the same statement that reads them (alert_pending's rule and server
    // cascade, so every row deleted joins).
    const due = await executeCached<DueCondition & Record<string, unknown>>(this.database, tx, sql`
      with p as (
        delete from alert_pending
        where (rule_id, subject) in (select * from unnest(${sql.param(dueKeys.map((k) => k[0]))}::uuid[], ${sql.param(dueKeys.map((k) => k[1]))}::text[]))
        returning rule_id, subject, server_id, since
      )
      select p.rule_id, p.subject, p.server_id, p.since, r.name, r.type, r.metric, r.threshold, r.time_limit, r.severity,
             r.notification_group_id, s.hostname, s.ipaddress, s.agent_port, s.operating_system, s.cpu_usage, s.memory_usage,
             s.disk_usage, s.last_error, s.suppress_alarm, f.hours_left as forecast_hours, f.full_at as forecast_full_at,
             f.slope_per_hour as forecast_slope, f.fitted_now as forecast_now
      from p
      join alert_rules r on r.id = p.rule_id
      join servers s on s.id = p.server_id
      left join server_forecasts f on f.server_id = p.server_id and r.metric in ('disk_forecast', 'memory_forecast') and f.metric = replace(r.metric, '_forecast', '')`);
    if (due.rows.length) {
      for (const part of chunked(due.rows, 500)) {
        const opened = await tx
          .insert(alerts)
          .values(
            part.map((c) => {
              const text = describe(c);
              return {
                serverId: c.server_id,
                ruleId: c.rule_id,
                subject: c.subject,
                hostname: c.hostname,
                instance: c.ipaddress,
                type: c.type,
                severity: c.severity,
                status: 'firing' as const,
                createdAt: at,
                updatedAt: at,
                // The router decides now, in this transaction, whether and to whom it is sent.
                nextActionAt: c.suppress_alarm === 'no' ? at : null,
                ...text,
              };
            }),
          )
          // Another open alert for the same rule and subject (a reopened one) wins; no duplicate.
          .onConflictDoNothing()
          .returning({ id: alerts.id, ruleId: alerts.ruleId, subject: alerts.subject });
        const byKey = new Map(part.map((c) => [`${c.rule_id}\u0000${c.subject}`, c]));
        for (const o of opened) {
          const c = byKey.get(`${o.ruleId}\u0000${o.subject}`)!;
          result.fired.push(o.id);
          transitions.push({ alertId: o.id, type: 'firing', note: null, notify: c.suppress_alarm === 'no', groupId: c.notification_group_id, routed: true });
        }
      }
    }

    return this.finish(tx, at, transitions, result);
  }

  /**
   * The end of every tick: flap bookkeeping (a resolution while flapping is not sent), the
   * timeline and outbox, then the router's sweep over what is due (issue 14).
   */
  private async finish(tx: Db, at: Date, transitions: Transition[], result: TickResult): Promise<TickResult> {
    const flapping = await recordFlaps(tx, at, transitions);
    for (const t of transitions) if (t.type === 'resolved' && flapping.has(t.alertId)) t.notify = false;
    result.queued += await recordTransitions(tx, at, transitions);
    // What the evaluator did is in History beside people's runs (issue 24 §4).
    await appendSystemEvents(
      tx,
      at,
      transitions.flatMap((t): SystemEvent[] => (t.type === 'firing' ? [{ alertId: t.alertId, command: 'alert.fired' as const }] : t.type === 'resolved' ? [{ alertId: t.alertId, command: 'alert.resolved' as const }] : [])),
    );
    result.queued += (await this.router.sweep(tx, at)).queued;
    return result;
  }
}
