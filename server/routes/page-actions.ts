import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AlertEvaluator } from '../alerting/evaluator';
import { alertLink } from '../alerting/delivery-messages';
import { audited, auditActor, auditCommand, auditRefusal, auditRelated, auditTarget } from '../audit/trail';
import { alertTarget } from '../alerting/triage';
import { endpoints } from '../contract/api-routes';
import type { Db } from '../db/client';
import { HttpError } from '../http/errors';
import { serve } from '../http/serve';
import { describeError } from '../channels/types';
import type { OutboundFetch } from '../outbound/http-client';
import { slackMember, slackPress, slackSignatureProblem } from '../page-actions/slack';
import { actionPage } from '../page-actions/page';
import { actionButton, actionCommandLine, alertName, findAlertRow, findPerson, PageActionRefusal, previewAction, runAction, tokenUser, verifyToken } from '../page-actions/service';
import type { PageActionClaims, PageActionSigner } from '../page-actions/token';

/** Every page action's path starts so: the app lets its POSTs through without a session or the cross-site header. */
export const PAGE_ACTIONS_PREFIX = '/api/page-actions/';
/** Slack's Request URL for interactivity; its POSTs carry Slack's signature, never a session. */
export const SLACK_INTERACTIONS_PATH = '/api/integrations/slack/interactions';

/**
 * A notification's acknowledge and resolve links (issue 27 §4). GET shows what the link would do
 * and a button; the button's POST (or an ntfy action's) does it. Both answer a page, refusals
 * included (403 forged, 410 expired, 409 used or not needed, 404 no such alert).
 */
export function registerPageActions(
  app: FastifyInstance,
  db: Db,
  evaluator: AlertEvaluator,
  signer: PageActionSigner,
  { publicUrl, slackSigningSecret, fetch }: { publicUrl: string; slackSigningSecret?: string; fetch: OutboundFetch },
): void {
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

  // Slack's interactivity (issue 27 §4): a press of a message's button, as the Slack member's Opsdeck user.
  app.register(async (scope) => {
    // The signature is over the raw body: kept as it came.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, body));

    serve(scope, endpoints['slack.interactions'], async ({ request, reply }) => {
      if (!slackSigningSecret) throw new HttpError(404, 'Slack interactivity is off: SLACK_SIGNING_SECRET is not set');
      const raw = typeof request.body === 'string' ? request.body : '';
      const problem = slackSignatureProblem(slackSigningSecret, request.headers, raw, Date.now());
      if (problem) throw new HttpError(401, `Not a request from Slack: ${problem}`);
      const press = slackPress(raw);
      // Not one of ours (the View alert button, another interaction): acknowledged, nothing to do.
      if (!press) return reply.status(200).send();
      const now = new Date();
      const claims: PageActionClaims = { id: '', alertId: press.alertId, userId: '', action: press.action, via: 'slack', expiresAt: new Date(now.getTime() + 60_000) };
      let said: string;
      try {
        claims.userId = await slackMember(db, press.memberId);
        await nameCaller(request, claims);
        const user = await tokenUser(db, claims);
        const done = await audited(request, db, (tx, audit) => runAction(tx, evaluator.router, claims, user, now, audit));
        if (done.queued) evaluator.onQueued?.();
        said = `${done.title}. ${done.detail}`;
      } catch (e) {
        if (!(e instanceof PageActionRefusal)) throw e;
        // Slack wants its 200 whatever happened; History still records the refusal, under the
        // person when the member is one, else under the member's id.
        if (!request.audit?.actor) {
          auditActor(request, { kind: 'anonymous', userId: null, username: `Slack member ${press.memberId}`, role: null });
          auditCommand(request, { ...actionCommandLine(claims), source: 'slack' });
        }
        await audited(request, db, async (_tx, audit) => audit.fail(e.message));
        said = `${e.title}. ${e.detail}`;
      }
      if (press.responseUrl) {
        try {
          await fetch(press.responseUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/json; charset=utf-8' },
            body: JSON.stringify({ response_type: 'ephemeral', replace_original: false, text: said }),
            signal: AbortSignal.timeout(5000),
          });
        } catch (err) {
          request.log.warn({ err: describeError(err) }, "Could not answer a Slack button press through its response_url");
        }
      }
      return reply.status(200).send();
    });
  });
}
