import { inArray, or } from 'drizzle-orm';
import type { OutboxTransition } from '../contract/alerts';
import { can, type Role } from '../contract/permissions';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { PAGE_ACTION_TTL_S, type PageAction, type PageActionSigner, type PageActionVia } from './token';

/** The signed actions one notification carries for its person (issue 27 §4), as URLs that POST (or show a page that does). */
export interface PageLinks {
  ack?: string;
  resolve?: string;
}

/**
 * What a notification offers to do: an alert that is (still) firing can be acknowledged or
 * resolved; the reminder to an acknowledgement's owner only resolved (it is theirs already);
 * a resolution or an acknowledgement offers nothing.
 */
export function offeredActions(transition: OutboxTransition): PageAction[] {
  switch (transition) {
    case 'firing':
    case 'repeat':
    case 'escalation':
    case 'flapping':
      return ['ack', 'resolve'];
    case 'reminder':
      return ['resolve'];
    default:
      return [];
  }
}

export const pageActionUrl = (publicUrl: string, token: string) => `${publicUrl}/api/page-actions/${token}`;

/** Signs one notification's actions for one person, each working once until TTL from `now`. */
export function signLinks(signer: PageActionSigner, publicUrl: string, p: { alertId: string; userId: string; via: PageActionVia; transition: OutboxTransition; now: number }): PageLinks | null {
  const actions = offeredActions(p.transition);
  if (!actions.length) return null;
  const expiresAt = new Date(p.now + PAGE_ACTION_TTL_S * 1000);
  const links: PageLinks = {};
  for (const action of actions) links[action] = pageActionUrl(publicUrl, signer.sign({ alertId: p.alertId, userId: p.userId, action, via: p.via, expiresAt }));
  return links;
}

/**
 * Who among a notification's recipients is a person who may act on alerts (docs/decisions.md
 * "Who a page action is for"): the users it names (an escalation step's, an acknowledgement's
 * owner) and the addresses of its group's list that are an active user's email, each a user who
 * may triage alerts. By lower-cased address.
 */
export async function actionPeople(db: Db, userIds: readonly string[], addresses: readonly string[]): Promise<Map<string, string>> {
  const lower = [...new Set(addresses.map((a) => a.trim().toLowerCase()).filter(Boolean))];
  if (!userIds.length && !lower.length) return new Map();
  const conditions = [...(userIds.length ? [inArray(users.id, [...userIds])] : []), ...(lower.length ? [inArray(users.emailLc, lower)] : [])];
  const rows = await db.select({ id: users.id, email: users.email, role: users.role, status: users.status }).from(users).where(or(...conditions));
  const people = new Map<string, string>();
  for (const u of rows) if (u.status === 'active' && can(u.role as Role, 'alerts.triage')) people.set(u.email.toLowerCase(), u.id);
  return people;
}
