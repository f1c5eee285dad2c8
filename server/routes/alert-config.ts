import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { defaultGroupId } from '../alerting/reach';
import { forecastMetrics, thresholdChoicesFor, thresholdMetrics, updateAlertConfigSchema, type AlertConfig, type AlertRule } from '../contract/alerts';
import { listQuerySchema } from '../contract/common';
import { createDefaultRulesIfMissing, DEFAULT_RULES } from '../alerting/defaults';
import { audited, auditRelated, auditTarget } from '../audit/trail';
import type { Db } from '../db/client';
import { alertConfigs, alertRules, notificationGroups, servers } from '../db/schema';
import { badRequest, conflict, fromZod, notFound } from '../http/errors';
import { requirePermission } from '../http/session';
import { buildListQuery, listPage, type ListDef, type ListSource } from '../db/list-query';
import { isUuid } from '../contract/ids';

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
async function auditConfig(db: Db, request: FastifyRequest, config: ConfigRow): Promise<void> {
  const [server] = await db.select({ hostname: servers.hostname }).from(servers).where(eq(servers.id, config.serverId)).limit(1);
  auditTarget(request, { kind: 'server', id: config.serverId, name: server?.hostname ?? config.serverId });
  auditRelated(request, config.id);
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

/** SPEC §7 alert-config calls: get (by serverId), create defaults, update with the full config, reset. */
export function registerAlertConfig(app: FastifyInstance, db: Db): void {
  app.post('/api/alert-config/get-alert-config/all', { preHandler: requirePermission('read') }, async (request) => {
    const parsed = listQuerySchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const page = await listPage(db, configSource, buildListQuery(configList, parsed.data));
    return { result: { data: await withRules(db, page.rows), count: page.count, ...(page.countEstimated ? { countEstimated: true as const } : {}) } };
  });

  app.post<{ Params: { serverId: string } }>(
    '/api/alert-config/create-default-alert-rules/:serverId',
    { preHandler: requirePermission('rules.write') },
    async (request, reply) => {
      const { serverId } = request.params;
      const server = isUuid(serverId) ? (await db.select({ id: servers.id, hostname: servers.hostname }).from(servers).where(eq(servers.id, serverId)).limit(1))[0] : undefined;
      if (!server) throw notFound(`No server with id "${serverId}"`);
      auditTarget(request, { kind: 'server', id: server.id, name: server.hostname });
      const config = await audited(request, db, async (tx) => {
        const made = await createDefaultRulesIfMissing(tx, serverId);
        if (!made.length) throw conflict('This server already has an alert config');
        const created = (await tx.select().from(alertConfigs).where(eq(alertConfigs.serverId, serverId)))[0]!;
        auditRelated(request, created.id);
        return created;
      });
      reply.status(201);
      return { result: (await withRules(db, [config]))[0] };
    },
  );

  app.patch<{ Params: { id: string } }>('/api/alert-config/update-alert-config/:id', { preHandler: requirePermission('rules.write') }, async (request) => {
    const parsed = updateAlertConfigSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const input = parsed.data;
    const config = await findConfig(db, request.params.id);
    await auditConfig(db, request, config);
    if (input._id !== undefined && input._id !== config.id) throw badRequest('_id does not match the config in the address', '_id');
    if (input.serverId !== undefined && input.serverId !== config.serverId) throw badRequest('serverId: the server of a config cannot change', 'serverId');
    const existing = await db.select().from(alertRules).where(eq(alertRules.configId, config.id));
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
      const found = new Set((await db.select({ id: notificationGroups.id }).from(notificationGroups).where(inArray(notificationGroups.id, [...groupIds]))).map((g) => g.id));
      const i = input.rules.findIndex((r) => r.notificationGroup !== null && !found.has(r.notificationGroup));
      if (i >= 0) throw badRequest(`rules.${i}.notificationGroup: no notification group with id "${input.rules[i]!.notificationGroup}"`, `rules.${i}.notificationGroup`);
    }
    const now = new Date();
    await audited(request, db, async (tx) => {
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
    });
    return { result: (await withRules(db, [await findConfig(db, config.id)]))[0] };
  });

  app.patch<{ Params: { id: string } }>('/api/alert-config/reset-alert-rules/:id', { preHandler: requirePermission('rules.write') }, async (request) => {
    const body = request.body;
    if (body !== undefined && body !== null && (typeof body !== 'object' || Object.keys(body).length > 0)) throw badRequest('reset-alert-rules takes an empty body');
    const config = await findConfig(db, request.params.id);
    await auditConfig(db, request, config);
    const now = new Date();
    const defaults = JSON.stringify(DEFAULT_RULES.map((r, position) => ({ ...r, position })));
    await audited(request, db, async (tx) => {
      // Rules keep their ids (open alerts stay attached); extra rules go, missing defaults come back;
      // every rule notifies the default group (none unless one is set).
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
    });
    return { result: (await withRules(db, [await findConfig(db, config.id)]))[0] };
  });
}
