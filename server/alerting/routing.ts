import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { EscalationStep, OutboxTransition } from '../contract/alerts';
import { formatDuration } from '../contract/duration';
import type { Matcher, MuteReason } from '../contract/routing';
import type { Database, Db } from '../db/client';
import { executeCached } from '../db/cached-plans';
import { chunked, insertEvents, insertOutbox } from './lifecycle';
import { insertPageOutbox, insertPages, planPages, type PendingPage } from './paging';
import { compileAll, type CompiledMatcher, type MatchFacts } from './matchers';
import { WindowSchedule } from './windows';

/**
 * The router (issue 14, docs/alerting.md "Routing"): who hears about an open alert, and when.
 *
 * Transitions into firing do not send anything themselves: they mark the alert for a look
 * (`next_action_at = now`). The router then, in the same transaction as the evaluator's tick (or
 * an operator's change), decides for each alert that is due:
 *
 * - **mute**: in a maintenance window, silenced, opened while its host is down, or flapping —
 *   it notifies nobody, says why, and the timeline records when that starts and ends;
 * - **firing**: a firing, unacknowledged, unmuted alert not yet notified is queued (unless its
 *   rule's minimum interval since the last notification of the same rule and subject defers it);
 * - **escalation and repeat**: the rule's group's steps after N seconds unacknowledged, and the
 *   repeat interval while firing and unacknowledged;
 * - **reminder**: the owner of an acknowledgement older than the group's setting hears again;
 * - and the next time the alert needs a look (`next_action_at`), or none.
 *
 * Silences and windows are loaded when they change (a version read each sweep) and held
 * compiled. When the set in force changes (one starts, ends, or is edited), only the open alerts
 * it can re-mute are checked: those muted by a silence or window that left the set (by `mute_ref`)
 * and those a silence or window that joined it can match (narrowed in SQL by its `=` matchers and
 * servers); every open alert is read only on a leader's first sweep. Anything that changes what a
 * matcher reads of one alert (its server's labels, a received alert's name or severity) marks that
 * alert due (`lookAgain`). A steady tick costs one statement that finds nothing due.
 */

export interface RoutingLogger {
  warn: (obj: object, msg?: string) => void;
}

interface LoadedSilence {
  id: string;
  /** When it was last edited: an edit is a leave and a join of the set in force. */
  version: string;
  matchers: Matcher[];
  startsAt: number;
  endsAt: number;
  createdBy: string;
  comment: string;
  match: CompiledMatcher;
}
interface LoadedWindow {
  id: string;
  version: string;
  matchers: Matcher[];
  name: string;
  serverIds: Set<string>;
  match: CompiledMatcher | null;
  schedule: WindowSchedule;
  /** Cached answer of "in force?" and until when it holds. */
  cache: { active: { end: Date } | null; until: number } | null;
}

/** One open alert as the router sees it. */
type Candidate = {
  id: string;
  server_id: string | null;
  rule_id: string | null;
  subject: string;
  hostname: string;
  alertname: string;
  type: string;
  severity: string;
  service: string | null;
  mountpoint: string | null;
  status: 'firing' | 'snoozed' | 'resolved';
  notified_at: Date | string | null;
  next_action_at: Date | string | null;
  mute: MuteReason | null;
  mute_ref: string | null;
  mute_label: string | null;
  host_down_alert_id: string | null;
  escalation_step: number;
  last_sent_at: Date | string | null;
  ack_at: Date | string | null;
  ack_user_id: string | null;
  ack_username: string | null;
  ack_reminded_at: Date | string | null;
  created_at: Date | string;
  labels: Record<string, string> | string | null;
  suppress_alarm: string;
  metric: string | null;
  group_id: string | null;
  suppress_on_host_down: boolean | null;
  min_notify_interval_seconds: number | null;
  flap_window_seconds: number | null;
  escalation_steps: EscalationStep[] | string | null;
  repeat_interval_seconds: number | null;
  ack_reminder_seconds: number | null;
  flapping_since: Date | string | null;
  last_transition: Date | string | null;
  down_id: string | null;
  down_hostname: string | null;
  ref_notified: boolean | null;
  key_last_sent: Date | string | null;
};

interface Queued {
  alertId: string;
  transition: OutboxTransition;
  groupId: string | null;
  userIds?: string[];
  step?: number;
  reason?: string;
}

export interface SweepResult {
  /** Open alerts whose fields were read to see whether the silences and windows now in force change their mute. */
  scanned: number;
  /** Whether that read took every open alert (a leader's first sweep), not just those a change of the set in force can re-mute. */
  full: boolean;
  looked: number;
  queued: number;
  /** Alerts whose mute started or ended. */
  muteChanged: number;
}

const ms = (d: Date | string | null | undefined) => (d ? new Date(d).getTime() : null);
const utc = (t: number) => `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const parseJson = <T>(v: T | string | null): T | null => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

/** "15m", "2h 30m", "1d": the two largest units, as notification texts read. */
export const shortDuration = (seconds: number): string => formatDuration(seconds, 2);

/**
 * What the router reads about each alert: its fields and its server's labels (matchers), its
 * rule's routing settings, its group's policy (a server rule's or a check rule's group), its flap
 * state, the server's open instance_down alert (host-down suppression), and for a minimum
 * interval the last notification of the same rule and subject. Alerts without a server (checks,
 * Opsdeck's own meta alerts) have no labels, no host and no maintenance switch.
 */
const CANDIDATES = sql`
  select a.id, a.server_id, a.rule_id, a.subject, a.hostname, a.alertname, a.type, a.severity, a.service, a.mountpoint, a.status,
    a.notified_at, a.mute, a.mute_ref, a.mute_label, a.host_down_alert_id, a.escalation_step, a.last_sent_at, a.next_action_at,
    a.ack_at, a.ack_user_id, a.ack_username, a.ack_reminded_at, a.created_at,
    coalesce(s.labels, '{}'::jsonb) as labels, coalesce(s.suppress_alarm, 'no') as suppress_alarm, r.metric,
    coalesce(r.notification_group_id, cr.notification_group_id) as group_id, r.suppress_on_host_down,
    r.min_notify_interval_seconds, r.flap_window_seconds,
    g.escalation_steps, g.repeat_interval_seconds, g.ack_reminder_seconds,
    f.flapping_since, (select max(x) from unnest(f.transitions) x) as last_transition,
    d.id as down_id, d.hostname as down_hostname,
    (select rn.notified_at is not null from alerts rn where rn.id = a.host_down_alert_id) as ref_notified,
    case when r.min_notify_interval_seconds is not null then (
      select max(o.last_sent_at) from alerts o where o.server_id = a.server_id and o.rule_id = a.rule_id and o.subject = a.subject and o.id <> a.id
    ) end as key_last_sent
  from alerts a
  left join servers s on s.id = a.server_id
  left join alert_rules r on r.id = a.rule_id
  left join check_rules cr on cr.id = a.check_rule_id
  left join notification_groups g on g.id = coalesce(r.notification_group_id, cr.notification_group_id)
  left join alert_flaps f on f.rule_id = a.rule_id and f.subject = a.subject
  left join lateral (
    select d.id, d.hostname from alerts d join alert_rules dr on dr.id = d.rule_id
    where a.server_id is not null and d.server_id = a.server_id and d.status <> 'resolved' and dr.metric = 'instance_down' and d.id <> a.id
      and coalesce(r.metric, '') <> 'instance_down' and coalesce(r.suppress_on_host_down, true)
    limit 1
  ) d on true`;

/**
 * When the silences or windows in force change, the open alerts they may mute or unmute: this
 * reads only what the matchers need (no locks, no joins beyond the server's labels), so the router
 * can take the few whose mute changes through CANDIDATES. Read with CANDIDATES for all 226 open
 * alerts of the tick bench, a full look took 300–400 ms on a loaded machine; reading all 226 here
 * and matching each against 250 silences and windows was still most of a tick that saw a change
 * (so `scope` narrows it to the alerts the change concerns).
 */
const FACTS = sql`
  select a.id, a.server_id, a.hostname, a.alertname, a.type, a.severity, a.service, a.mountpoint, a.mute, a.mute_ref, a.mute_label,
    coalesce(s.labels, '{}'::jsonb) as labels
  from alerts a left join servers s on s.id = a.server_id
  where a.status <> 'resolved'`;
type FactRow = Pick<Candidate, 'id' | 'server_id' | 'hostname' | 'alertname' | 'type' | 'severity' | 'service' | 'mountpoint' | 'mute' | 'mute_ref' | 'mute_label' | 'labels'>;

const factsOf = (c: FactRow): MatchFacts => ({ hostname: c.hostname, alertname: c.alertname, type: c.type, severity: c.severity, service: c.service, mountpoint: c.mountpoint, labels: parseJson(c.labels) ?? {} });

type Rules = ReturnType<Router['rulesAt']>;

/** Alert fields an `=` matcher can be checked against in SQL (as matchers.ts reads them: a missing one is ''). */
const COLUMNS: Record<string, SQL> = {
  hostname: sql`a.hostname`,
  alertname: sql`a.alertname`,
  type: sql`a.type`,
  severity: sql`a.severity`,
  service: sql`coalesce(a.service, '')`,
  mountpoint: sql`coalesce(a.mountpoint, '')`,
};

/**
 * A SQL condition every alert that `matchers` match also meets (a superset: only `=` matchers are
 * checked, regexes and `!=` are left to matchers.ts), or null when none can be checked in SQL.
 */
function narrow(matchers: readonly Matcher[]): SQL | null {
  const parts = matchers.flatMap((m) => {
    if (m.op !== '=') return [];
    if (m.name.startsWith('label.')) return [sql`coalesce(s.labels ->> ${m.name.slice(6)}::text, '') = ${m.value}::text`];
    const column = COLUMNS[m.name];
    return column ? [sql`${column} = ${m.value}::text`] : [];
  });
  return parts.length ? sql`(${sql.join(parts, sql` and `)})` : null;
}

/**
 * Alerts whose matcher facts changed (their server's labels; a received alert's name or
 * severity): the router's next sweep gives them a full look, which re-matches them against every
 * silence and window in force. Call in the transaction that changed them.
 */
export async function lookAgain(tx: Db, where: SQL, at: Date): Promise<void> {
  await tx.execute(sql`update alerts set next_action_at = least(next_action_at, ${at.toISOString()}::timestamptz) where status <> 'resolved' and ${where}`);
}

/** The window or silence that mutes an alert now (a window first), or null. */
function windowOrSilence(rules: Rules, serverId: string | null, facts: MatchFacts): { reason: 'maintenance' | 'silenced'; ref: string; label: string; enter: string; end: number } | null {
  const window = rules.windows.find(({ w }) => (serverId !== null && w.serverIds.has(serverId)) || (w.match !== null && w.match(facts)));
  if (window)
    return { reason: 'maintenance', ref: window.w.id, label: `In maintenance: ${window.w.name}`, enter: `In maintenance (window “${window.w.name}”, until ${utc(window.end.getTime())}): nobody is notified.`, end: window.end.getTime() };
  const silence = rules.silences.find((x) => x.match(facts));
  if (silence)
    return { reason: 'silenced', ref: silence.id, label: `Silenced by ${silence.createdBy}`, enter: `Silenced by ${silence.createdBy} until ${utc(silence.endsAt)} (“${silence.comment}”): nobody is notified.`, end: silence.endsAt };
  return null;
}

export class Router {
  private version: string | null = null;
  private silences: LoadedSilence[] = [];
  private windows: LoadedWindow[] = [];
  /**
   * The silences and windows in force at the last tick's sweep, by id with their version (null
   * before the first): every open alert's mute agrees with them, so a sweep checks only the
   * alerts a difference can concern.
   */
  private held: Map<string, string> | null = null;

  /** How long a minute of a person's notification rules is (tests shorten it). */
  pageMinuteMs = 60_000;

  constructor(
    private readonly log: RoutingLogger,
    /**
     * The database the sweeps' transactions belong to: on PGlite, the statements every sweep runs
     * with the same text keep their plans (server/db/cached-plans.ts). Without it, tx.execute.
     */
    private readonly database?: Database,
  ) {}

  private run<T extends Record<string, unknown>>(tx: Db, query: SQL): Promise<{ rows: T[] }> {
    if (this.database) return executeCached<T>(this.database, tx, query);
    return tx.execute(query).then((r) => ({ rows: r.rows as T[] }));
  }

  /** Forget what was loaded (a new leader, a restart): the next sweep reads every open alert. */
  reset(): void {
    this.version = null;
    this.held = null;
  }

  /**
   * One cheap statement every sweep: the silences' and windows' version, and the alerts due now
   * (a partial index). Reloads the silences and windows when their version changed.
   */
  private async look(tx: Db, at: Date): Promise<{ due: string[] }> {
    const now = sql`${at.toISOString()}::timestamptz`;
    const [row] = (
      await this.run<{ v: string; due: string[] | string | null }>(tx, sql`
        select (select count(*) || ':' || coalesce(max(updated_at)::text, '') from silences where ends_at > ${now} - interval '1 day')
          || '/' || (select count(*) || ':' || coalesce(max(updated_at)::text, '') from maintenance_windows) as v,
          array(select id from alerts where next_action_at <= ${now} limit 5000) as due`)
    ).rows;
    const due = typeof row?.due === 'string' ? row.due.replace(/[{}]/g, '').split(',').filter(Boolean) : (row?.due ?? []);
    if (row?.v === this.version) return { due };
    await this.load(tx, at);
    this.version = row?.v ?? '';
    return { due };
  }

  private async load(tx: Db, at: Date): Promise<void> {
    // In a fixed order (oldest first): when several match an alert, the first wins, so which one
    // mutes it must not depend on the order rows come back in after a reload.
    const silences = await tx.execute<{ id: string; matchers: Matcher[] | string; starts_at: string | Date; ends_at: string | Date; created_by_name: string; comment: string; updated_at: string | Date }>(
      sql`select id, matchers, starts_at, ends_at, created_by_name, comment, updated_at from silences where ends_at > ${at.toISOString()}::timestamptz order by created_at, id`,
    );
    const windows = await tx.execute<{ id: string; name: string; server_ids: string[] | string; matchers: Matcher[] | string; starts_at: string | Date; ends_at: string | Date; timezone: string; rrule: string | null; updated_at: string | Date }>(
      sql`select id, name, server_ids, matchers, starts_at, ends_at, timezone, rrule, updated_at from maintenance_windows order by created_at, id`,
    );
    this.silences = silences.rows.flatMap((s) => {
      try {
        const matchers = parseJson(s.matchers) ?? [];
        return [{ id: s.id, version: String(ms(s.updated_at)), matchers, startsAt: ms(s.starts_at)!, endsAt: ms(s.ends_at)!, createdBy: s.created_by_name, comment: s.comment, match: compileAll(matchers) }];
      } catch (err) {
        this.log.warn({ err, silenceId: s.id }, 'A silence could not be compiled; it is ignored');
        return [];
      }
    });
    this.windows = windows.rows.flatMap((w) => {
      try {
        const matchers = parseJson(w.matchers) ?? [];
        const ids = typeof w.server_ids === 'string' ? w.server_ids.replace(/[{}]/g, '').split(',').filter(Boolean) : w.server_ids;
        return [
          {
            id: w.id,
            version: String(ms(w.updated_at)),
            matchers,
            name: w.name,
            serverIds: new Set(ids),
            match: matchers.length ? compileAll(matchers) : null,
            schedule: new WindowSchedule({ startsAt: new Date(w.starts_at), endsAt: new Date(w.ends_at), timezone: w.timezone, rrule: w.rrule }),
            cache: null,
          },
        ];
      } catch (err) {
        this.log.warn({ err, windowId: w.id }, 'A maintenance window could not be read; it is ignored');
        return [];
      }
    });
  }

  private windowActive(w: LoadedWindow, at: Date): { end: Date } | null {
    const t = at.getTime();
    if (!w.cache || t >= w.cache.until) {
      const active = w.schedule.activeAt(at);
      const until = active ? active.end.getTime() : (w.schedule.nextBoundary(at)?.getTime() ?? Number.POSITIVE_INFINITY);
      w.cache = { active: active ? { end: active.end } : null, until };
    }
    return w.cache.active;
  }

  /** The silences and windows in force at `at`. */
  rulesAt(at: Date) {
    const t = at.getTime();
    const silences = this.silences.filter((s) => s.startsAt <= t && t < s.endsAt);
    const windows = this.windows.flatMap((w) => {
      const active = this.windowActive(w, at);
      return active ? [{ w, end: active.end }] : [];
    });
    return { silences, windows };
  }

  /**
   * Which open alerts a change of the silences and windows in force since the last tick's sweep
   * can re-mute (null: none, nothing changed), and remembers the set now in force. An alert's
   * mute is decided by the first window, else the first silence, that matches it: with the set
   * changed, it can differ only if what muted it left the set, or if one that joined matches it.
   */
  private scope(rules: Rules): { where: SQL; full: boolean } | null {
    const now = new Map<string, string>([...rules.windows.map(({ w }) => [w.id, w.version] as const), ...rules.silences.map((x) => [x.id, x.version] as const)]);
    const held = this.held;
    this.held = now;
    if (!held) return { where: sql`true`, full: true };
    const all = { where: sql`true`, full: true };
    const parts: SQL[] = [];
    const left = [...held].filter(([id, version]) => now.get(id) !== version).map(([id]) => id);
    if (left.length) parts.push(sql`(a.mute in ('maintenance', 'silenced') and a.mute_ref = any(${sql.param(left)}::uuid[]))`);
    for (const s of rules.silences) {
      if (held.get(s.id) === s.version) continue;
      const c = narrow(s.matchers);
      if (!c) return all;
      parts.push(c);
    }
    for (const { w } of rules.windows) {
      if (held.get(w.id) === w.version) continue;
      if (w.serverIds.size) parts.push(sql`a.server_id = any(${sql.param([...w.serverIds])}::uuid[])`);
      if (w.match) {
        const c = narrow(w.matchers);
        if (!c) return all;
        parts.push(c);
      }
    }
    return parts.length ? { where: sql`(${sql.join(parts, sql` or `)})`, full: false } : null;
  }

  /**
   * Looks at the alerts that are due and, when the silences or windows in force changed, at the
   * open alerts that change can re-mute (`scope`): mutes, queues what is to be sent and schedules
   * the next look. With `only`, looks at those alerts alone (an operator's change, answered at
   * once; the evaluator's tick does the rest). Call inside the transaction that changed the alerts.
   */
  async sweep(tx: Db, at: Date, only?: readonly string[]): Promise<SweepResult> {
    const { due } = await this.look(tx, at);
    const rules = this.rulesAt(at);
    let where;
    let scanned = 0;
    let full = false;
    if (only) where = sql`a.status <> 'resolved' and a.id = any(${sql.param([...only])}::uuid[])`;
    else {
      const scope = this.scope(rules);
      if (!scope && !due.length) return { scanned: 0, full: false, looked: 0, queued: 0, muteChanged: 0 };
      const ids = new Set(due);
      if (scope) {
        // Only alerts whose window or silence changes (or that are due) need the full look.
        const facts = (await tx.execute<FactRow>(sql`${FACTS} and ${scope.where}`)).rows;
        scanned = facts.length;
        full = scope.full;
        for (const f of facts) {
          const now = windowOrSilence(rules, f.server_id, factsOf(f));
          const held = f.mute === 'maintenance' || f.mute === 'silenced';
          if ((now?.ref ?? null) !== (held ? f.mute_ref : null) || (now?.label ?? null) !== (held ? f.mute_label : null)) ids.add(f.id);
        }
      }
      if (!ids.size) return { scanned, full, looked: 0, queued: 0, muteChanged: 0 };
      where = sql`a.status <> 'resolved' and a.id = any(${sql.param([...ids])}::uuid[])`;
    }
    const rows = (await this.run<Candidate>(tx, sql`${CANDIDATES} where ${where} for update of a`)).rows;
    const result: SweepResult = { scanned, full, looked: rows.length, queued: 0, muteChanged: 0 };
    if (!rows.length) return result;

    // Pages waiting for their time (issue 27 §3), by alert.
    const pending = new Map<string, PendingPage[]>();
    for (const p of (await this.run<PendingPage>(tx, sql`select id, alert_id, user_id, contact_method_id, due_at, step, reason from alert_pages where alert_id = any(${sql.param(rows.map((r) => r.id))}::uuid[]) order by due_at, id`)).rows) {
      pending.set(p.alert_id, [...(pending.get(p.alert_id) ?? []), p]);
    }
    const dropPages: string[] = [];
    const newPages: Omit<PendingPage, 'id'>[] = [];
    const pageOutbox: { alertId: string; userId: string; methodId: string; step: number; reason: string }[] = [];

    const updates: { id: string; mute: MuteReason | null; muteRef: string | null; muteLabel: string | null; hostDown: string | null; notifiedAt: number | null; lastSentAt: number | null; step: number; reminded: number | null; next: number | null }[] = [];
    const events: { alertId: string; note: string }[] = [];
    const queued: Queued[] = [];
    const t = at.getTime();

    for (const c of rows) {
      const facts = factsOf(c);
      let notifiedAt = ms(c.notified_at);
      let lastSentAt = ms(c.last_sent_at);
      let step = c.escalation_step;
      let reminded = ms(c.ack_reminded_at);
      let hostDown = c.host_down_alert_id;
      const nexts: number[] = [];

      // 1. Why it notifies nobody now, if it does not: a window, then a silence, then its host
      //    being down (only before it was ever sent), then flapping.
      let mute: { reason: MuteReason; ref: string | null; label: string; enter: string } | null = windowOrSilence(rules, c.server_id, facts);
      const flapEnd = c.flapping_since && c.flap_window_seconds ? ms(c.last_transition ?? c.flapping_since)! + c.flap_window_seconds * 1000 : null;
      if (mute) {
        // A window's or silence's end is caught by the "in force" key, not by next_action_at.
      } else if (c.down_id && (notifiedAt === null || c.mute === 'host_down')) {
        hostDown = c.down_id;
        mute = { reason: 'host_down', ref: c.down_id, label: 'Suppressed: host down', enter: `Suppressed: host down (instance_down is firing on ${c.down_hostname ?? c.hostname}): nobody is notified; the host's recovery message will list it.` };
      } else if (flapEnd !== null && flapEnd > t) {
        mute = { reason: 'flapping', ref: null, label: 'Flapping', enter: 'Flapping: notifications pause until it is stable.' };
        nexts.push(flapEnd);
      }
      const wasMuted = c.mute;
      if ((mute?.reason ?? null) !== wasMuted || (mute && mute.ref !== c.mute_ref)) {
        result.muteChanged++;
        if (mute) events.push({ alertId: c.id, note: mute.enter });
        else if (wasMuted) events.push({ alertId: c.id, note: leaveNote(wasMuted, c) });
      }

      // 2. What to send now. Snoozed and acknowledged alerts are not sent (snooze and "I'm on it").
      const firing = c.status === 'firing';
      const acked = c.ack_at !== null;
      let pages = pending.get(c.id) ?? [];
      // Acknowledged: every page still waiting is dropped at once (resolved alerts are never looked at again).
      if (acked && pages.length) {
        dropPages.push(...pages.map((p) => p.id));
        events.push({ alertId: c.id, note: `Paging stopped: acknowledged; ${pages.length} page${pages.length === 1 ? '' : 's'} not sent.` });
        pages = [];
      }
      if (firing && !acked && !mute && c.suppress_alarm === 'no') {
        if (notifiedAt === null) {
          if (wasMuted === 'host_down' && c.ref_notified) {
            // Listed in the host's recovery message ("still firing"): that was its notification.
            notifiedAt = lastSentAt = t;
            step = 0;
          } else {
            const minGap = c.min_notify_interval_seconds ? c.min_notify_interval_seconds * 1000 : 0;
            const lastOfKey = ms(c.key_last_sent);
            if (minGap && lastOfKey !== null && lastOfKey + minGap > t) {
              // Looked at once when it opens and once when the gap has passed: one note.
              nexts.push(lastOfKey + minGap);
              events.push({ alertId: c.id, note: `Held back: this rule sends at most one notification every ${shortDuration(c.min_notify_interval_seconds!)}; it goes out at ${utc(lastOfKey + minGap)} if still firing.` });
            } else {
              queued.push({ alertId: c.id, transition: 'firing', groupId: c.group_id });
              notifiedAt = lastSentAt = t;
              step = 0;
              // A new round of notifications: pages planned for an earlier firing are void.
              dropPages.push(...pages.map((p) => p.id));
              pages = [];
            }
          }
        }
        if (notifiedAt !== null) {
          // Escalation: steps in order, each after its time since the first notification.
          const steps = (parseJson(c.escalation_steps) ?? []).slice().sort((x, y) => x.afterSeconds - y.afterSeconds);
          while (step < steps.length && notifiedAt + steps[step]!.afterSeconds * 1000 <= t) {
            const s = steps[step]!;
            const reason = `Unacknowledged for ${shortDuration(s.afterSeconds)}: escalation step ${step + 1} of ${steps.length}.`;
            if (s.groupId || s.userIds.length) queued.push({ alertId: c.id, transition: 'escalation', groupId: s.groupId, userIds: s.userIds, step: step + 1, reason });
            if (s.scheduleIds?.length || s.pageUserIds?.length) {
              // Whoever is on call at this moment, and the people named, each by their own rules.
              const planned = await planPages(tx, { alertId: c.id, step: step + 1, reason, scheduleIds: s.scheduleIds ?? [], userIds: s.pageUserIds ?? [] }, t, this.pageMinuteMs);
              events.push(...planned.notes.map((note) => ({ alertId: c.id, note })));
              // Planned pages carry no id yet: those due now go out at once, the others are stored.
              pages = [...pages, ...planned.pages.map((p) => ({ ...p, id: '' }))];
              newPages.push(...planned.pages.filter((p) => ms(p.due_at)! > t));
            }
            step++;
          }
          // Pages whose time has come go out; the others are looked at when they are due.
          for (const p of pages) {
            const due = ms(p.due_at)!;
            if (due <= t) {
              pageOutbox.push({ alertId: c.id, userId: p.user_id, methodId: p.contact_method_id, step: p.step, reason: p.reason });
              if (p.id) dropPages.push(p.id);
            } else nexts.push(due);
          }
          if (step < steps.length) nexts.push(notifiedAt + steps[step]!.afterSeconds * 1000);
          if (c.repeat_interval_seconds) {
            const due = (lastSentAt ?? notifiedAt) + c.repeat_interval_seconds * 1000;
            if (due <= t) {
              queued.push({ alertId: c.id, transition: 'repeat', groupId: c.group_id, reason: `Still firing after ${shortDuration((t - ms(c.created_at)!) / 1000)}, and nobody has acknowledged it.` });
              lastSentAt = t;
              nexts.push(t + c.repeat_interval_seconds * 1000);
            } else nexts.push(due);
          }
        }
      }
      if (acked && c.status !== 'resolved' && c.ack_reminder_seconds && c.ack_user_id) {
        const due = (reminded ?? ms(c.ack_at)!) + c.ack_reminder_seconds * 1000;
        if (due <= t) {
          queued.push({ alertId: c.id, transition: 'reminder', groupId: null, userIds: [c.ack_user_id], reason: `You acknowledged it ${shortDuration((t - ms(c.ack_at)!) / 1000)} ago and it is still ${c.status === 'snoozed' ? 'snoozed' : 'firing'}.` });
          reminded = t;
          nexts.push(t + c.ack_reminder_seconds * 1000);
        } else nexts.push(due);
      }
      // A deferral or a window that ends: looked at again then (windows and silences also by the
      // "in force" key, which catches their ends whatever this says).
      const next = nexts.length ? Math.min(...nexts) : null;
      // A row whose routing state is as it was is not written (most of a full look).
      const same =
        (mute?.reason ?? null) === c.mute && (mute?.ref ?? null) === c.mute_ref && (mute?.label ?? null) === c.mute_label && hostDown === c.host_down_alert_id &&
        notifiedAt === ms(c.notified_at) && lastSentAt === ms(c.last_sent_at) && step === c.escalation_step && reminded === ms(c.ack_reminded_at) && next === ms(c.next_action_at);
      if (!same) updates.push({ id: c.id, mute: mute?.reason ?? null, muteRef: mute?.ref ?? null, muteLabel: mute?.label ?? null, hostDown, notifiedAt, lastSentAt, step, reminded, next });
    }

    for (const part of chunked(updates, 500)) {
      await this.run(tx, sql`
        update alerts a set mute = u.mute, mute_ref = u.mute_ref, mute_label = u.mute_label, host_down_alert_id = u.host_down,
          notified_at = u.notified_at, last_sent_at = u.last_sent_at, escalation_step = u.step, ack_reminded_at = u.reminded, next_action_at = u.next
        from (
          select * from unnest(
            ${sql.param(part.map((u) => u.id))}::uuid[], ${sql.param(part.map((u) => u.mute))}::text[], ${sql.param(part.map((u) => u.muteRef))}::uuid[],
            ${sql.param(part.map((u) => u.muteLabel))}::text[], ${sql.param(part.map((u) => u.hostDown))}::uuid[],
            ${sql.param(part.map((u) => (u.notifiedAt === null ? null : new Date(u.notifiedAt).toISOString())))}::timestamptz[],
            ${sql.param(part.map((u) => (u.lastSentAt === null ? null : new Date(u.lastSentAt).toISOString())))}::timestamptz[],
            ${sql.param(part.map((u) => u.step))}::int[],
            ${sql.param(part.map((u) => (u.reminded === null ? null : new Date(u.reminded).toISOString())))}::timestamptz[],
            ${sql.param(part.map((u) => (u.next === null ? null : new Date(u.next).toISOString())))}::timestamptz[]
          ) as x(id, mute, mute_ref, mute_label, host_down, notified_at, last_sent_at, step, reminded, next)
        ) u
        where a.id = u.id`);
    }
    await insertEvents(tx, at, events.map((e) => ({ id: randomUUID(), alertId: e.alertId, type: 'playbook_action' as const, note: e.note })));
    if (queued.length) await queueOutbox(tx, at, queued);
    if (dropPages.length) await this.run(tx, sql`delete from alert_pages where id = any(${sql.param(dropPages)}::uuid[])`);
    if (newPages.length) await insertPages(tx, newPages);
    if (pageOutbox.length) await insertPageOutbox(tx, at, pageOutbox);
    result.queued = queued.length + pageOutbox.length;
    return result;
  }
}

function leaveNote(reason: MuteReason, c: Candidate): string {
  const then = c.status === 'firing' && c.ack_at === null ? ' Notifying now if it still fires.' : '';
  switch (reason) {
    case 'maintenance':
      return `Out of maintenance (${c.mute_label?.replace(/^In maintenance: /, '“') ?? 'the window'}${c.mute_label ? '”' : ''} ended).${then}`;
    case 'silenced':
      return `No longer silenced (the silence ended or no longer matches).${then}`;
    case 'host_down':
      return c.ref_notified ? 'The host is back: its recovery message lists this alert.' : `The host is back.${then}`;
    case 'flapping':
      return `Stable again: no longer flapping.${then}`;
  }
}

/** Outbox rows the router queues (no timeline event of their own: the delivery log records them). */
export async function queueOutbox(tx: Db, at: Date, items: readonly Queued[]): Promise<void> {
  await insertOutbox(tx, at, items);
}
