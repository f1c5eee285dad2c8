import { sql } from 'drizzle-orm';
import type { RuleMetric, Severity } from '../contract/alerts';
import type { Db } from '../db/client';
import { defaultGroupId } from './reach';

export interface DefaultRule {
  name: string;
  description: string;
  type: 'resouce_alert' | 'service_down_alert';
  metric: RuleMetric;
  timeLimit: number;
  threshold: number | null;
  severity: Severity;
}

/**
 * The rules every server gets (docs/alerting.md). Thresholds and grace periods are SPEC §5
 * choices. Disk has two steps: a warning with time to act, and a critical alert that fires fast.
 */
export const DEFAULT_RULES: readonly DefaultRule[] = [
  { name: 'high_cpu_usage', description: 'CPU usage above the threshold', type: 'resouce_alert', metric: 'cpu', timeLimit: 300, threshold: 90, severity: 'warning' },
  { name: 'high_memory_usage', description: 'Memory usage above the threshold', type: 'resouce_alert', metric: 'memory', timeLimit: 300, threshold: 90, severity: 'warning' },
  { name: 'high_disk_usage', description: 'Disk usage above the threshold', type: 'resouce_alert', metric: 'disk', timeLimit: 300, threshold: 85, severity: 'warning' },
  { name: 'critical_disk_usage', description: 'Disk almost full', type: 'resouce_alert', metric: 'disk', timeLimit: 60, threshold: 95, severity: 'critical' },
  { name: 'instance_down', description: 'The monitoring agent does not answer', type: 'resouce_alert', metric: 'instance_down', timeLimit: 60, threshold: null, severity: 'critical' },
  { name: 'service_down', description: 'A service the agent reports is down', type: 'service_down_alert', metric: 'service_down', timeLimit: 120, threshold: null, severity: 'critical' },
  // Issue 16: time-to-full by a robust linear fit over 6 hours (server/alerting/forecasts.ts), hours.
  { name: 'disk_full_forecast', description: 'Disk full within the threshold (hours), by the trend of the last 6 hours', type: 'resouce_alert', metric: 'disk_forecast', timeLimit: 300, threshold: 24, severity: 'warning' },
  { name: 'memory_exhausted_forecast', description: 'Memory exhausted within the threshold (hours), by the trend of the last 6 hours', type: 'resouce_alert', metric: 'memory_forecast', timeLimit: 300, threshold: 6, severity: 'warning' },
];

const defaultsJson = () => JSON.stringify(DEFAULT_RULES.map((r, position) => ({ ...r, position })));

/**
 * Creates the default alert config of every server in `serverIds` (every active,
 * agent-configured server when omitted) that has none yet; a config that exists is left alone,
 * even if an operator changed it. The rules notify the default group (none unless one is set,
 * server/alerting/reach.ts). Set-wise and idempotent: safe from several processes at once.
 * Returns the ids of the servers that got one.
 */
export async function createDefaultRulesIfMissing(db: Db, serverId?: string | string[]): Promise<string[]> {
  const ids = serverId === undefined ? null : Array.isArray(serverId) ? serverId : [serverId];
  if (ids && ids.length === 0) return [];
  const which = ids ? sql`s.id = any(${sql.param(ids)}::uuid[])` : sql`s.status = 'active' and s.is_agent_configured`;
  const result = await db.execute<{ server_id: string }>(sql`
    with cfg as (
      insert into alert_configs (server_id)
      select s.id from servers s
      where ${which} and not exists (select 1 from alert_configs c where c.server_id = s.id)
      on conflict (server_id) do nothing
      returning id, server_id
    ), made as (
      insert into alert_rules (config_id, server_id, name, description, type, metric, time_limit, threshold, severity, position, notification_group_id)
      select cfg.id, cfg.server_id, d.name, d.description, d.type, d.metric, d."timeLimit", d.threshold, d.severity, d.position, ${defaultGroupId}
      from cfg cross join jsonb_to_recordset(${defaultsJson()}::jsonb)
        as d(name text, description text, type text, metric text, "timeLimit" int, threshold int, severity text, position int)
      returning server_id
    )
    select distinct server_id from made`);
  return result.rows.map((r) => r.server_id);
}
