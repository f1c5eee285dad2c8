import { and, desc, eq, inArray, isNull, or, gte } from 'drizzle-orm';
import { STATUS_DAYS, type PublicIncident, type PublicItem, type PublicState, type PublicStatus } from '../contract/status-pages';
import type { Database } from '../db/client';
import { checks, servers, statusIncidents, statusPages, statusPosts } from '../db/schema';
import type { CheckStore } from '../monitoring/checks/check-store';
import { serverUptime } from './server-uptime';

type PageRow = typeof statusPages.$inferSelect;

/** Resolved incidents shown under the open one: the newest few, of the last 90 days. */
const RESOLVED_SHOWN = 10;
const DAY_MS = 86_400_000;

function serverState(s: { state: string; suppressAlarm: string; status: string }): PublicState {
  if (s.status !== 'active') return 'unknown';
  if (s.suppressAlarm === 'yes') return 'maintenance';
  return s.state === 'up' ? 'up' : s.state === 'down' ? 'down' : 'unknown';
}

function checkState(c: { state: string; paused: boolean }): PublicState {
  if (c.paused) return 'maintenance';
  return c.state === 'up' ? 'up' : c.state === 'down' ? 'down' : 'unknown';
}

/**
 * What /status/<slug> shows, built field by field from the page's own choices: display names
 * instead of hostnames or check names, an address only where the admin ticked it, no ids, no
 * authors. Items whose server or check was deleted are left out.
 */
export async function publicStatus(database: Database, checkStore: CheckStore, page: PageRow, nowMs = Date.now()): Promise<PublicStatus> {
  const db = database.db;
  const items = page.groups.flatMap((g) => g.items);
  const serverIds = [...new Set(items.filter((i) => i.kind === 'server').map((i) => i.id))];
  const checkIds = [...new Set(items.filter((i) => i.kind === 'check').map((i) => i.id))];
  const [serverRows, checkRows] = await Promise.all([
    serverIds.length
      ? db
          .select({ id: servers.id, ipaddress: servers.ipaddress, state: servers.state, suppressAlarm: servers.suppressAlarm, status: servers.status, createdAt: servers.createdAt })
          .from(servers)
          .where(inArray(servers.id, serverIds))
      : [],
    checkIds.length ? db.select({ id: checks.id, target: checks.target, state: checks.state, paused: checks.paused }).from(checks).where(inArray(checks.id, checkIds)) : [],
  ]);
  const serverById = new Map(serverRows.map((s) => [s.id, s]));
  const checkById = new Map(checkRows.map((c) => [c.id, c]));
  const [serverDays, checkDays] = await Promise.all([
    serverUptime(database, serverRows, nowMs, STATUS_DAYS),
    checkStore.uptime(
      checkRows.map((c) => c.id),
      nowMs,
      STATUS_DAYS,
    ),
  ]);

  const groups: PublicStatus['groups'] = [];
  for (const g of page.groups) {
    const out: PublicItem[] = [];
    for (const item of g.items) {
      if (item.kind === 'server') {
        const s = serverById.get(item.id);
        if (!s) continue;
        const u = serverDays.get(s.id)!;
        out.push({ name: item.displayName, state: serverState(s), ...(item.showAddress ? { address: s.ipaddress } : {}), uptime90d: u.uptime90d, days: u.days });
      } else {
        const c = checkById.get(item.id);
        if (!c) continue;
        const u = checkDays.get(c.id);
        out.push({
          name: item.displayName,
          state: checkState(c),
          ...(item.showAddress ? { address: c.target } : {}),
          uptime90d: u?.uptime90d ?? null,
          days: (u?.days ?? []).map((d) => ({ day: d.day, uptime: d.uptime })),
        });
      }
    }
    if (out.length || g.name) groups.push({ name: g.name, items: out });
  }

  const all = groups.flatMap((g) => g.items);
  const overall = all.some((i) => i.state === 'down') ? 'down' : all.some((i) => i.state === 'unknown') ? 'unknown' : 'up';
  return { title: page.title, description: page.description, overall, groups, incidents: await incidentsOf(database, page.id, nowMs), generatedAt: new Date(nowMs).toISOString() };
}

/** The open incident and the newest resolved ones of the last 90 days, each with its posts (oldest first). */
export async function incidentsOf(database: Database, pageId: string, nowMs = Date.now()): Promise<PublicIncident[]> {
  const db = database.db;
  const since = new Date(nowMs - STATUS_DAYS * DAY_MS);
  const incidents = await db
    .select()
    .from(statusIncidents)
    .where(and(eq(statusIncidents.pageId, pageId), or(isNull(statusIncidents.resolvedAt), gte(statusIncidents.resolvedAt, since))))
    .orderBy(desc(statusIncidents.createdAt))
    .limit(RESOLVED_SHOWN + 1);
  if (!incidents.length) return [];
  const posts = await db
    .select({ incidentId: statusPosts.incidentId, at: statusPosts.createdAt, body: statusPosts.body, resolves: statusPosts.resolves })
    .from(statusPosts)
    .where(
      inArray(
        statusPosts.incidentId,
        incidents.map((i) => i.id),
      ),
    )
    .orderBy(statusPosts.createdAt, statusPosts.id);
  const open = incidents.filter((i) => !i.resolvedAt);
  const resolved = incidents.filter((i) => i.resolvedAt).slice(0, RESOLVED_SHOWN);
  return [...open, ...resolved].map((i) => ({
    title: i.title,
    startedAt: i.createdAt.toISOString(),
    resolvedAt: i.resolvedAt?.toISOString() ?? null,
    posts: posts.filter((p) => p.incidentId === i.id).map((p) => ({ at: p.at.toISOString(), body: p.body, resolves: p.resolves })),
  }));
}
