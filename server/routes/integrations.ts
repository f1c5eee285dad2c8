import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AlertmanagerPush } from '../alertmanager/push';
import { receiveNotification } from '../alertmanager/receive';
import { audited, auditActor, auditTarget } from '../audit/trail';
import { amWebhookSchema } from '../contract/alertmanager';
import type { AlertmanagerSettings } from '../config';
import type { Db } from '../db/client';
import { settings } from '../db/schema';
import { bearer, sameToken } from '../http/bearer';
import { fromZod, HttpError, notFound } from '../http/errors';
import { requirePermission } from '../http/session';

/** The receiver's path: it carries its own credential (a bearer token), not a session. */
export const ALERTMANAGER_RECEIVER_PATH = '/api/integrations/alertmanager';
const TOKEN_KEY = 'alertmanager.receiver_token';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

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

/**
 * Issue 15 §2–3 (docs/alertmanager.md). The receiver takes Alertmanager's webhook with
 * `Authorization: Bearer <token>`: the token is ALERTMANAGER_RECEIVER_TOKEN, or one an admin
 * created here (only its SHA-256 is kept, shown once), or either. Without both the receiver is off.
 */
export function registerIntegrations(app: FastifyInstance, db: Db, am: AlertmanagerSettings, push: AlertmanagerPush): void {
  app.post(ALERTMANAGER_RECEIVER_PATH, async (request) => {
    auditActor(request, { kind: 'system', userId: null, username: 'Alertmanager', role: null });
    const given = bearer(request);
    const stored = await storedToken(db);
    if (!am.receiverToken && !stored) throw notFound('The Alertmanager receiver is off: set ALERTMANAGER_RECEIVER_TOKEN or create a receiver token (admin)');
    const ok = (am.receiverToken !== undefined && sameToken(given, am.receiverToken)) || (stored !== null && given !== undefined && sameToken(sha256(given), stored.hash));
    if (!ok) throw new HttpError(401, given ? 'This Alertmanager receiver token is not valid' : 'The Alertmanager receiver needs Authorization: Bearer <token>');
    const parsed = amWebhookSchema.safeParse(request.body);
    if (!parsed.success) throw fromZod(parsed.error);
    const result = await audited(request, db, async (tx, { target }) => {
      const r = await receiveNotification(tx, parsed.data, new Date());
      for (const id of r.alertIds.slice(0, 20)) target({ kind: 'alert', id, name: 'Alertmanager alert' });
      return r;
    });
    return { result };
  });

  app.get('/api/integrations/alertmanager', { preHandler: requirePermission('read') }, async () => {
    const stored = await storedToken(db);
    return {
      result: {
        push: push.status(),
        receiver: {
          enabled: !!am.receiverToken || !!stored,
          fromEnvironment: !!am.receiverToken,
          token: stored ? { prefix: stored.prefix, createdAt: stored.createdAt, createdBy: stored.createdBy } : null,
        },
      },
    };
  });

  // The token is shown once; a new one replaces the old at once.
  app.post('/api/integrations/alertmanager/token', { preHandler: requirePermission('settings.write') }, async (request) => {
    const token = `amr_${randomBytes(32).toString('base64url')}`;
    const value: StoredToken = { hash: sha256(token), prefix: token.slice(0, 8), createdAt: new Date().toISOString(), createdBy: request.user!.username };
    auditTarget(request, { kind: 'setting', id: TOKEN_KEY, name: 'Alertmanager receiver token' });
    await audited(request, db, async (tx) => {
      await tx
        .insert(settings)
        .values({ key: TOKEN_KEY, value, updatedAt: new Date() })
        .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
    });
    return { result: { token, prefix: value.prefix, createdAt: value.createdAt } };
  });

  app.delete('/api/integrations/alertmanager/token', { preHandler: requirePermission('settings.write') }, async (request) => {
    auditTarget(request, { kind: 'setting', id: TOKEN_KEY, name: 'Alertmanager receiver token' });
    await audited(request, db, async (tx) => {
      const removed = await tx.delete(settings).where(eq(settings.key, TOKEN_KEY)).returning();
      if (!removed.length) throw notFound('There is no receiver token to remove');
    });
    return { result: { removed: true } };
  });
}
