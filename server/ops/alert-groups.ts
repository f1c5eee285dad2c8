import { sql } from 'drizzle-orm';
import { META_ALERT_GROUPS_KEY, metaAlertGroups } from '../alerting/meta-alert';
import type { AuditScope } from '../audit/trail';
import type { MonitoringAlertGroups, MonitoringAlertGroupsAnswer } from '../contract/ops';
import type { Database, Db } from '../db/client';
import { badRequest } from '../http/errors';

/** Who gets "Monitoring backend unreachable" (issue 12): the chosen groups, or every group with email on. */
export async function monitoringAlertGroups(database: Database): Promise<MonitoringAlertGroupsAnswer> {
  const [row] = await database.query<{ value: { groupIds?: string[] } | string }>('select value from settings where key = $1', [META_ALERT_GROUPS_KEY]);
  const value = typeof row?.value === 'string' ? (JSON.parse(row.value) as { groupIds?: string[] }) : row?.value;
  const ids = await metaAlertGroups(database.db as Db);
  const names = ids.length ? await database.query<{ id: string; name: string }>('select id, name from notification_groups where id = any($1::uuid[])', [ids]) : [];
  const byId = new Map(names.map((g) => [g.id, g.name]));
  return { groupIds: Array.isArray(value?.groupIds) ? value.groupIds : null, effective: ids.map((id) => ({ _id: id, name: byId.get(id) ?? '' })) };
}

/** Refuses ids that name no group (400 naming `groupIds`), before anything is written. */
export async function checkAlertGroups(database: Database, input: MonitoringAlertGroups): Promise<string[]> {
  const ids = [...new Set(input.groupIds ?? [])];
  if (ids.length) {
    const found = await database.query<{ id: string }>('select id from notification_groups where id = any($1::uuid[])', [ids]);
    const missing = ids.filter((id) => !found.some((f) => f.id === id));
    if (missing.length) throw badRequest(`No notification group with id "${missing[0]}"`, 'groupIds');
  }
  return ids;
}

/** Chooses the groups (the ids `checkAlertGroups` let through), or (null) goes back to the default. */
export async function setMonitoringAlertGroups(tx: Db, input: { groupIds: string[] | null }, audit: AuditScope): Promise<void> {
  audit.target({ kind: 'setting', id: META_ALERT_GROUPS_KEY, name: 'Monitoring alert groups' });
  if (input.groupIds === null) await tx.execute(sql`delete from settings where key = ${META_ALERT_GROUPS_KEY}`);
  else
    await tx.execute(sql`insert into settings (key, value, updated_at) values (${META_ALERT_GROUPS_KEY}, ${JSON.stringify({ groupIds: input.groupIds })}::jsonb, now())
      on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at`);
}
