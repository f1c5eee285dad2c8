import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AlertEvaluator } from '../alerting/evaluator';
import { alertLink } from '../alerting/delivery-messages';
import { audited, auditActor, auditCommand, auditRefusal, auditRelated, auditTarget } from '../audit/trail';
import { alertTarget } from '../alerting/triage';
import { endpoints } from '../contract/api-routes';
import type { Db } from '../db/client';
import { serve } from '../http/serve';
import { actionPage } from '../page-actions/page';
import { actionButton, actionCommandLine, alertName, findAlertRow, findPerson, PageActionRefusal, previewAction, runAction, tokenUser, verifyToken } from '../page-actions/service';
import type { PageActionClaims, PageActionSigner } from '../page-actions/token';

/** Every page action's path starts so: the app lets its POSTs through without a session or the cross-site header. */
export const PAGE_ACTIONS_PREFIX = '/api/page-actions/';

/**
 * A notification's acknowledge and resolve links (issue 27 §4). GET shows what the link would do
 * and a button; the button's POST (or an ntfy action's) does it. Both answer a page, refusals
 * included (403 forged, 410 expired, 409 used or not needed, 404 no such alert).
 */
export function registerPageActions(app: FastifyInstance, db: Db, evaluator: AlertEvaluator, signer: PageActionSigner, publicUrl: string): void {
  const send = (reply: FastifyReply, status: number, html: string) =>
    reply.status(status).header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').header('x-robots-tag', 'noindex').type('text/html; charset=utf-8').send(html);
  const refused = (reply: FastifyReply, e: PageActionRefusal) => send(reply, e.statusCode, actionPage({ title: e.title, detail: e.detail, link: e.alertId ? alertLink(publicUrl, e.alertId) : null, tone: 'refused' }));

  /** History names the person a genuine token was made for, even when it is refused (expired, used). */
  const nameCaller = async (request: FastifyRequest, claims: PageActionClaims) => {
    const person = await findPerson(db, claims.userId);
    if (!person) return;
    auditActor(request, { kind: 'user', userId: person.id, username: person.username, role: person.role });
    auditCommand(request, { ...actionCommandLine(claims), source: claims.via });
    // A refused run is found by its alert too, named as it reads now.
    const alert = await findAlertRow(db, claims.alertId);
    if (alert) {
      auditTarget(request, alertTarget(alert));
      auditRelated(request, alert.serverId);
    }
  };

  app.register(async (scope) => {
    // The page's form posts form-encoded; an ntfy action may send any body. None of it is read.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) => done(null, {}));

    serve(scope, endpoints['pageActions.show'], async ({ params, reply }) => {
      try {
        const { claims, alert } = await previewAction(db, signer, params.token, new Date());
        const button = actionButton(claims.action);
        return send(reply, 200, actionPage({ title: `${button} ${alertName(alert)}?`, detail: `This ${claims.action === 'ack' ? 'acknowledges the alert: you are on it, and nobody else is paged for it' : 'resolves the alert'}. Press the button to go ahead.`, alert, button, link: alertLink(publicUrl, alert.id), tone: 'ask' }));
      } catch (e) {
        if (e instanceof PageActionRefusal) return refused(reply, e);
        throw e;
      }
    });

    serve(scope, endpoints['pageActions.run'], async ({ params, request, reply }) => {
      const now = new Date();
      const v = signer.verify(params.token, now.getTime());
      if (v.ok || v.reason === 'expired') await nameCaller(request, v.claims);
      try {
        const claims = verifyToken(signer, params.token, now);
        const user = await tokenUser(db, claims);
        const done = await audited(request, db, (tx, audit) => runAction(tx, evaluator.router, claims, user, now, audit));
        if (done.queued) evaluator.onQueued?.();
        return send(reply, 200, actionPage({ title: done.title, detail: done.detail, alert: done.alert, link: alertLink(publicUrl, done.alert.id), tone: 'done' }));
      } catch (e) {
        if (!(e instanceof PageActionRefusal)) throw e;
        auditRefusal(request, e.message);
        return refused(reply, e);
      }
    });
  });
}
