import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { audited, auditRelated, auditTarget } from '../audit/trail';
import { channelToApi, findChannel, insertChannel, listChannels, mergeChannelUpdate, openChannel, updateChannel } from '../channels/store';
import { channelInputSchema, channelUpdateSchema, MAX_CHANNELS_PER_GROUP, testGroupSchema, type ChannelConfig, type DeliveryLogEntry } from '../contract/channels';
import { pluginFor } from '../channels/index';
import type { Db } from '../db/client';
import { alertDeliveries, alerts, notificationChannels, notificationGroups } from '../db/schema';
import { badRequest, conflict, fromZod, notFound, pgCode } from '../http/errors';
import { requirePermission } from '../http/session';
import { groupTarget } from './notification-groups';
import { isUuid } from '../contract/ids';

async function findGroup(db: Db, id: string) {
  const [group] = isUuid(id) ? await db.select().from(notificationGroups).where(eq(notificationGroups.id, id)) : [];
  if (!group) throw notFound(`No notification group with id "${id}"`);
  return group;
}

/**
 * Issue 15 §1, §4: a group's channel targets (list, add, remove), a test notification on them,
 * and an alert's delivery log. Secrets come in whole and go out masked.
 */
export function registerNotificationChannels(app: FastifyInstance, db: Db): void {
  const box = app.secretBox;

  /** The outbound policy on the URLs the target's owner chose: a 400 naming the field (they are decided again at each send). */
  async function refuseEndpoints(config: ChannelConfig): Promise<void> {
    for (const { field, url } of pluginFor(config.type).endpoints(config as never)) {
      const refused = await app.outbound.urlRefusal(url, 'channel');
      if (refused) throw badRequest(`${field}: ${refused}`, field);
    }
  }

  app.get<{ Params: { id: string } }>('/api/notification-groups/:id/channels', { preHandler: requirePermission('read') }, async (request) => {
    const group = await findGroup(db, request.params.id);
    return { result: (await listChannels(db, group.id)).map((row) => channelToApi(box, row)) };
  });

  app.post<{ Params: { id: string } }>('/api/notification-groups/:id/channels', { preHandler: requirePermission('groups.write') }, async (request, reply) => {
    const group = await findGroup(db, request.params.id);
    auditTarget(request, groupTarget(group));
    const parsed = channelInputSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const config = parsed.data;
    await refuseEndpoints(config);
    try {
      const row = await audited(request, db, async (tx) => {
        const existing = await listChannels(tx as unknown as Db, group.id);
        if (existing.length >= MAX_CHANNELS_PER_GROUP) throw badRequest(`A notification group has at most ${MAX_CHANNELS_PER_GROUP} channels`, 'type');
        if (existing.some((c) => c.name.toLowerCase() === config.name.toLowerCase())) throw conflict(`This group already has a channel named "${config.name}"`, 'name');
        return insertChannel(tx as unknown as Db, box, group.id, config);
      });
      reply.status(201);
      return { result: channelToApi(box, row) };
    } catch (error) {
      if (pgCode(error) === '23505') throw conflict(`This group already has a channel named "${config.name}"`, 'name');
      throw error;
    }
  });

  // Edit in place (issue 15): the type stays; secrets left out or empty are kept (they are never shown to be sent back).
  app.patch<{ Params: { id: string; channel: string } }>('/api/notification-groups/:id/channels/:channel', { preHandler: requirePermission('groups.write') }, async (request) => {
    const group = await findGroup(db, request.params.id);
    auditTarget(request, groupTarget(group));
    const row = await findChannel(db, group.id, request.params.channel);
    if (!row) throw notFound(`Notification group "${group.name}" has no channel "${request.params.channel}"`);
    const update = channelUpdateSchema.safeParse(request.body ?? {});
    if (!update.success) throw fromZod(update.error);
    const opened = openChannel(box, row);
    // Unreadable secrets (another key) cannot be merged: every secret must be given again.
    const base = opened.target ?? { type: row.type, name: row.name, settings: row.settings, secrets: {} };
    const parsed = channelInputSchema.safeParse(mergeChannelUpdate(base, update.data));
    if (!parsed.success) throw fromZod(parsed.error);
    const config = parsed.data;
    await refuseEndpoints(config);
    try {
      const updated = await audited(request, db, async (tx) => {
        const others = (await listChannels(tx as unknown as Db, group.id)).filter((c) => c.id !== row.id);
        if (others.some((c) => c.name.toLowerCase() === config.name.toLowerCase())) throw conflict(`This group already has a channel named "${config.name}"`, 'name');
        return updateChannel(tx as unknown as Db, box, row, config);
      });
      return { result: channelToApi(box, updated) };
    } catch (error) {
      if (pgCode(error) === '23505') throw conflict(`This group already has a channel named "${config.name}"`, 'name');
      throw error;
    }
  });

  app.delete<{ Params: { id: string; channel: string } }>('/api/notification-groups/:id/channels/:channel', { preHandler: requirePermission('groups.write') }, async (request) => {
    const group = await findGroup(db, request.params.id);
    auditTarget(request, groupTarget(group));
    const row = await findChannel(db, group.id, request.params.channel);
    if (!row) throw notFound(`Notification group "${group.name}" has no channel "${request.params.channel}"`);
    await audited(request, db, async (tx) => {
      await tx.delete(notificationChannels).where(and(eq(notificationChannels.id, row.id), eq(notificationChannels.groupId, group.id)));
    });
    return { result: channelToApi(box, row) };
  });

  // Sends first, records after: the sends may take seconds and must not hold a transaction open.
  app.post<{ Params: { id: string } }>('/api/notification-groups/:id/test', { preHandler: requirePermission('groups.write') }, async (request) => {
    const group = await findGroup(db, request.params.id);
    auditTarget(request, groupTarget(group));
    const parsed = testGroupSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const ref = parsed.data.channel;
    if (ref && !['email', 'slack'].includes(ref.toLowerCase()) && !(await findChannel(db, group.id, ref))) throw notFound(`Notification group "${group.name}" has no channel "${ref}"`);
    const results = await app.delivery.sendTest(group, ref);
    // The answer lists every channel's outcome (200); the history records the run as failed when
    // any channel did not take the message, with the reasons (already redacted of secrets).
    const failed = results.filter((r) => !r.ok);
    await audited(request, db, async (_tx, scope) => {
      if (!results.length) scope.fail(`Notification group "${group.name}" has no channel to test`);
      else if (failed.length) scope.fail(`${failed.length} of ${results.length} channel${results.length === 1 ? '' : 's'} failed the test: ${failed.map((r) => `${r.name}: ${r.error ?? 'failed'}`).join('; ')}`);
    });
    return { result: results };
  });

  app.get<{ Params: { id: string } }>('/api/alerts/:id/deliveries', { preHandler: requirePermission('read') }, async (request) => {
    const [alert] = isUuid(request.params.id) ? await db.select({ id: alerts.id }).from(alerts).where(eq(alerts.id, request.params.id)) : [];
    if (!alert) throw notFound(`No alert with id "${request.params.id}"`);
    const rows = await db
      .select({ d: alertDeliveries, name: notificationChannels.name })
      .from(alertDeliveries)
      .leftJoin(notificationChannels, eq(notificationChannels.id, alertDeliveries.channelId))
      .where(eq(alertDeliveries.alertId, alert.id))
      .orderBy(asc(alertDeliveries.at), asc(alertDeliveries.id))
      .limit(1000);
    return {
      result: rows.map(
        ({ d, name }): DeliveryLogEntry => ({
          _id: d.id,
          at: d.at.toISOString(),
          transition: d.transition,
          channel: d.channel,
          channelName: name,
          target: d.target,
          attempt: d.attempt,
          outcome: d.outcome,
          responseCode: d.responseCode,
          error: d.error,
          retryAt: d.retryAt?.toISOString() ?? null,
          message: d.message ? { subject: d.message.subject ?? null, text: d.message.text } : null,
        }),
      ),
    };
  });
}
