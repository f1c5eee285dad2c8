import type { FastifyInstance } from 'fastify';
import { audited } from '../audit/trail';
import { alertReach, defaultGroup, defaultGroupTarget, groupToDefault, setDefaultGroup } from '../alerting/reach';
import type { DeliverySettings } from '../config';
import { endpoints } from '../contract/api-routes';
import type { Database, Db } from '../db/client';
import { serve } from '../http/serve';

/**
 * Issue 24 §6 "alerts reach someone": the dashboard's reach notice (GET /api/alerting/reach) and
 * the default group that new rules notify (server/alerting/reach.ts).
 */
export function registerAlertReach(app: FastifyInstance, database: Database, delivery: DeliverySettings): void {
  const db = database.db as Db;

  serve(app, endpoints['reach.get'], async () => ({ result: await alertReach(db, delivery) }));

  serve(app, endpoints['reach.defaultGroup'], async () => ({ result: { group: await defaultGroup(db), assigned: { rules: 0, checkRules: 0 } } }));

  serve(app, endpoints['reach.setDefaultGroup'], async ({ body: { groupId }, request }) => {
    const group = await groupToDefault(db, groupId);
    const result = await audited(request, db, (tx, audit) => {
      audit.target(defaultGroupTarget(group));
      return setDefaultGroup(tx, groupId);
    });
    return { result };
  });
}
