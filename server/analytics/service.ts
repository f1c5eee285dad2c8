import { and, asc, count, desc, eq, gt, sql, type SQL } from 'drizzle-orm';
import {
  DEFAULT_THRESHOLD,
  type AlertsSummary,
  type CpuUsageRow,
  type DiskUsageRow,
  type DownServerRow,
  type MemoryUsageRow,
  type NodesSummary,
  type ServiceDownRow,
} from '../contract/analytics';
import type { Db } from '../db/client';
import { alerts, servers, services } from '../db/schema';

/**
 * SPEC §7 Analytics: the home dashboard's figures, read from the server rows and service
 * records that monitoring writes in both modes (the built-in scraper and Prometheus mode write
 * the same columns, docs/metrics.md), so the dashboard and the Servers list never disagree.
 *
 * Which servers count (docs/decisions.md "Dashboard"): active and agent-configured ones, in
 * maintenance or not (maintenance silences alerts, not facts). Usage and services come only
 * from servers that are up: a down server keeps its last figures, which would be stale here,
 * and it is listed under Instance Down instead.
 */
const monitored = and(eq(servers.status, 'active'), eq(servers.isAgentConfigured, true));
const upAndMonitored = and(monitored, eq(servers.state, 'up'));

/** The card's threshold: above it is strict, as SPEC's "above 90" (and the alert rules, docs/alerting.md). */
type Threshold = { percentage?: number };
const above = (input: Threshold) => input.percentage ?? DEFAULT_THRESHOLD;

export async function topCpu(db: Db, input: Threshold): Promise<CpuUsageRow[]> {
  const found = await db
    .select({ serverId: servers.id, hostname: servers.hostname, ipaddress: servers.ipaddress, value: servers.cpuUsage })
    .from(servers)
    .where(and(upAndMonitored, gt(servers.cpuUsage, above(input))))
    .orderBy(desc(servers.cpuUsage), asc(servers.hostnameLc));
  return found.map((r) => ({ ...r, value: r.value!, mode: 'busy' }));
}

export async function topMemory(db: Db, input: Threshold): Promise<MemoryUsageRow[]> {
  const found = await db
    .select({ serverId: servers.id, hostname: servers.hostname, ipaddress: servers.ipaddress, value: servers.memoryUsage })
    .from(servers)
    .where(and(upAndMonitored, gt(servers.memoryUsage, above(input))))
    .orderBy(desc(servers.memoryUsage), asc(servers.hostnameLc));
  return found.map((r) => ({ ...r, value: r.value!, mountpoint: null }));
}

/**
 * Selected by percent *used* (diskUsage) like the other cards; `value` is SPEC's: percent
 * available of `/` for Linux, percent used for Windows (docs/metrics.md "Disk usage").
 */
export async function topDisk(db: Db, input: Threshold): Promise<DiskUsageRow[]> {
  const found = await db
    .select({ serverId: servers.id, hostname: servers.hostname, ipaddress: servers.ipaddress, used: servers.diskUsage, os: servers.operatingSystem })
    .from(servers)
    .where(and(upAndMonitored, gt(servers.diskUsage, above(input))))
    .orderBy(desc(servers.diskUsage), asc(servers.hostnameLc));
  return found.map(({ used, ...r }) => (r.os === 'windows' ? { ...r, value: used!, mountpoint: null } : { ...r, value: 100 - used!, mountpoint: '/' }));
}

/** Servers never scraped yet (state unknown) count in the total only. */
export async function nodesSummary(db: Db): Promise<NodesSummary> {
  const [r] = await db
    .select({
      total: count(),
      up: sql<number>`count(*) filter (where ${servers.state} = 'up')`.mapWith(Number),
      down: sql<number>`count(*) filter (where ${servers.state} = 'down')`.mapWith(Number),
    })
    .from(servers)
    .where(monitored);
  return { total_nodes: r?.total ?? 0, total_nodes_up: r?.up ?? 0, total_nodes_down: r?.down ?? 0 };
}

/**
 * Every alert there is; snoozed ones count in the total only. Firing and snoozed are index
 * ranges of (status, created_at) and resolved is the rest, which at 100,000 alerts costs a
 * fraction of grouping every row by status (docs/benchmarks.md "npm run bench -- dashboard").
 */
export async function alertsSummary(db: Db): Promise<AlertsSummary> {
  const [r] = await db
    .select({
      total: sql<number>`(select count(*) from ${alerts})`.mapWith(Number),
      firing: sql<number>`(select count(*) from ${alerts} where ${alerts.status} = 'firing')`.mapWith(Number),
      snoozed: sql<number>`(select count(*) from ${alerts} where ${alerts.status} = 'snoozed')`.mapWith(Number),
    })
    .from(sql`(select 1) as one`);
  const total = r?.total ?? 0;
  const firing = r?.firing ?? 0;
  return { total_alerts: total, total_alerts_firing: firing, total_alerts_resolved: total - firing - (r?.snoozed ?? 0) };
}

export async function servicesDown(db: Db): Promise<ServiceDownRow[]> {
  return db
    .select({ serverId: servers.id, hostname: servers.hostname, ipaddress: servers.ipaddress, service: services.serviceName })
    .from(services)
    .innerJoin(servers, eq(services.serverId, servers.id))
    .where(and(upAndMonitored, eq(services.status, 'down')))
    .orderBy(asc(servers.hostnameLc), asc(services.serviceNameLc));
}

/** Newest outage first: what just broke matters most. */
export async function downServers(db: Db): Promise<DownServerRow[]> {
  const since: SQL<Date | null> = sql`${servers.stateChangedAt}`;
  return db
    .select({
      serverId: servers.id,
      hostname: servers.hostname,
      ipaddress: servers.ipaddress,
      // The database clock, the same one that stamped state_changed_at.
      downtime: sql<number>`greatest(0, floor(extract(epoch from (now() - coalesce(${since}, ${servers.lastScrapedAt}, now())))))`.mapWith(Number),
    })
    .from(servers)
    .where(and(monitored, eq(servers.state, 'down')))
    .orderBy(sql`coalesce(${since}, ${servers.lastScrapedAt}) desc nulls last`, asc(servers.hostnameLc));
}
