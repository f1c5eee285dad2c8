import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { audited, auditTarget } from '../audit/trail';
import { META_ALERT_GROUPS_KEY, metaAlertGroups } from '../alerting/meta-alert';
import { monitoringAlertGroupsSchema, type MonitoringAlertGroups, type MonitoringHealth } from '../contract/ops';
import type { Database, Db } from '../db/client';
import { badRequest, fromZod } from '../http/errors';
import { requirePermission } from '../http/session';
import { monitoringStatus } from '../ops/freshness-watch';

interface AlertGroupsAnswer extends MonitoringAlertGroups {
  /** The groups it goes to now, in order: the chosen ones, or every group with email on. */
  effective: { _id: string; name: string }[];
}

async function alertGroups(database: Database): Promise<AlertGroupsAnswer> {
  const [row] = await database.query<{ value: { groupIds?: string[] } | string }>('select value from settings where key = $1', [META_ALERT_GROUPS_KEY]);
  const value = typeof row?.value === 'string' ? (JSON.parse(row.value) as { groupIds?: string[] }) : row?.value;
  const ids = await metaAlertGroups(database.db as Db);
  const names = ids.length ? await database.query<{ id: string; name: string }>('select id, name from notification_groups where id = any($1::uuid[])', [ids]) : [];
  const byId = new Map(names.map((g) => [g.id, g.name]));
  return { groupIds: Array.isArray(value?.groupIds) ? value.groupIds : null, effective: ids.map((id) => ({ _id: id, name: byId.get(id) ?? '' })) };
}

/**
 * Opsdeck's view of its own monitoring (issue 12): GET /api/monitoring/health for the dashboard
 * banner, and the admin setting of who gets "Monitoring backend unreachable".
 */
export function registerOps(app: FastifyInstance, database: Database): void {
  app.get('/api/monitoring/health', { preHandler: requirePermission('read') }, async () => {
    const result: MonitoringHealth = await monitoringStatus(database, app.monitoring, app.freshness, app.leader.isLeader);
    return { result };
  });

  app.get('/api/settings/monitoring-alert-groups', { preHandler: requirePermission('read') }, async () => ({ result: await alertGroups(database) }));

  app.patch('/api/settings/monitoring-alert-groups', { preHandler: requirePermission('settings.write') }, async (request) => {
    const parsed = monitoringAlertGroupsSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const ids = [...new Set(parsed.data.groupIds ?? [])];
    if (ids.length) {
      const found = await database.query<{ id: string }>('select id from notification_groups where id = any($1::uuid[])', [ids]);
      const missing = ids.filter((id) => !found.some((f) => f.id === id));
      if (missing.length) throw badRequest(`No notification group with id "${missing[0]}"`, 'groupIds');
    }
    auditTarget(request, { kind: 'setting', id: META_ALERT_GROUPS_KEY, name: 'Monitoring alert groups' });
    await audited(request, database.db, async (tx) => {
      if (parsed.data.groupIds === null) await tx.execute(sql`delete from settings where key = ${META_ALERT_GROUPS_KEY}`);
      else
        await tx.execute(sql`insert into settings (key, value, updated_at) values (${META_ALERT_GROUPS_KEY}, ${JSON.stringify({ groupIds: ids })}::jsonb, now())
          on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at`);
    });
    return { result: await alertGroups(database) };
  });
}
