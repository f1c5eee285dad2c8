import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { createDefaultRulesIfMissing, DEFAULT_RULES } from '../alerting/defaults';
import { defaultGroupId } from '../alerting/reach';
import type { AuditScope } from '../audit/trail';
import { forecastMetrics, thresholdChoicesFor, thresholdMetrics, type AlertConfig, type AlertRule, type updateAlertConfigSchema } from '../contract/alerts';
import { isUuid } from '../contract/ids';
import type { Db } from '../db/client';
import { buildListQuery, listPage, type ListDef, type ListQueryInput, type ListSource } from '../db/list-query';
import { alertConfigs, alertRules, notificationGroups, servers } from '../db/schema';
import { badRequest, conflict, notFound } from '../http/errors';

/**
 * SPEC §7 alert-config: a server's alert rules, one config per server. Listed by serverId,
 * created from the defaults, changed as a whole (every rule once, names, types and metrics
 * fixed), and put back to the defaults. Each change is recorded as a change to its server.
 */

type ConfigRow = typeof alertConfigs.$inferSelect;
type RuleRow = typeof alertRules.$inferSelect;

function ruleToApi(row: RuleRow): AlertRule {
  return {
    _id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    metric: row.metric,
    enabled: row.enabled,
    timeLimit: row.timeLimit,
    threshold: row.threshold,
    severity: row.severity,
    notificationGroup: row.notificationGroupId,
    suppressOnHostDown: row.suppressOnHostDown,
    minNotifyIntervalSeconds: row.minNotifyIntervalSeconds,
    flapTransitions: row.flapTransitions,
    flapWindowSeconds: row.flapWindowSeconds,
  };
}

async function withRules(db: Db, configs: ConfigRow[]): Promise<AlertConfig[]> {
  if (!configs.length) return [];
  const rules = await db
    .select()
    .from(alertRules)
    .where(
      inArray(
        alertRules.configId,
        configs.map((c) => c.id),
      ),
    )
    .orderBy(asc(alertRules.position), asc(alertRules.name));
  return configs.map((c) => ({
    _id: c.id,
    serverId: c.serverId,
    rules: rules.filter((r) => r.configId === c.id).map(ruleToApi),
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  }));
}

async function findConfig(db: Db, id: string): Promise<ConfigRow> {
  const row = isUuid(id) ? (await db.select().from(alertConfigs).where(eq(alertConfigs.id, id)).limit(1))[0] : undefined;
  if (!row) throw notFound(`No alert config with id "${id}"`);
  return row;
}

/** A config is recorded as a change to its server (named by hostname), found also by the config's id. */
async function auditConfig(db: Db, audit: AuditScope, config: ConfigRow): Promise<void> {
  const [server] = await db.select({ hostname: servers.hostname }).from(servers).where(eq(servers.id, config.serverId)).limit(1);
  audit.target({ kind: 'server', id: config.serverId, name: server?.hostname ?? config.serverId });
  audit.related(config.id);
}

/** SPEC §7: alert-config/get-alert-config filtered by serverId (one config per server). */
const configList: ListDef = {
  filterable: { serverId: { column: alertConfigs.serverId, ops: ['eq', 'in'], kind: 'uuid' } },
  sortable: { createdAt: alertConfigs.createdAt, updatedAt: alertConfigs.updatedAt },
  search: [],
  defaultSort: { by: 'createdAt', direction: 'asc' },
};
const configSource: ListSource<ConfigRow> = {
  from: (d, fields) => d.select(fields as never).from(alertConfigs),
  rows: (d) => d.select().from(alertConfigs),
  idOf: (row) => row.id,
  id: alertConfigs.id,
  ties: [{ key: alertConfigs.id, direction: 'asc' }],
};

export async function listAlertConfigs(db: Db, query: ListQueryInput): Promise<{ data: AlertConfig[]; count: number; countEstimated?: true }> {
  const page = await listPage(db, configSource, buildListQuery(configList, query));
  return { data: await withRules(db, page.rows), count: page.count, ...(page.countEstimated ? { countEstimated: true as const } : {}) };
}

/** Gives a server the default rules; a server that has a config already is a 409. */
export async function createDefaultConfig(tx: Db, input: { serverId: string }, audit: AuditScope): Promise<AlertConfig> {
  const { serverId } = input;
  const server = isUuid(serverId) ? (await tx.select({ id: servers.id, hostname: servers.hostname }).from(servers).where(eq(servers.id, serverId)).limit(1))[0] : undefined;
  if (!server) throw notFound(`No server with id "${serverId}"`);
  audit.target({ kind: 'server', id: server.id, name: server.hostname });
  const made = await createDefaultRulesIfMissing(tx, serverId);
  if (!made.length) throw conflict('This server already has an alert config');
  const created = (await tx.select().from(alertConfigs).where(eq(alertConfigs.serverId, serverId)))[0]!;
  audit.related(created.id);
  return (await withRules(tx, [created]))[0]!;
}

/**
 * Changes a config with the full list of its rules: each rule once, by id; its name, type and
 * metric as they are; a threshold where the metric takes one, from its choices; groups that
 * exist. A 400 names the first field that is wrong.
 */
export async function updateAlertConfig(tx: Db, input: { id: string } & z.output<typeof updateAlertConfigSchema>, audit: AuditScope): Promise<AlertConfig> {
  const config = await findConfig(tx, input.id);
  await auditConfig(tx, audit, config);
  if (input._id !== undefined && input._id !== config.id) throw badRequest('_id does not match the config in the address', '_id');
  if (input.serverId !== undefined && input.serverId !== config.serverId) throw badRequest('serverId: the server of a config cannot change', 'serverId');
  const existing = await tx.select().from(alertRules).where(eq(alertRules.configId, config.id));
  const byId = new Map(existing.map((r) => [r.id, r]));
  const seen = new Set<string>();
  const groupIds = new Set<string>();
  input.rules.forEach((rule, i) => {
    const at = `rules.${i}`;
    const current = byId.get(rule._id);
    if (!current) throw badRequest(`${at}._id: this config has no rule "${rule._id}"`, `${at}._id`);
    if (seen.has(rule._id)) throw badRequest(`${at}._id: rule "${current.name}" is listed twice`, `${at}._id`);
    seen.add(rule._id);
    if (rule.name !== undefined && rule.name !== current.name) throw badRequest(`${at}.name: a rule's name cannot change`, `${at}.name`);
    if (rule.type !== undefined && rule.type !== current.type) throw badRequest(`${at}.type: a rule's type cannot change`, `${at}.type`);
    if (rule.metric !== undefined && rule.metric !== current.metric) throw badRequest(`${at}.metric: a rule's metric cannot change`, `${at}.metric`);
    const needsThreshold = thresholdMetrics.includes(current.metric);
    if (needsThreshold && rule.threshold === null) throw badRequest(`${at}.threshold: ${current.name} needs a threshold`, `${at}.threshold`);
    if (!needsThreshold && rule.threshold !== null) throw badRequest(`${at}.threshold: ${current.name} has no threshold (send null)`, `${at}.threshold`);
    const choices = thresholdChoicesFor(current.metric);
    if (needsThreshold && rule.threshold !== null && !choices.includes(rule.threshold)) {
      throw badRequest(`${at}.threshold: ${current.name} takes ${choices.join(', ')} ${forecastMetrics.includes(current.metric) ? 'hours' : 'percent'}`, `${at}.threshold`);
    }
    if (rule.notificationGroup !== null) {
      if (!isUuid(rule.notificationGroup)) throw badRequest(`${at}.notificationGroup: no notification group with id "${rule.notificationGroup}"`, `${at}.notificationGroup`);
      groupIds.add(rule.notificationGroup);
    }
  });
  if (seen.size !== existing.length) throw badRequest(`rules: send the full config (${existing.length} rules, each once)`, 'rules');
  if (groupIds.size) {
    const found = new Set((await tx.select({ id: notificationGroups.id }).from(notificationGroups).where(inArray(notificationGroups.id, [...groupIds]))).map((g) => g.id));
    const i = input.rules.findIndex((r) => r.notificationGroup !== null && !found.has(r.notificationGroup));
    if (i >= 0) throw badRequest(`rules.${i}.notificationGroup: no notification group with id "${input.rules[i]!.notificationGroup}"`, `rules.${i}.notificationGroup`);
  }
  const now = new Date();
  for (const rule of input.rules) {
    await tx
      .update(alertRules)
      .set({
        description: rule.description,
        enabled: rule.enabled,
        timeLimit: rule.timeLimit,
        threshold: rule.threshold,
        severity: rule.severity,
        notificationGroupId: rule.notificationGroup,
        ...(rule.suppressOnHostDown !== undefined ? { suppressOnHostDown: rule.suppressOnHostDown } : {}),
        ...(rule.minNotifyIntervalSeconds !== undefined ? { minNotifyIntervalSeconds: rule.minNotifyIntervalSeconds } : {}),
        ...(rule.flapTransitions !== undefined ? { flapTransitions: rule.flapTransitions, flapWindowSeconds: rule.flapWindowSeconds } : {}),
        updatedAt: now,
      })
      .where(eq(alertRules.id, rule._id));
  }
  await tx.update(alertConfigs).set({ updatedAt: now }).where(eq(alertConfigs.id, config.id));
  return (await withRules(tx, [await findConfig(tx, config.id)]))[0]!;
}

/** Whether a body is empty, as reset-alert-rules takes: none, null or `{}`. */
export const isEmptyBody = (body: unknown) => body === undefined || body === null || (typeof body === 'object' && Object.keys(body).length === 0);

/**
 * Puts a config's rules back to the defaults. Rules keep their ids (open alerts stay attached);
 * extra rules go, missing defaults come back; every rule notifies the default group (none unless
 * one is set).
 */
export async function resetAlertConfig(tx: Db, input: { id: string }, audit: AuditScope): Promise<AlertConfig> {
  const config = await findConfig(tx, input.id);
  await auditConfig(tx, audit, config);
  const now = new Date();
  const defaults = JSON.stringify(DEFAULT_RULES.map((r, position) => ({ ...r, position })));
  await tx.execute(sql`
    delete from alert_rules
    where config_id = ${config.id} and name not in (select d.name from jsonb_to_recordset(${defaults}::jsonb) as d(name text))`);
  await tx.execute(sql`
    insert into alert_rules (config_id, server_id, name, description, type, metric, time_limit, threshold, severity, position, enabled, notification_group_id, updated_at)
    select ${config.id}::uuid, ${config.serverId}::uuid, d.name, d.description, d.type, d.metric, d."timeLimit", d.threshold, d.severity, d.position, true, ${defaultGroupId}, ${now.toISOString()}::timestamptz
    from jsonb_to_recordset(${defaults}::jsonb)
      as d(name text, description text, type text, metric text, "timeLimit" int, threshold int, severity text, position int)
    on conflict (config_id, name) do update set
      description = excluded.description, type = excluded.type, metric = excluded.metric, time_limit = excluded.time_limit,
      threshold = excluded.threshold, severity = excluded.severity, position = excluded.position, enabled = true,
      notification_group_id = excluded.notification_group_id, updated_at = excluded.updated_at,
      suppress_on_host_down = true, min_notify_interval_seconds = null, flap_transitions = null, flap_window_seconds = null`);
  await tx.update(alertConfigs).set({ updatedAt: now }).where(eq(alertConfigs.id, config.id));
  return (await withRules(tx, [await findConfig(tx, config.id)]))[0]!;
}
