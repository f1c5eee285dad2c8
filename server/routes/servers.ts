import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { openAlertsFollowAddress } from '../alerting/follow-address';
import { listQuerySchema } from '../contract/common';
import {
  chartQuerySchema,
  createServerSchema,
  type ChartData,
  updateServerSchema,
  type Server,
  type ServerUpStatus,
  type ServerUsage,
  type ServiceRecord,
} from '../contract/servers';
import type { Db } from '../db/client';
import { buildListQuery, listPage, withoutParallelWorkers, type ListDef, type ListSource } from '../db/list-query';
import { rowCount } from '../db/row-counts';
import { servers, services, shortGrams } from '../db/schema';
import { badRequest, conflict, fromZod, notFound } from '../http/errors';
import { requirePermission } from '../http/session';
import type { Monitoring } from '../monitoring/monitoring';
import { createDefaultRulesIfMissing } from '../alerting/defaults';
import { lookAgain } from '../alerting/routing';
import { panelDef } from '../monitoring/panels';
import { targetAddress } from './monitoring';
import { registerResource, type ResourceDef } from './resource';
import { isUuid } from '../contract/ids';

type ServerRow = typeof servers.$inferSelect;
type ServiceRow = typeof services.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** How the audit trail names a server: its hostname at that moment. */
export const serverTarget = (row: { id: string; hostname: string }) => ({ kind: 'server', id: row.id, name: row.hostname });

export function serverToApi(row: ServerRow): Server {
  return {
    _id: row.id,
    hostname: row.hostname,
    ipaddress: row.ipaddress,
    operating_system: row.operatingSystem,
    agentPort: row.agentPort,
    state: row.state,
    suppressAlarm: row.suppressAlarm,
    isAgentConfigured: row.isAgentConfigured,
    isAgentInstalled: row.isAgentInstalled,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastScrapedAt: iso(row.lastScrapedAt),
    stateChangedAt: iso(row.stateChangedAt),
    lastError: row.lastError,
    cpuUsage: row.cpuUsage,
    memoryUsage: row.memoryUsage,
    diskUsage: row.diskUsage,
    networkUsage: row.networkUsage,
    swapUsage: row.swapUsage,
    uptime: row.uptime,
    cpuLoad1: row.cpuLoad1,
    cpuLoad5: row.cpuLoad5,
    cpuLoad15: row.cpuLoad15,
    cpuCores: row.cpuCores,
    memorySaturation: row.memorySaturation,
    memoryTotal: row.memoryTotal,
    swapTotal: row.swapTotal,
    labels: row.labels ?? {},
  };
}

function usageToApi(row: ServerRow): ServerUsage {
  const s = serverToApi(row);
  return {
    state: s.state,
    suppressAlarm: s.suppressAlarm,
    isAgentConfigured: s.isAgentConfigured,
    lastScrapedAt: s.lastScrapedAt,
    cpuUsage: s.cpuUsage,
    memoryUsage: s.memoryUsage,
    diskUsage: s.diskUsage,
    networkUsage: s.networkUsage,
    swapUsage: s.swapUsage,
    uptime: s.uptime,
    cpuLoad1: s.cpuLoad1,
    cpuLoad5: s.cpuLoad5,
    cpuLoad15: s.cpuLoad15,
    cpuCores: s.cpuCores,
    memorySaturation: s.memorySaturation,
    memoryTotal: s.memoryTotal,
    swapTotal: s.swapTotal,
  };
}

async function targetTaken(db: Db, ipaddress: string, agentPort: number, exceptId?: string): Promise<boolean> {
  const where = and(eq(servers.ipaddress, ipaddress), eq(servers.agentPort, agentPort), exceptId ? ne(servers.id, exceptId) : undefined);
  return (await db.select({ id: servers.id }).from(servers).where(where).limit(1)).length > 0;
}
const takenMessage = (ip: string, port: number) => `A server with address ${ip}:${port} is already registered`;

async function findServer(db: Db, id: string): Promise<ServerRow> {
  const row = isUuid(id) ? (await db.select().from(servers).where(eq(servers.id, id)).limit(1))[0] : undefined;
  if (!row) throw notFound(`No server with id "${id}"`);
  return row;
}

const hostnameGrams = shortGrams(servers.hostnameLc as never);

/** SPEC §7 Servers: the servers resource, its metrics list, usage, up status, charts and services. */
export function registerServers(app: FastifyInstance, db: Db, monitoring: Monitoring): void {
  /** An exporter the outbound policy refuses (link-local, cloud metadata) is never registered: 400 on ipaddress. */
  const refuseExporter = (ip: string, port: number) => {
    const refused = app.outbound.decide(ip, port, 'exporter');
    if (refused) throw badRequest(`ipaddress: ${refused}`, 'ipaddress');
  };
  const listDef: Omit<ResourceDef<ServerRow, Server>, 'name'> = {
    table: servers,
    id: servers.id,
    toApi: serverToApi,
    read: 'read',
    sortable: {
      createdAt: servers.createdAt,
      hostname: servers.hostnameLc as never,
      ipaddress: servers.ipaddress,
      state: servers.state,
      cpuUsage: servers.cpuUsage,
      memoryUsage: servers.memoryUsage,
      diskUsage: servers.diskUsage,
      networkUsage: servers.networkUsage,
    },
    filterable: {
      hostname: { column: servers.hostname, lower: servers.hostnameLc as never, grams: hostnameGrams, ops: ['contains', 'eq'] },
      ipaddress: { column: servers.ipaddress, lower: servers.ipaddress, grams: shortGrams(servers.ipaddress), ops: ['contains', 'eq'] },
      operating_system: { column: servers.operatingSystem, ops: ['eq', 'in'] },
      status: { column: servers.status, ops: ['eq', 'in'] },
      state: { column: servers.state, ops: ['eq', 'in'] },
      suppressAlarm: { column: servers.suppressAlarm, ops: ['eq'] },
      isAgentConfigured: { column: servers.isAgentConfigured, ops: ['eq'], kind: 'boolean' },
      isAgentInstalled: { column: servers.isAgentInstalled, ops: ['eq'], kind: 'boolean' },
      createdAt: { column: servers.createdAt, ops: ['between'], kind: 'date' },
    },
    search: [
      { lower: servers.hostnameLc as never, grams: hostnameGrams },
      { lower: servers.ipaddress, grams: shortGrams(servers.ipaddress) },
    ],
    defaultSort: { by: 'createdAt', direction: 'desc' },
    total: (d) => rowCount(d, 'servers'),
  };

  registerResource<ServerRow, Server>(app, db, {
    ...listDef,
    name: 'servers',
    target: serverTarget,
    conflicts: { servers_target_idx: { field: 'ipaddress', message: 'A server with this address and agent port is already registered' } },
    create: {
      permission: 'servers.write',
      schema: createServerSchema,
      async toRow(input, { db }) {
        refuseExporter(input.ipaddress, input.agentPort);
        if (await targetTaken(db, input.ipaddress, input.agentPort)) throw conflict(takenMessage(input.ipaddress, input.agentPort), 'ipaddress');
        return {
          hostname: input.hostname,
          ipaddress: input.ipaddress,
          operatingSystem: input.operating_system,
          agentPort: input.agentPort,
          isAgentConfigured: input.isAgentConfigured,
          labels: input.labels,
        };
      },
      async after(created, { db: tx, afterCommit }) {
        // A server registered with a running exporter shows figures at once, not after a tick,
        // and has its default alert rules (issue 4) from the start.
        if (created.isAgentConfigured) {
          await createDefaultRulesIfMissing(tx, created.id);
          afterCommit(() => monitoring.refreshSoon(created.id));
        }
      },
    },
    update: {
      permission: 'servers.write',
      schema: updateServerSchema,
      async toRow(input, existing, { db }) {
        const ip = input.ipaddress ?? existing.ipaddress;
        const port = input.agentPort ?? existing.agentPort;
        if (input.ipaddress !== undefined || input.agentPort !== undefined) refuseExporter(ip, port);
        if ((ip !== existing.ipaddress || port !== existing.agentPort) && (await targetTaken(db, ip, port, existing.id))) throw conflict(takenMessage(ip, port), 'ipaddress');
        const row: Record<string, unknown> = { updatedAt: new Date() };
        if (input.hostname !== undefined) row.hostname = input.hostname;
        if (input.ipaddress !== undefined) row.ipaddress = input.ipaddress;
        if (input.operating_system !== undefined) row.operatingSystem = input.operating_system;
        if (input.agentPort !== undefined) row.agentPort = input.agentPort;
        if (input.suppressAlarm !== undefined) row.suppressAlarm = input.suppressAlarm;
        if (input.status !== undefined) row.status = input.status;
        if (input.labels !== undefined) row.labels = input.labels;
        return row;
      },
      async after(updated, input, { db: tx, afterCommit }) {
        if (input.ipaddress !== undefined) await openAlertsFollowAddress(tx, updated.id, updated.ipaddress);
        // Silences and windows match server labels: its open alerts' mute is looked at again (issue 14).
        if (input.labels !== undefined) await lookAgain(tx, sql`server_id = ${updated.id}`, new Date());
        // Another target (or OS) means the previous counters no longer apply.
        if (input.ipaddress !== undefined || input.agentPort !== undefined || input.operating_system !== undefined) {
          afterCommit(() => {
            monitoring.forget(updated.id);
            monitoring.refreshSoon(updated.id);
          });
        }
      },
    },
    remove: {
      permission: 'servers.write',
      async after(removed, { afterCommit }) {
        // Metrics, layouts and services go by cascade; the collector drops its memory.
        afterCommit(() => monitoring.forget(removed.id));
      },
    },
  });

  registerResource<ServerRow, Server>(app, db, { ...listDef, name: 'servers/metrics' });

  app.get<{ Params: { id: string } }>('/api/servers/metrics/usage/:id', { preHandler: requirePermission('read') }, async (request) => {
    return { result: usageToApi(await findServer(db, request.params.id)) };
  });

  app.get<{ Params: { id: string } }>('/api/servers/upstatus/:id', { preHandler: requirePermission('read') }, async (request) => {
    const row = await findServer(db, request.params.id);
    const result: ServerUpStatus = {
      _id: row.id,
      state: row.state,
      lastScrapedAt: iso(row.lastScrapedAt),
      stateChangedAt: iso(row.stateChangedAt),
      lastError: row.lastError,
    };
    return { result };
  });

  app.get<{ Params: { id: string }; Querystring: Record<string, string> }>(
    '/api/servers/chart/:id',
    { preHandler: requirePermission('read') },
    async (request) => {
      const parsed = chartQuerySchema.safeParse(request.query);
      if (!parsed.success) throw fromZod(parsed.error);
      const q = parsed.data;
      const row = await findServer(db, request.params.id);
      const def = panelDef(row.operatingSystem, q.panel);
      if (!def) throw badRequest(`There is no panel ${q.panel} for ${row.operatingSystem === 'windows' ? 'Windows' : 'Linux'} servers`, 'panel');
      const step = q.step ?? monitoring.defaultStep(q.from, q.to);
      if ((q.to - q.from) / 1000 / step > 11_000) throw badRequest('Too many points: use a larger step (at most 11,000 points)', 'step');
      const data = await monitoring.chart(
        { id: row.id, os: row.operatingSystem, instance: targetAddress(row.ipaddress, row.agentPort) },
        def,
        q.from,
        q.to,
        step,
      );
      const result: ChartData = { panel: { id: def.id, title: def.title, kind: def.kind, unit: def.unit }, ...data };
      return { result };
    },
  );

  registerServices(app, db);
}

function serviceToApi(row: ServiceRow, server: { hostname: string; ipaddress: string }): ServiceRecord {
  return {
    _id: row.id,
    serverId: row.serverId,
    server,
    service_name: row.serviceName,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

type ServiceListRow = { service: ServiceRow; hostname: string; ipaddress: string };

/** SPEC §7 prometheus/get-services: filters serverId, name contains, status; sort createdAt desc. */
const servicesList: ListDef = {
  filterable: {
    serverId: { column: services.serverId, ops: ['eq', 'in'], kind: 'uuid' },
    name: { column: services.serviceName, lower: services.serviceNameLc as never, grams: shortGrams(services.serviceNameLc as never), ops: ['contains', 'eq'] },
    status: { column: services.status, ops: ['eq', 'in'] },
    hostname: { column: servers.hostname, lower: servers.hostnameLc as never, grams: hostnameGrams, ops: ['contains', 'eq'] },
  },
  sortable: { createdAt: services.createdAt, updatedAt: services.updatedAt, name: services.serviceName, status: services.status, hostname: servers.hostname },
  search: [
    { lower: services.serviceNameLc as never, grams: shortGrams(services.serviceNameLc as never) },
    { lower: servers.hostnameLc as never, grams: hostnameGrams },
  ],
  defaultSort: { by: 'createdAt', direction: 'desc' },
};

/** Service records with their server's hostname and IP (a join): the list's rows. */
const servicesSource: ListSource<ServiceListRow> = {
  from: (d, fields) => d.select(fields as never).from(services).innerJoin(servers, eq(servers.id, services.serverId)),
  rows: (d) => d.select({ service: services, hostname: servers.hostname, ipaddress: servers.ipaddress }).from(services).innerJoin(servers, eq(servers.id, services.serverId)),
  idOf: (row) => row.service.id,
  id: services.id,
  ties: [
    { key: services.serviceName, direction: 'asc' },
    { key: services.id, direction: 'asc' },
  ],
  // Every service has its server (a cascading foreign key): the join counts the table.
  total: (d) => rowCount(d, 'services'),
};

/** SPEC §7 prometheus/get-services: service records with their server's hostname and IP. */
function registerServices(app: FastifyInstance, db: Db): void {
  app.post('/api/prometheus/get-services/all', { preHandler: requirePermission('read') }, async (request) => {
    const parsed = listQuerySchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const query = buildListQuery(servicesList, parsed.data);
    const page = await withoutParallelWorkers(db, (d) => listPage(d, servicesSource, query));
    const data = page.rows.map((r) => serviceToApi(r.service, { hostname: r.hostname, ipaddress: r.ipaddress }));
    return { result: { data, count: page.count, ...(page.countEstimated ? { countEstimated: true as const } : {}) } };
  });
}
