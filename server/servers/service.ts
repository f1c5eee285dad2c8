import { eq, sql } from 'drizzle-orm';
import type { ChartData, Server, ServerForecasts, ServerUpStatus, ServerUsage } from '../contract/servers';
import type { Db } from '../db/client';
import { serverForecasts, servers } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import { isUuid } from '../contract/ids';
import type { Monitoring } from '../monitoring/monitoring';
import { panelDef } from '../monitoring/panels';
import { prometheusInstance } from '../monitoring/prometheus-collector';

export type ServerRow = typeof servers.$inferSelect;

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

/** One server by id; 404 for an id that is not one (not a uuid, or no such server). */
export async function findServer(db: Db, id: string): Promise<ServerRow> {
  const row = isUuid(id) ? (await db.select().from(servers).where(eq(servers.id, id)).limit(1))[0] : undefined;
  if (!row) throw notFound(`No server with id "${id}"`);
  return row;
}

/** SPEC §7 servers/metrics/usage: the latest figures of a server. */
export async function serverUsage(db: Db, input: { id: string }): Promise<ServerUsage> {
  const s = serverToApi(await findServer(db, input.id));
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

/** SPEC §7 servers/upstatus: whether a server is up, and since when. */
export async function serverUpStatus(db: Db, input: { id: string }): Promise<ServerUpStatus> {
  const row = await findServer(db, input.id);
  return { _id: row.id, state: row.state, lastScrapedAt: iso(row.lastScrapedAt), stateChangedAt: iso(row.stateChangedAt), lastError: row.lastError };
}

/** SPEC §7 servers/chart: one panel of the server's OS over a time range, from whichever backend monitors it. */
export async function serverChart(db: Db, monitoring: Monitoring, input: { id: string; panel: number; from: number; to: number; step?: number }): Promise<ChartData> {
  const row = await findServer(db, input.id);
  const def = panelDef(row.operatingSystem, input.panel);
  if (!def) throw badRequest(`There is no panel ${input.panel} for ${row.operatingSystem === 'windows' ? 'Windows' : 'Linux'} servers`, 'panel');
  const step = input.step ?? monitoring.defaultStep(input.from, input.to);
  if ((input.to - input.from) / 1000 / step > 11_000) throw badRequest('Too many points: use a larger step (at most 11,000 points)', 'step');
  const data = await monitoring.chart({ id: row.id, os: row.operatingSystem, instance: prometheusInstance(row.ipaddress, row.agentPort) }, def, input.from, input.to, step);
  return { panel: { id: def.id, title: def.title, kind: def.kind, unit: def.unit }, ...data };
}

/**
 * Issue 16: when the server's disk and memory reach 100 % at the trend of the last 6 hours, for
 * the Disk and Memory tabs; each null without a forecast (too little history, or not a server
 * that is up).
 */
export async function serverForecastsOf(db: Db, input: { id: string }): Promise<ServerForecasts> {
  const { id } = input;
  const [server] = isUuid(id) ? await db.select({ id: servers.id }).from(servers).where(eq(servers.id, id)).limit(1) : [];
  if (!server) throw notFound(`No server with id "${id}"`);
  const rows = await db.select().from(serverForecasts).where(sql`${serverForecasts.serverId} = ${id}::uuid`);
  const one = (metric: 'disk' | 'memory') => {
    const r = rows.find((x) => x.metric === metric);
    return r ? { hoursLeft: r.hoursLeft, fullAt: r.fullAt?.toISOString() ?? null, slopePerHour: r.slopePerHour, fittedNow: r.fittedNow, points: r.points, computedAt: r.computedAt.toISOString() } : null;
  };
  return { disk: one('disk'), memory: one('memory') };
}
