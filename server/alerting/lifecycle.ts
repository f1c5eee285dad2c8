import { randomUUID } from 'node:crypto';
import { outboxTransitions, type OutboxTransition, type TimelineEventType } from '../contract/alerts';
import type { Db } from '../db/client';
import { eq, sql } from 'drizzle-orm';
import { alertEvents, alertOutbox, alertRules, checkRules, servers } from '../db/schema';

/** One change of an alert: a timeline event, and an outbox row when it should be sent. */
export interface Transition {
  alertId: string;
  type: TimelineEventType;
  note: string | null;
  /** Who did it; null: the evaluator. */
  user?: { _id: string; username: string } | null;
  /**
   * Whether it should be sent: resolved and acknowledged transitions go to the outbox at once;
   * a firing one is handed to the router (server/alerting/routing.ts), which decides whether and
   * when it is sent (silences, windows, host down, flapping, minimum interval). Never on a server
   * in maintenance (SPEC: maintenance sends nothing), never for snoozes.
   */
  notify: boolean;
  /** The rule's notification group when the transition happened. */
  groupId: string | null;
  /**
   * Routing already decided by the caller: a firing transition whose alert it marked for the
   * router (`next_action_at`), or a resolution it knows was notified and is not muted.
   */
  routed?: boolean;
}

const isOutboxTransition = (type: TimelineEventType): type is TimelineEventType & OutboxTransition => (outboxTransitions as readonly string[]).includes(type);

export function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** One timeline event, as insertEvents writes it. */
export interface EventRow {
  id: string;
  alertId: string;
  type: TimelineEventType;
  note: string | null;
  userId?: string | null;
  username?: string | null;
}

/** One outbox row, as insertOutbox writes it. */
export interface OutboxRow {
  alertId: string;
  eventId?: string | null;
  transition: OutboxTransition;
  groupId: string | null;
  userIds?: readonly string[];
  step?: number | null;
  reason?: string | null;
}

/*
 * The tick's timeline events and outbox rows are written with one statement over arrays, not a
 * multi-row VALUES: on PGlite a VALUES list is about ten bind parameters a row to serialize,
 * parse and plan, which made a tick that notified a few dozen alerts spend ~10 ms of CPU on one
 * insert. Below FEW rows the plain VALUES is cheaper (one row: 0.6–1.0 ms against 0.8–1.4), so
 * it is kept there (docs/benchmarks.md "npx tsx bench/outbox-insert.ts").
 */
const FEW = 4;
const iso = (at: Date) => sql`${at.toISOString()}::timestamptz`;

export async function insertEvents(tx: Db, at: Date, rows: readonly EventRow[]): Promise<void> {
  if (!rows.length) return;
  if (rows.length < FEW) {
    await tx.insert(alertEvents).values(rows.map((e) => ({ id: e.id, alertId: e.alertId, type: e.type, at, note: e.note, userId: e.userId ?? null, username: e.username ?? null })));
    return;
  }
  for (const part of chunked(rows, 5000)) {
    await tx.execute(sql`
      insert into alert_events (id, alert_id, type, at, note, user_id, username)
      select x.id, x.alert_id, x.type, ${iso(at)}, x.note, x.user_id, x.username
      from unnest(
        ${sql.param(part.map((e) => e.id))}::uuid[], ${sql.param(part.map((e) => e.alertId))}::uuid[], ${sql.param(part.map((e) => e.type))}::text[],
        ${sql.param(part.map((e) => e.note))}::text[], ${sql.param(part.map((e) => e.userId ?? null))}::uuid[], ${sql.param(part.map((e) => e.username ?? null))}::text[]
      ) as x(id, alert_id, type, note, user_id, username)`);
  }
}

export async function insertOutbox(tx: Db, at: Date, rows: readonly OutboxRow[]): Promise<void> {
  if (!rows.length) return;
  if (rows.length < FEW) {
    await tx.insert(alertOutbox).values(
      rows.map((o) => ({ alertId: o.alertId, eventId: o.eventId ?? null, transition: o.transition, notificationGroupId: o.groupId, userIds: [...(o.userIds ?? [])], step: o.step ?? null, reason: o.reason ?? null, createdAt: at })),
    );
    return;
  }
  for (const part of chunked(rows, 5000)) {
    await tx.execute(sql`
      insert into alert_outbox (alert_id, event_id, transition, notification_group_id, user_ids, step, reason, created_at)
      select x.alert_id, x.event_id, x.transition, x.group_id, coalesce(x.user_ids, '{}')::uuid[], x.step, x.reason, ${iso(at)}
      from unnest(
        ${sql.param(part.map((o) => o.alertId))}::uuid[], ${sql.param(part.map((o) => o.eventId ?? null))}::uuid[], ${sql.param(part.map((o) => o.transition))}::text[],
        ${sql.param(part.map((o) => o.groupId))}::uuid[], ${sql.param(part.map((o) => (o.userIds?.length ? `{${o.userIds.join(',')}}` : null)))}::text[],
        ${sql.param(part.map((o) => o.step ?? null))}::int[], ${sql.param(part.map((o) => o.reason ?? null))}::text[]
      ) as x(alert_id, event_id, transition, group_id, user_ids, step, reason)`);
  }
}

/**
 * Writes the timeline events and outbox rows of some transitions. Call it in the transaction
 * that changed the alerts, so a change and its notification are written together or not at all.
 * Returns how many notifications it queued or handed to the router (the caller sweeps and wakes
 * the delivery worker for them).
 */
export async function recordTransitions(tx: Db, at: Date, transitions: readonly Transition[]): Promise<number> {
  if (!transitions.length) return 0;
  // A resolution goes to those who heard the alert fire: not for one never sent (muted, held
  // back) nor while it is muted (silenced, in maintenance, flapping) — whoever resolved it.
  const unchecked = transitions.filter((t) => t.type === 'resolved' && t.notify && !t.routed).map((t) => t.alertId);
  const unheard = unchecked.length
    ? new Set((await tx.execute<{ id: string }>(sql`select id from alerts where id = any(${sql.param(unchecked)}::uuid[]) and (notified_at is null or mute is not null)`)).rows.map((r) => r.id))
    : new Set<string>();
  const events: EventRow[] = transitions.map((t) => ({
    id: randomUUID(),
    alertId: t.alertId,
    type: t.type,
    note: t.note,
    userId: t.user?._id ?? null,
    username: t.user?.username ?? null,
  }));
  await insertEvents(tx, at, events);
  const outbox: OutboxRow[] = transitions.flatMap((t, i) =>
    t.notify && t.type !== 'firing' && isOutboxTransition(t.type) && !(t.type === 'resolved' && unheard.has(t.alertId))
      ? [{ alertId: t.alertId, eventId: events[i]!.id, transition: t.type, groupId: t.groupId }]
      : [],
  );
  await insertOutbox(tx, at, outbox);
  // Firing: the router's next sweep (in this transaction, for the evaluator and the routes) decides.
  const toRoute = transitions.filter((t) => t.notify && t.type === 'firing' && !t.routed).map((t) => t.alertId);
  if (toRoute.length) {
    await tx.execute(sql`update alerts set next_action_at = ${at.toISOString()}::timestamptz, notified_at = null, escalation_step = 0 where id = any(${sql.param(toRoute)}::uuid[])`);
  }
  // A resolved alert needs the router no more; an instance_down alert that resolves has the
  // alerts suppressed under it looked at again (listed in its recovery message, or sent now).
  const resolved = transitions.filter((t) => t.type === 'resolved').map((t) => t.alertId);
  if (resolved.length) {
    await tx.execute(sql`
      update alerts set next_action_at = case when status = 'resolved' then null else ${at.toISOString()}::timestamptz end
      where id = any(${sql.param(resolved)}::uuid[]) or (host_down_alert_id = any(${sql.param(resolved)}::uuid[]) and status <> 'resolved')`);
  }
  return outbox.length + toRoute.length;
}

/**
 * Who an operator's change of an alert notifies: the group of its rule (a server rule or a check
 * rule) now, and whether its server is in maintenance (a check has no maintenance switch).
 */
export async function notifyContext(tx: Db, alert: { serverId: string | null; ruleId: string | null; checkRuleId: string | null }): Promise<{ groupId: string | null; suppressed: boolean }> {
  if (alert.serverId) {
    const [context] = await tx
      .select({ groupId: alertRules.notificationGroupId, suppressAlarm: servers.suppressAlarm })
      .from(servers)
      .leftJoin(alertRules, eq(alertRules.id, sql`${alert.ruleId}::uuid`))
      .where(eq(servers.id, alert.serverId));
    return { groupId: context?.groupId ?? null, suppressed: context?.suppressAlarm === 'yes' };
  }
  if (!alert.checkRuleId) return { groupId: null, suppressed: false };
  const [rule] = await tx.select({ groupId: checkRules.notificationGroupId }).from(checkRules).where(eq(checkRules.id, alert.checkRuleId));
  return { groupId: rule?.groupId ?? null, suppressed: false };
}
