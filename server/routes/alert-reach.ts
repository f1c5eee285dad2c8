import type { FastifyInstance } from 'fastify';
import { audited, auditTarget } from '../audit/trail';
import { alertReach, DEFAULT_GROUP_KEY, defaultGroup, setDefaultGroup } from '../alerting/reach';
import type { DeliverySettings } from '../config';
import { defaultGroupRequestSchema, type AlertReach, type DefaultGroupAnswer } from '../contract/reach';
import type { Database, Db } from '../db/client';
import { badRequest, fromZod } from '../http/errors';
import { requirePermission } from '../http/session';

/**
 * Issue 24 §6 "alerts reach someone": the dashboard's reach notice (GET /api/alerting/reach) and
 * the default group that new rules notify (server/alerting/reach.ts).
 */
export function registerAlertReach(app: FastifyInstance, database: Database, delivery: DeliverySettings): void {
  const db = database.db as Db;

  app.get('/api/alerting/reach', { preHandler: requirePermission('read') }, async () => {
    const result: AlertReach = await alertReach(db, delivery);
    return { result };
  });

  app.get('/api/settings/default-notification-group', { preHandler: requirePermission('read') }, async () => {
    const result: DefaultGroupAnswer = { group: await defaultGroup(db), assigned: { rules: 0, checkRules: 0 } };
    return { result };
  });

  app.patch('/api/settings/default-notification-group', { preHandler: requirePermission('rules.write') }, async (request) => {
    const parsed = defaultGroupRequestSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const { groupId } = parsed.data;
    const [group] = groupId ? await database.query<{ id: string; name: string }>('select id, name from notification_groups where id = $1', [groupId]) : [];
    if (groupId && !group) throw badRequest(`No notification group with id "${groupId}"`, 'groupId');
    auditTarget(request, { kind: 'setting', id: DEFAULT_GROUP_KEY, name: group ? `Default notification group: ${group.name}` : 'Default notification group' });
    const result = await audited(request, db, (tx) => setDefaultGroup(tx, groupId));
    return { result };
  });
}
