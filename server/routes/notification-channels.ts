import type { FastifyInstance } from 'fastify';
import { audited, auditTarget } from '../audit/trail';
import { endpoints } from '../contract/api-routes';
import type { Db } from '../db/client';
import { serve } from '../http/serve';
import {
  addChannel,
  alertDeliveryLog,
  checkTestChannel,
  editChannel,
  editedConfig,
  findGroup,
  findGroupChannel,
  groupChannels,
  groupTarget,
  recordTestOutcome,
  refuseEndpoints,
  removeChannel,
} from '../notification-groups/channels';

/**
 * Issue 15 §1, §4: a group's channel targets (list, add, edit, remove), a test notification on
 * them, and an alert's delivery log. Every change names its group in the audit trail, also when
 * it is refused.
 */
export function registerNotificationChannels(app: FastifyInstance, db: Db): void {
  const box = app.secretBox;

  serve(app, endpoints['channels.list'], async ({ params }) => ({ result: await groupChannels(db, box, params) }));

  serve(app, endpoints['channels.create'], async ({ params, body, request }) => {
    const group = await findGroup(db, params.id);
    auditTarget(request, groupTarget(group));
    await refuseEndpoints(app.outbound, body);
    return { result: await audited(request, db, (tx) => addChannel(tx, box, { group, config: body })) };
  });

  serve(app, endpoints['channels.update'], async ({ params, body, request }) => {
    const group = await findGroup(db, params.id);
    auditTarget(request, groupTarget(group));
    const row = await findGroupChannel(db, group, params.channel);
    const config = editedConfig(box, row, body);
    await refuseEndpoints(app.outbound, config);
    return { result: await audited(request, db, (tx) => editChannel(tx, box, { group, row, config })) };
  });

  serve(app, endpoints['channels.remove'], async ({ params, request }) => {
    const group = await findGroup(db, params.id);
    auditTarget(request, groupTarget(group));
    const row = await findGroupChannel(db, group, params.channel);
    return { result: await audited(request, db, (tx) => removeChannel(tx, box, { group, row })) };
  });

  // Sends first, records after: the sends may take seconds and must not hold a transaction open.
  serve(app, endpoints['notificationGroups.test'], async ({ params, body, request }) => {
    const group = await findGroup(db, params.id);
    auditTarget(request, groupTarget(group));
    await checkTestChannel(db, group, body.channel);
    const results = await app.delivery.sendTest(group, body.channel);
    await audited(request, db, async (_tx, audit) => recordTestOutcome(group, results, audit));
    return { result: results };
  });

  serve(app, endpoints['alerts.deliveries'], async ({ params }) => ({ result: await alertDeliveryLog(db, params) }));
}
