import { asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { Alert, AlertDetail, TimelineEvent, updateAlertSchema } from '../contract/alerts';
import type { AuditScope } from '../audit/trail';
import type { Db } from '../db/client';
import { alertEvents, alerts } from '../db/schema';
import { badRequest, conflict, notFound, pgCode } from '../http/errors';
import { acknowledgeAlert, NO_ACK, unacknowledgeAlert, type Actor } from './acknowledge';
import { alertToApi, type AlertRow } from './alert-list';
import { notifyContext, recordTransitions } from './lifecycle';
import type { Router } from './routing';
import { isUuid } from '../contract/ids';

/**
 * Alert triage (SPEC §2 alert drawer's Action tab, issue 14's acknowledgement): resolve, reopen,
 * snooze, note, acknowledge, release and delete one alert. The routes parse, authorize and audit
 * (each change runs in the audited transaction they pass in); the work and its rules live here.
 * Every change asks the router (issue 14) in the same transaction whether someone must hear of it;
 * the result says whether notifications were queued, so the caller wakes delivery at once.
 */

type EventRow = typeof alertEvents.$inferSelect;

/** How the audit trail names an alert: "alertname @ hostname", as it read at that moment. */
export const alertTarget = (row: { id: string; alertname: string; hostname: string }) => ({ kind: 'alert', id: row.id, name: `${row.alertname} @ ${row.hostname}` });

function eventToApi(row: EventRow): TimelineEvent {
  return {
    _id: row.id,
    type: row.type,
    timestamp: row.at.toISOString(),
    note: row.note,
    by: row.username ? { _id: row.userId, username: row.username } : null,
  };
}

export async function findAlert(db: Db, id: string): Promise<AlertRow> {
  const row = isUuid(id) ? (await db.select().from(alerts).where(eq(alerts.id, id)).limit(1))[0] : undefined;
  if (!row) throw notFound(`No alert with id "${id}"`);
  return row;
}

/** SPEC §7's alerts by id (`?id=…&id=…`, at most 100): ids that are not uuids match nothing. */
export async function alertsByIds(db: Db, input: { id?: string | string[] }): Promise<Alert[]> {
  const ids = [input.id ?? []].flat().filter((id) => isUuid(id));
  if (ids.length > 100) throw badRequest('At most 100 ids at a time', 'id');
  if (!ids.length) return [];
  return (await db.select().from(alerts).where(inArray(alerts.id, ids))).map(alertToApi);
}

/** Names the alert in the audit trail (as it reads before the change) and finds the record by its server too. */
async function auditAlert(tx: Db, id: string, audit: AuditScope): Promise<AlertRow> {
  const found = await findAlert(tx, id);
  audit.target(alertTarget(found));
  audit.related(found.serverId);
  return found;
}

/** One alert with its timeline (SPEC §2 Timeline tab). */
export async function alertDetail(db: Db, id: string): Promise<AlertDetail> {
  const row = await findAlert(db, id);
  const events = await db.select().from(alertEvents).where(eq(alertEvents.alertId, row.id)).orderBy(asc(alertEvents.at), asc(alertEvents.type));
  return { ...alertToApi(row), timeline: events.map(eventToApi) };
}

/**
 * Sets an alert's status with a note (SPEC §4: any of firing, resolved, snoozed). The same status
 * again (or a new snooze length) is a note on the timeline. Back to Active: the router decides
 * (an acknowledged alert is not sent: its owner is on it). Resolved: sent to those who heard it
 * fire, unless it is muted now; resolving also ends an acknowledgement and any pending action.
 * Returns whether notifications were queued.
 */
export async function setAlertStatus(tx: Db, router: Router, id: string, input: z.output<typeof updateAlertSchema>, user: Actor, at: Date): Promise<boolean> {
  try {
    return await changeStatus(tx, router, id, input, user, at);
  } catch (error) {
    // Reopening while the same rule already has an open alert (the partial unique index).
    if (pgCode(error) === '23505') throw conflict('This server (or check) already has an open alert for the same rule; resolve that one first', 'status');
    throw error;
  }
}

async function changeStatus(tx: Db, router: Router, id: string, input: z.output<typeof updateAlertSchema>, user: Actor, at: Date): Promise<boolean> {
  const [row] = await tx.select().from(alerts).where(eq(alerts.id, id)).for('update');
  if (!row) throw notFound(`No alert with id "${id}"`);
  const snoozedUntil = input.status === 'snoozed' && input.snoozeSeconds ? new Date(at.getTime() + input.snoozeSeconds * 1000) : null;
  const changed = input.status !== row.status;
  await tx
    .update(alerts)
    .set({
      status: input.status,
      updatedAt: at,
      snoozedUntil,
      resolvedAt: input.status === 'resolved' ? (changed ? at : row.resolvedAt) : null,
      // Resolving ends an acknowledgement (issue 14): a reopened alert is nobody's yet.
      ...(input.status === 'resolved' ? NO_ACK : {}),
    })
    .where(eq(alerts.id, row.id));
  const context = await notifyContext(tx, row);
  const type = changed || input.status === 'snoozed' ? input.status : 'playbook_action';
  const sent = await recordTransitions(tx, at, [
    {
      alertId: row.id,
      type,
      note: input.log,
      user: { _id: user._id, username: user.username },
      notify: changed && !context.suppressed && (input.status === 'firing' ? !row.ackAt : input.status === 'resolved' ? row.notifiedAt !== null && row.mute === null : false),
      groupId: context.groupId,
    },
  ]);
  if (input.status === 'resolved') await tx.update(alerts).set({ nextActionAt: null }).where(eq(alerts.id, row.id));
  const routed = await router.sweep(tx, at, [row.id]);
  return sent + routed.queued > 0;
}

/** Acknowledges ("I'm on it", issue 14): the status does not change. Returns whether notifications were queued. */
export async function acknowledge(tx: Db, router: Router, id: string, user: Actor, input: { note?: string; forSeconds?: number; from?: string }, at: Date): Promise<boolean> {
  const sent = await acknowledgeAlert(tx, id, user, input, at);
  return sent + (await router.sweep(tx, at, [id])).queued > 0;
}

/** Takes an acknowledgement back. Returns whether notifications were queued. */
export async function unacknowledge(tx: Db, router: Router, id: string, user: Actor, input: { note?: string }, at: Date): Promise<boolean> {
  await unacknowledgeAlert(tx, id, user, input, at);
  return (await router.sweep(tx, at, [id])).queued > 0;
}

/** Deletes an alert; its timeline and unsent notifications go by cascade. */
export async function deleteAlert(tx: Db, id: string): Promise<void> {
  const gone = await tx.delete(alerts).where(eq(alerts.id, id)).returning({ id: alerts.id });
  if (!gone.length) throw notFound(`No alert with id "${id}"`);
}

/** The triage calls as the API serves them: each names its alert in the audit trail and says whether notifications were queued. */
export async function changeAlertStatus(tx: Db, router: Router, input: { id: string } & z.output<typeof updateAlertSchema>, actor: Actor, audit: AuditScope): Promise<boolean> {
  const { id, ...change } = input;
  await auditAlert(tx, id, audit);
  return setAlertStatus(tx, router, id, change, actor, new Date());
}

export async function acknowledgeOne(tx: Db, router: Router, input: { id: string; note?: string; forSeconds?: number }, actor: Actor, audit: AuditScope): Promise<boolean> {
  const { id, ...ack } = input;
  await auditAlert(tx, id, audit);
  return acknowledge(tx, router, id, { _id: actor._id, username: actor.username }, ack, new Date());
}

export async function unacknowledgeOne(tx: Db, router: Router, input: { id: string; note?: string }, actor: Actor, audit: AuditScope): Promise<boolean> {
  const { id, ...release } = input;
  await auditAlert(tx, id, audit);
  return unacknowledge(tx, router, id, { _id: actor._id, username: actor.username }, release, new Date());
}

/** Deletes one alert, named in the audit trail as it read; answers its id. */
export async function removeAlert(tx: Db, input: { id: string }, audit: AuditScope): Promise<{ _id: string }> {
  const row = await auditAlert(tx, input.id, audit);
  await deleteAlert(tx, row.id);
  return { _id: row.id };
}
