import { and, eq, ne, sql } from 'drizzle-orm';
import { openAlertsFollowAddress } from '../alerting/follow-address';
import { createDefaultRulesIfMissing } from '../alerting/defaults';
import { lookAgain } from '../alerting/routing';
import { createServerSchema, updateServerSchema, type Server } from '../contract/servers';
import type { Db } from '../db/client';
import { rowCount } from '../db/row-counts';
import { servers, shortGrams } from '../db/schema';
import { badRequest, conflict } from '../http/errors';
import type { Monitoring } from '../monitoring/monitoring';
import type { OutboundPolicy } from '../outbound/policy';
import type { ResourceDef } from '../routes/resource';
import { serverTarget, serverToApi, type ServerRow } from './service';

export const hostnameGrams = shortGrams(servers.hostnameLc as never);

async function targetTaken(db: Db, ipaddress: string, agentPort: number, exceptId?: string): Promise<boolean> {
  const where = and(eq(servers.ipaddress, ipaddress), eq(servers.agentPort, agentPort), exceptId ? ne(servers.id, exceptId) : undefined);
  return (await db.select({ id: servers.id }).from(servers).where(where).limit(1)).length > 0;
}
const takenMessage = (ip: string, port: number) => `A server with address ${ip}:${port} is already registered`;

/** The servers list's declared sort, filter and search fields, shared by `servers` and `servers/metrics`. */
const serversList: Omit<ResourceDef<ServerRow, Server>, 'name'> = {
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

/** SPEC §7 `servers/metrics`: the Servers List, the same rows and fields read-only. */
export const serverMetricsResource = (): ResourceDef<ServerRow, Server> => ({ ...serversList, name: 'servers/metrics' });

/**
 * SPEC §7 `servers`: the generic calls with the writes. An exporter the outbound policy refuses
 * (link-local, cloud metadata) is never registered: 400 on ipaddress. Monitoring hears of every
 * change after it commits.
 */
export function serversResource(deps: { outbound: OutboundPolicy; monitoring: Monitoring }): ResourceDef<ServerRow, Server> {
  const { outbound, monitoring } = deps;
  const refuseExporter = (ip: string, port: number) => {
    const refused = outbound.decide(ip, port, 'exporter');
    if (refused) throw badRequest(`ipaddress: ${refused}`, 'ipaddress');
  };
  return {
    ...serversList,
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
  };
}
