import { randomUUID } from 'node:crypto';
import type { TimelineEventType } from '../contract/alerts';
import type { Db } from '../db/client';
import { alertEvents, alertOutbox } from '../db/schema';

/** One change of an alert: a timeline event, and an outbox row when it should be sent. */
export interface Transition {
  alertId: string;
  type: TimelineEventType;
  note: string | null;
  /** Who did it; null: the evaluator. */
  user?: { _id: string; username: string } | null;
  /**
   * Whether the delivery worker should send it: firing and resolved transitions, except on a
   * server in maintenance (SPEC: maintenance sends nothing) and except snoozes.
   */
  notify: boolean;
  /** The rule's notification group when the transition happened. */
  groupId: string | null;
}

export function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Writes the timeline events and outbox rows of some transitions. Call it in the transaction
 * that changed the alerts, so a change and its notification are written together or not at all.
 * Returns how many notifications it queued (the caller wakes the delivery worker for them).
 */
export async function recordTransitions(tx: Db, at: Date, transitions: readonly Transition[]): Promise<number> {
  if (!transitions.length) return 0;
  const events = transitions.map((t) => ({
    id: randomUUID(),
    alertId: t.alertId,
    type: t.type,
    at,
    note: t.note,
    userId: t.user?._id ?? null,
    username: t.user?.username ?? null,
  }));
  for (const part of chunked(events, 1000)) await tx.insert(alertEvents).values(part);
  const outbox = transitions.flatMap((t, i) =>
    t.notify && (t.type === 'firing' || t.type === 'resolved')
      ? [{ alertId: t.alertId, eventId: events[i]!.id, transition: t.type, notificationGroupId: t.groupId, createdAt: at }]
      : [],
  );
  for (const part of chunked(outbox, 1000)) await tx.insert(alertOutbox).values(part);
  return outbox.length;
}
