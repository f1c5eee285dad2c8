import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AlertmanagerPush } from '../alertmanager/push';
import { checkReceiverToken, createReceiverToken, integrationStatus, receiveWebhook, removeReceiverToken } from '../alertmanager/integration';
import { audited, auditActor } from '../audit/trail';
import { endpoints } from '../contract/api-routes';
import type { AlertmanagerSettings } from '../config';
import type { Db } from '../db/client';
import { bearer } from '../http/bearer';
import { serve } from '../http/serve';

/** The receiver's path: it carries its own credential (a bearer token), not a session. */
export const ALERTMANAGER_RECEIVER_PATH: string = endpoints['alertmanager.receive'].path;

/**
 * Issue 15 §2–3 (docs/alertmanager.md): Alertmanager's webhook, the integration's status, and the
 * receiver token an admin creates (shown once) or removes.
 */
export function registerIntegrations(app: FastifyInstance, db: Db, am: AlertmanagerSettings, push: AlertmanagerPush): void {
  // The token is checked before the payload is read: a caller without it learns nothing of the payload's form.
  const receiverToken = async (request: FastifyRequest) => {
    auditActor(request, { kind: 'system', userId: null, username: 'Alertmanager', role: null });
    await checkReceiverToken(db, am, bearer(request));
  };
  serve(app, endpoints['alertmanager.receive'], async ({ body, request }) => ({ result: await audited(request, db, (tx, audit) => receiveWebhook(tx, body, audit)) }), { before: ({ request }) => receiverToken(request) });

  serve(app, endpoints['alertmanager.status'], async () => ({ result: await integrationStatus(db, am, push) }));

  // The token is shown once; a new one replaces the old at once.
  serve(app, endpoints['alertmanager.createToken'], async ({ user, request }) => ({ result: await audited(request, db, (tx, audit) => createReceiverToken(tx, user, audit)) }));

  serve(app, endpoints['alertmanager.removeToken'], async ({ request }) => ({ result: await audited(request, db, (tx, audit) => removeReceiverToken(tx, audit)) }));
}
