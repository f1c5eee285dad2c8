import type { FastifyInstance } from 'fastify';
import { audited, auditTarget } from '../audit/trail';
import { addContactMethod, checkContactCode, contactTargets, findContactMethod, listContactMethods, recordContactTest, refuseContactEndpoints, removeContactMethod, sendContactTest, verifyContactMethod, type ContactDeps } from '../contacts/service';
import { addNotificationRule, listNotificationRules, removeNotificationRule } from '../contacts/rules';
import { endpoints } from '../contract/api-routes';
import type { Db } from '../db/client';
import { serve } from '../http/serve';

/**
 * People's contact methods (issue 27 §2, server/contacts/service.ts): list, add, remove, a test
 * message with a verification code, and entering the code. Sends and the outbound policy's
 * look at a new method's URLs happen outside the change's transaction; the writes inside it.
 */
export function registerContactMethods(app: FastifyInstance, db: Db): void {
  const deps = (): ContactDeps => ({ box: app.secretBox, channels: app.delivery.personalChannels });

  serve(app, endpoints['contactMethods.list'], async ({ params, user }) => {
    const data = await listContactMethods(db, { userId: params.id }, user, deps());
    return { result: { data, count: data.length } };
  });

  serve(app, endpoints['contactMethods.create'], async ({ params, body, user, request }) => {
    await refuseContactEndpoints(app.outbound, body, app.delivery.personalChannels);
    return { result: await audited(request, db, (tx, audit) => addContactMethod(tx, { userId: params.id, config: body }, user, audit, deps())) };
  });

  serve(app, endpoints['contactMethods.remove'], async ({ params, user, request }) => ({
    result: await audited(request, db, (tx, audit) => removeContactMethod(tx, { userId: params.id, method: params.method }, user, audit, deps())),
  }));

  // Sends first, records after: the send may take seconds and must not hold a transaction open.
  serve(app, endpoints['contactMethods.test'], async ({ params, user, request }) => {
    const sent = await sendContactTest(db, { userId: params.id, method: params.method }, user, deps(), (target, notice) => app.delivery.sendNotice(target, notice));
    return { result: await audited(request, db, (tx, audit) => recordContactTest(tx, sent, audit, deps())) };
  });

  serve(app, endpoints['contactMethods.verify'], async ({ params, body, user, request }) => {
    const found = await findContactMethod(db, { userId: params.id, method: params.method }, user);
    // Named before the code is checked: a refused code is recorded against the method it was for.
    auditTarget(request, ...contactTargets(found));
    await checkContactCode(db, { ...found, code: body.code });
    return { result: await audited(request, db, (tx, audit) => verifyContactMethod(tx, found, audit, deps())) };
  });

  serve(app, endpoints['notificationRules.list'], async ({ params, user }) => ({ result: await listNotificationRules(db, { userId: params.id }, user, deps()) }));

  serve(app, endpoints['notificationRules.create'], async ({ params, body, user, request }) => ({
    result: await audited(request, db, (tx, audit) => addNotificationRule(tx, { userId: params.id, ...body }, user, audit, deps())),
  }));

  serve(app, endpoints['notificationRules.remove'], async ({ params, user, request }) => ({
    result: await audited(request, db, (tx, audit) => removeNotificationRule(tx, { userId: params.id, rule: params.rule }, user, audit, deps())),
  }));
}
