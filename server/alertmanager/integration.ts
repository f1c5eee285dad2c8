import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AuditScope } from '../audit/trail';
import type { AlertmanagerSettings } from '../config';
import type { AmReceiveResult, AmWebhook, IntegrationsStatus, ReceiverToken } from '../contract/alertmanager';
import type { Whoami } from '../contract/auth';
import type { Db } from '../db/client';
import { settings } from '../db/schema';
import { sameToken } from '../http/bearer';
import { HttpError, notFound } from '../http/errors';
import type { AlertmanagerPush } from './push';
import { receiveNotification } from './receive';

/**
 * Issue 15 §2–3 (docs/alertmanager.md). The receiver takes Alertmanager's webhook with
 * `Authorization: Bearer <token>`: the token is ALERTMANAGER_RECEIVER_TOKEN, or one an admin
 * created here (only its SHA-256 is kept, shown once), or either. Without both the receiver is off.
 */

const TOKEN_KEY = 'alertmanager.receiver_token';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const tokenTarget = { kind: 'setting', id: TOKEN_KEY, name: 'Alertmanager receiver token' };

interface StoredToken {
  hash: string;
  prefix: string;
  createdAt: string;
  createdBy: string;
}

async function storedToken(db: Db): Promise<StoredToken | null> {
  const [row] = await db.select().from(settings).where(eq(settings.key, TOKEN_KEY));
  return (row?.value as StoredToken | undefined) ?? null;
}

/** The receiver's credential: 404 while the receiver is off, 401 without a valid token. */
export async function checkReceiverToken(db: Db, am: AlertmanagerSettings, given: string | undefined): Promise<void> {
  const stored = await storedToken(db);
  if (!am.receiverToken && !stored) throw notFound('The Alertmanager receiver is off: set ALERTMANAGER_RECEIVER_TOKEN or create a receiver token (admin)');
  const ok = (am.receiverToken !== undefined && sameToken(given, am.receiverToken)) || (stored !== null && given !== undefined && sameToken(sha256(given), stored.hash));
  if (!ok) throw new HttpError(401, given ? 'This Alertmanager receiver token is not valid' : 'The Alertmanager receiver needs Authorization: Bearer <token>');
}

/** Alertmanager's alerts as Opsdeck alerts; the record names the first 20 it touched. */
export async function receiveWebhook(tx: Db, input: AmWebhook, audit: AuditScope): Promise<AmReceiveResult> {
  const r = await receiveNotification(tx, input, new Date());
  for (const id of r.alertIds.slice(0, 20)) audit.target({ kind: 'alert', id, name: 'Alertmanager alert' });
  return r;
}

export async function integrationStatus(db: Db, am: AlertmanagerSettings, push: AlertmanagerPush): Promise<IntegrationsStatus> {
  const stored = await storedToken(db);
  return {
    push: push.status(),
    receiver: {
      enabled: !!am.receiverToken || !!stored,
      fromEnvironment: !!am.receiverToken,
      token: stored ? { prefix: stored.prefix, createdAt: stored.createdAt, createdBy: stored.createdBy } : null,
    },
  };
}

/** A new receiver token, answered once; it replaces the previous one at once. */
export async function createReceiverToken(tx: Db, actor: Whoami, audit: AuditScope): Promise<ReceiverToken> {
  const token = `amr_${randomBytes(32).toString('base64url')}`;
  const value: StoredToken = { hash: sha256(token), prefix: token.slice(0, 8), createdAt: new Date().toISOString(), createdBy: actor.username };
  audit.target(tokenTarget);
  await tx
    .insert(settings)
    .values({ key: TOKEN_KEY, value, updatedAt: new Date() })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
  return { token, prefix: value.prefix, createdAt: value.createdAt };
}

export async function removeReceiverToken(tx: Db, audit: AuditScope): Promise<{ removed: true }> {
  audit.target(tokenTarget);
  const removed = await tx.delete(settings).where(eq(settings.key, TOKEN_KEY)).returning();
  if (!removed.length) throw notFound('There is no receiver token to remove');
  return { removed: true };
}
