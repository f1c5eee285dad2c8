import { inArray } from 'drizzle-orm';
import { effectiveSteps } from '../contacts/rules';
import type { Db } from '../db/client';
import { alertOutbox, alertPages, users } from '../db/schema';
import { whoIsOnCall } from '../oncall/service';

/**
 * Paging people (issue 27 §3): an escalation step that targets schedules or named people plans,
 * for each person — whoever is on call in each schedule at that moment (server/oncall `who`), and
 * the people named — one page per step of their own notification rules, due that many minutes
 * later. The router (routing.ts) sends each when due while the alert fires unacknowledged and
 * unmuted, holds them while it is muted, and drops them all once it is acknowledged or fires anew;
 * the delivery worker sends a page to its one contact method and logs it on the alert.
 */

/** A page waiting in `alert_pages`, as the router reads it. */
export type PendingPage = {
  id: string;
  alert_id: string;
  user_id: string;
  contact_method_id: string;
  due_at: Date | string;
  step: number;
  reason: string;
};

export interface PlannedPages {
  pages: Omit<PendingPage, 'id'>[];
  /** Timeline notes: who is paged and how, or why nobody is. */
  notes: string[];
}

const when = (minutes: number) => (minutes === 0 ? 'at once' : `after ${minutes} min`);

/** The pages of one escalation step at instant `t` (ms); `minuteMs`: how long a rule's minute is. */
export async function planPages(tx: Db, input: { alertId: string; step: number; reason: string; scheduleIds: readonly string[]; userIds: readonly string[] }, t: number, minuteMs: number): Promise<PlannedPages> {
  const notes: string[] = [];
  const people: { id: string; via: string | null }[] = [];
  for (const id of input.scheduleIds) {
    const [on] = await whoIsOnCall(tx, { schedule: id }, t).catch(() => []);
    if (!on) notes.push(`Escalation step ${input.step}: the on-call schedule it pages no longer exists.`);
    else if (!on.person) notes.push(`Escalation step ${input.step}: nobody is on call in ${on.schedule.name}, so nobody from it is paged.`);
    else people.push({ id: on.person._id, via: on.schedule.name });
  }
  for (const id of input.userIds) people.push({ id, via: null });
  // One person reached once per step, whichever schedules and names led to them.
  const seen = new Set<string>();
  const unique = people.filter((p) => !seen.has(p.id) && seen.add(p.id));
  const names = new Map(unique.length ? (await tx.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, unique.map((p) => p.id)))).map((u) => [u.id, u.username]) : []);
  const pages: PlannedPages['pages'] = [];
  for (const person of unique) {
    const name = names.get(person.id);
    if (!name) continue;
    const { steps } = await effectiveSteps(tx, person.id);
    const via = person.via ? ` (on call in ${person.via})` : '';
    if (!steps.length) {
      notes.push(`Escalation step ${input.step}: ${name}${via} has no verified contact method, so is not paged.`);
      continue;
    }
    notes.push(`Escalation step ${input.step}: paging ${name}${via}: ${steps.map((s) => `${s.method.label} ${when(s.afterMinutes)}`).join(', ')}.`);
    for (const s of steps) pages.push({ alert_id: input.alertId, user_id: person.id, contact_method_id: s.method.id, due_at: new Date(t + s.afterMinutes * minuteMs).toISOString(), step: input.step, reason: `${input.reason} Paging ${name}${via}.` });
  }
  return { pages, notes };
}

export async function insertPages(tx: Db, pages: readonly Omit<PendingPage, 'id'>[]): Promise<void> {
  if (!pages.length) return;
  await tx.insert(alertPages).values(pages.map((p) => ({ alertId: p.alert_id, userId: p.user_id, contactMethodId: p.contact_method_id, dueAt: new Date(p.due_at), step: p.step, reason: p.reason })));
}

/** Pages due now, as outbox rows the delivery worker sends to their one contact method. */
export async function insertPageOutbox(tx: Db, at: Date, rows: readonly { alertId: string; userId: string; methodId: string; step: number; reason: string }[]): Promise<void> {
  if (!rows.length) return;
  await tx.insert(alertOutbox).values(rows.map((r) => ({ alertId: r.alertId, transition: 'escalation' as const, notificationGroupId: null, userIds: [r.userId], step: r.step, reason: r.reason, contactMethodId: r.methodId, createdAt: at })));
}
