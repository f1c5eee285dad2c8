import { eq, lt, sql } from 'drizzle-orm';
import type { AuditScope } from '../audit/trail';
import { pageSourceWords } from '../contract/command-history';
import { can, type Role } from '../contract/permissions';
import type { Db } from '../db/client';
import { alerts, pageActionUses, users } from '../db/schema';
import { HttpError } from '../http/errors';
import { acknowledge, alertTarget, setAlertStatus } from '../alerting/triage';
import type { Router } from '../alerting/routing';
import { PAGE_ACTION_TTL_S, type PageAction, type PageActionClaims, type PageActionSigner, type PageActionVia } from './token';

/**
 * Acting on an alert from the notification itself (issue 27 §4, docs/oncall.md "Acknowledge from
 * the page"): the signed token is the credential, for the person it was made for. What it runs is
 * what the console's `alert.ack` and `alert.resolve` run, as that person, recorded in History with
 * where it came from. A token that is forged, changed, expired or used already, or meets an alert
 * that no longer needs it, changes nothing and says why (a PageActionRefusal).
 */

type AlertRow = typeof alerts.$inferSelect;
type UserRow = typeof users.$inferSelect;

/** Where an action came from, as History and the alert's timeline say it. */
export const viaWords: Record<PageActionVia, string> = pageSourceWords;
const verbs: Record<PageAction, { button: string; done: string; past: string }> = {
  ack: { button: 'Acknowledge', done: 'Acknowledged', past: 'acknowledged' },
  resolve: { button: 'Resolve', done: 'Resolved', past: 'resolved' },
};
export const actionButton = (a: PageAction) => verbs[a].button;

/** A refused action: the status, a title and a sentence a person reads on the page (or in chat). */
export class PageActionRefusal extends HttpError {
  constructor(
    statusCode: number,
    readonly title: string,
    readonly detail: string,
    /** The alert it was about, when the token names one that exists: the page links to it. */
    readonly alertId: string | null = null,
  ) {
    super(statusCode, `${title}. ${detail}`);
  }
}

const utc = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
export const alertName = (a: Pick<AlertRow, 'alertname' | 'hostname'>) => `${a.alertname} on ${a.hostname}`;
const NOTHING = 'Nothing was changed.';

/** What a valid token's person may do, and the alert it names as it is now. */
export interface CheckedAction {
  claims: PageActionClaims;
  user: Pick<UserRow, 'id' | 'username' | 'role'>;
  alert: AlertRow;
}

/** The token's own checks: signature, expiry and the person; `user` is set when the signature held (History names them). */
export function verifyToken(signer: PageActionSigner, token: string, now: Date): PageActionClaims {
  const v = signer.verify(token, now.getTime());
  if (!v.ok && v.reason === 'invalid') throw new PageActionRefusal(403, 'This link is not valid', `It was not made by this Opsdeck, or it was changed on the way. ${NOTHING} Open the alert in Opsdeck instead.`);
  if (!v.ok) throw new PageActionRefusal(410, 'This link has expired', `Links in notifications work for ${PAGE_ACTION_TTL_S / 3600} hours; this one ended at ${utc(v.claims.expiresAt)}. ${NOTHING} Open the alert in Opsdeck instead.`, v.claims.alertId);
  return v.claims;
}

/** A token's person as they are now, whatever their status (History names them). */
export async function findPerson(db: Db, id: string) {
  const [user] = await db.select({ id: users.id, username: users.username, role: users.role, status: users.status }).from(users).where(eq(users.id, id));
  return user ?? null;
}

/** The person a verified token is for, when they may still act; else a refusal. */
export async function tokenUser(db: Db, claims: PageActionClaims): Promise<CheckedAction['user']> {
  const user = await findPerson(db, claims.userId);
  if (!user || user.status !== 'active' || !can(user.role as Role, 'alerts.triage')) {
    throw new PageActionRefusal(403, 'This link is not valid', `The person it was sent to can no longer act on alerts in Opsdeck. ${NOTHING}`, claims.alertId);
  }
  return { id: user.id, username: user.username, role: user.role };
}

async function usedAt(db: Db, claims: PageActionClaims): Promise<Date | null> {
  const [row] = await db.select({ usedAt: pageActionUses.usedAt }).from(pageActionUses).where(eq(pageActionUses.tokenId, claims.id));
  return row?.usedAt ?? null;
}

const usedRefusal = (claims: PageActionClaims, at: Date) =>
  new PageActionRefusal(409, 'This link was already used', `It ${verbs[claims.action].past} the alert at ${utc(at)}; a link works once. ${NOTHING}`, claims.alertId);

/** Whether the alert still needs the action, for `user`; a refusal that says what it is now when it does not. */
function checkState(claims: PageActionClaims, user: CheckedAction['user'], alert: AlertRow): void {
  if (alert.status === 'resolved') {
    throw new PageActionRefusal(409, 'This alert is already resolved', `${alertName(alert)} was resolved${alert.resolvedAt ? ` at ${utc(alert.resolvedAt)}` : ''}. ${NOTHING}`, alert.id);
  }
  if (claims.action === 'ack' && alert.ackUserId) {
    const when = alert.ackAt ? ` at ${utc(alert.ackAt)}` : '';
    if (alert.ackUserId === user.id) throw new PageActionRefusal(409, 'You already acknowledged this alert', `You acknowledged ${alertName(alert)}${when}. ${NOTHING}`, alert.id);
    // Taking over someone's acknowledgement is a choice made in the console, where one sees who holds it.
    throw new PageActionRefusal(409, 'This alert is already acknowledged', `${alert.ackUsername} acknowledged ${alertName(alert)}${when}. ${NOTHING} To take it over, open it in Opsdeck.`, alert.id);
  }
}

/** The alert a token names, or null (History names a refused run by it). */
export async function findAlertRow(db: Db, id: string): Promise<AlertRow | null> {
  const [alert] = await db.select().from(alerts).where(eq(alerts.id, id));
  return alert ?? null;
}

async function findAlert(db: Db, claims: PageActionClaims, lock = false): Promise<AlertRow> {
  const query = db.select().from(alerts).where(eq(alerts.id, claims.alertId));
  const [alert] = lock ? await query.for('update') : await query;
  if (!alert) throw new PageActionRefusal(404, 'This alert no longer exists', `It was deleted, or removed after it resolved. ${NOTHING}`);
  return alert;
}

/**
 * What the link's page shows before anything is done (GET: mail scanners open links): the action
 * it would take, or why it would not. Changes nothing.
 */
export async function previewAction(db: Db, signer: PageActionSigner, token: string, now: Date): Promise<CheckedAction> {
  const claims = verifyToken(signer, token, now);
  const user = await tokenUser(db, claims);
  const used = await usedAt(db, claims);
  if (used) throw usedRefusal(claims, used);
  const alert = await findAlert(db, claims);
  checkState(claims, user, alert);
  return { claims, user, alert };
}

/** The command line History keeps for an action: the console's own command, re-runnable. */
export function actionCommandLine(claims: PageActionClaims): { command: string; commandLine: string; note: string } {
  const note = `${verbs[claims.action].done} ${viaWords[claims.via]}.`;
  return claims.action === 'ack'
    ? { command: 'alert.ack', commandLine: `alert.ack ${claims.alertId}`, note }
    : { command: 'alert.resolve', commandLine: `alert.resolve ${claims.alertId} --note "${note}"`, note };
}

/**
 * Runs the action in the caller's audited transaction, as the token's person (already checked by
 * verifyToken and tokenUser). The token is marked used first: a second request with it waits on
 * that row and is then refused as used; a refusal after it rolls the mark back with everything
 * else, so a link that met an alert already resolved is not spent. Returns whether notifications
 * were queued, and the alert as it is now.
 */
export async function runAction(
  tx: Db,
  router: Router,
  claims: PageActionClaims,
  user: CheckedAction['user'],
  now: Date,
  audit: AuditScope,
): Promise<{ queued: boolean; alert: AlertRow; title: string; detail: string }> {
  // A signed link works once; a Slack or Telegram button press is its provider's signed request, made once per press.
  if (claims.id) {
    const marked = await tx
      .insert(pageActionUses)
      .values({ tokenId: claims.id, alertId: claims.alertId, userId: claims.userId, action: claims.action, via: claims.via, usedAt: now, expiresAt: claims.expiresAt })
      .onConflictDoNothing()
      .returning({ id: pageActionUses.tokenId });
    if (!marked.length) throw usedRefusal(claims, (await usedAt(tx, claims)) ?? now);
  }
  const alert = await findAlert(tx, claims, true);
  audit.target(alertTarget(alert));
  audit.related(alert.serverId);
  checkState(claims, user, alert);
  const actor = { _id: user.id, username: user.username };
  const { note } = actionCommandLine(claims);
  const queued =
    claims.action === 'ack' ? await acknowledge(tx, router, alert.id, actor, { from: viaWords[claims.via] }, now) : await setAlertStatus(tx, router, alert.id, { status: 'resolved', log: note }, actor, now);
  // Uses whose tokens ended more than a day ago: an expired token is refused by its expiry alone.
  if (claims.id) await tx.delete(pageActionUses).where(lt(pageActionUses.expiresAt, sql`${new Date(now.getTime() - 86_400_000).toISOString()}::timestamptz`));
  const [after] = await tx.select().from(alerts).where(eq(alerts.id, alert.id));
  return { queued, alert: after!, title: `${verbs[claims.action].done}: ${alertName(alert)}`, detail: `${note.replace(/\.$/, '')}, as ${user.username}. It is in History under your name.` };
}
