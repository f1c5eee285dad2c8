import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { alerts } from '../db/schema';
import { conflict, notFound } from '../http/errors';
import { notifyContext, recordTransitions, type Transition } from './lifecycle';

/**
 * Acknowledgement (issue 14 §1, docs/alerting.md "Acknowledgement"): a person takes an open alert
 * on. The alert keeps its status (SPEC's filters keep their meaning); it gains an owner, a note
 * and an expiry, a timeline event, and an `acknowledged` outbox row for channels that keep an
 * incident state of their own (PagerDuty, issue 15). While acknowledged it is not re-notified or
 * escalated. Resolving clears it; so does its expiry (the evaluator's tick, `expireAcks`).
 */

type AlertRow = typeof alerts.$inferSelect;
export interface Actor {
  _id: string;
  username: string;
}

const utc = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The alert's rule group (a server's or a check's rule) and whether its server is in maintenance (SPEC's toggle sends nothing). */
async function routingContext(tx: Db, row: AlertRow): Promise<{ groupId: string | null; maintenance: boolean }> {
  const { groupId, suppressed } = await notifyContext(tx, row);
  return { groupId, maintenance: suppressed };
}

async function lockAlert(tx: Db, id: string): Promise<AlertRow> {
  const [row] = await tx.select().from(alerts).where(eq(alerts.id, id)).for('update');
  if (!row) throw notFound(`No alert with id "${id}"`);
  return row;
}

/**
 * Acknowledges one open alert for `user`, until it resolves or for `forSeconds`. Acknowledging
 * an alert someone else holds takes it over (the timeline says so); the same person again
 * changes the note or the expiry. `from` says where it came from when not the console (a
 * notification's link or button). Returns how many notifications were queued.
 */
export async function acknowledgeAlert(tx: Db, id: string, user: Actor, input: { note?: string; forSeconds?: number; from?: string }, at: Date): Promise<number> {
  const row = await lockAlert(tx, id);
  if (row.status === 'resolved') throw conflict('This alert is resolved; only Active or Snoozed alerts can be acknowledged', 'status');
  const until = input.forSeconds ? new Date(at.getTime() + input.forSeconds * 1000) : null;
  const note = input.note?.trim() || null;
  // The router looks again (in the caller's transaction): no more repeats or escalation, maybe a reminder later.
  await tx.update(alerts).set({ ackUserId: user._id, ackUsername: user.username, ackNote: note, ackAt: at, ackUntil: until, ackRemindedAt: null, updatedAt: at, nextActionAt: at }).where(eq(alerts.id, row.id));
  const { groupId, maintenance } = await routingContext(tx, row);
  const took = row.ackUsername && row.ackUsername !== user.username ? `Took over from ${row.ackUsername}. ` : '';
  // `from`: where it came from when not the console ("from an email link", issue 27 §4).
  const how = `${until ? `Acknowledged until ${utc(until)}` : 'Acknowledged until it resolves'}${input.from ? ` (${input.from})` : ''}.`;
  const transition: Transition = {
    alertId: row.id,
    type: 'acknowledged',
    note: [`${took}${how}`, note].filter(Boolean).join('\n\n'),
    user,
    // A channel with incidents of its own (PagerDuty) acknowledges there too; a re-acknowledgement
    // by the same person is not news to it.
    notify: !maintenance && row.ackUsername !== user.username,
    groupId,
  };
  return recordTransitions(tx, at, [transition]);
}

/** Drops the acknowledgement of one alert; a 409 when it has none. */
export async function unacknowledgeAlert(tx: Db, id: string, user: Actor, input: { note?: string }, at: Date): Promise<void> {
  const row = await lockAlert(tx, id);
  if (!row.ackAt) throw conflict('This alert is not acknowledged', 'acknowledgement');
  // Unowned again: the router resumes repeats and escalation (in the caller's transaction).
  await tx.update(alerts).set({ ...NO_ACK, updatedAt: at, nextActionAt: at }).where(eq(alerts.id, row.id));
  const note = input.note?.trim() || null;
  await recordTransitions(tx, at, [
    { alertId: row.id, type: 'unacknowledged', note: [`Released ${row.ackUsername === user.username ? 'their own' : `${row.ackUsername}'s`} acknowledgement.`, note].filter(Boolean).join('\n\n'), user, notify: false, groupId: null },
  ]);
}

/** The columns that clear an acknowledgement (on resolve, unack and expiry). */
export const NO_ACK = { ackUserId: null, ackUsername: null, ackNote: null, ackAt: null, ackUntil: null } as const;

/**
 * Acknowledgements whose time ran out end, with an `unacknowledged` event: the alert is
 * unowned again, so repeats and escalation resume. One statement over a partial index.
 */
export async function expireAcks(tx: Db, at: Date): Promise<Transition[]> {
  const now = sql`${at.toISOString()}::timestamptz`;
  const ended = await tx.execute<{ id: string; username: string | null }>(sql`
    update alerts a set ack_user_id = null, ack_username = null, ack_note = null, ack_at = null, ack_until = null, updated_at = ${now}, next_action_at = ${now}
    from (select id, ack_username from alerts where ack_until <= ${now} for update) old
    where a.id = old.id
    returning a.id, old.ack_username as username`);
  return ended.rows.map((r) => ({ alertId: r.id, type: 'unacknowledged' as const, note: r.username ? `${r.username}'s acknowledgement ran out.` : 'The acknowledgement ran out.', notify: false, groupId: null }));
}
