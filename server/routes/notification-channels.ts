import type { FastifyInstance, FastifyRequest } from 'fastify';
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
  type Group,
} from '../notification-groups/channels';

type Found = { group: Group; row: Awaited<ReturnType<typeof findGroupChannel>> | null };

/**
 * Issue 15 §1, §4: a group's channel targets (list, add, edit, remove), a test notification on
 * them, and an alert's delivery log. A change finds its group (and channel) before its body is
 * read: a missing one is a 404 whatever the body, and a refused change is recorded against the
 * group it tried to change.
 */
export function registerNotificationChannels(app: FastifyInstance, db: Db): void {
  const box = app.secretBox;
  const found = new WeakMap<FastifyRequest, Found>();
  const groupFirst = (withChannel: boolean) => async ({ params, request }: { params: { id: string; channel?: string }; request: FastifyRequest }) => {
    const { id, channel } = params;
    const group = await findGroup(db, id);
    auditTarget(request, groupTarget(group));
    found.set(request, { group, row: withChannel ? await findGroupChannel(db, group, channel ?? '') : null });
  };
  const of = (request: FastifyRequest): Found => found.get(request)!;

  serve(app, endpoints['channels.list'], async ({ params }) => ({ result: await groupChannels(db, box, params) }));

  serve(
    app,
    endpoints['channels.create'],
    async ({ body, request }) => {
      const { group } = of(request);
      await refuseEndpoints(app.outbound, body);
      return { result: await audited(request, db, (tx) => addChannel(tx, box, { group, config: body })) };
    },
    { before: groupFirst(false) },
  );

  serve(
    app,
    endpoints['channels.update'],
    async ({ body, request }) => {
      const { group, row } = of(request);
      const config = editedConfig(box, row!, body);
      await refuseEndpoints(app.outbound, config);
      return { result: await audited(request, db, (tx) => editChannel(tx, box, { group, row: row!, config })) };
    },
    { before: groupFirst(true) },
  );

  serve(
    app,
    endpoints['channels.remove'],
    async ({ request }) => {
      const { group, row } = of(request);
      return { result: await audited(request, db, (tx) => removeChannel(tx, box, { group, row: row! })) };
    },
    { before: groupFirst(true) },
  );

  // Sends first, records after: the sends may take seconds and must not hold a transaction open.
  serve(
    app,
    endpoints['notificationGroups.test'],
    async ({ body, request }) => {
      const { group } = of(request);
      await checkTestChannel(db, group, body.channel);
      const results = await app.delivery.sendTest(group, body.channel);
      await audited(request, db, async (_tx, audit) => recordTestOutcome(group, results, audit));
      return { result: results };
    },
    { before: groupFirst(false) },
  );

  serve(app, endpoints['alerts.deliveries'], async ({ params }) => ({ result: await alertDeliveryLog(db, params) }));
}
