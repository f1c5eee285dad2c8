import { inArray } from 'drizzle-orm';
import { matcherText } from '../contract/routing';
import type { Db } from '../db/client';
import { maintenanceWindows, servers } from '../db/schema';
import { compileAll, compileServerLevel } from '../alerting/matchers';
import { WindowSchedule } from '../alerting/windows';

/**
 * Planned downtime for the incident report (issue 14 §3): the maintenance windows in force during
 * the report's window, and for each alert whether it opened inside one of them — so a reader does
 * not count planned work as an incident. An alert counts as planned when it opened inside an
 * occurrence of a window that covers it (its server by id, or matchers on its fields and its
 * server's labels), as the router decides while the window runs and retroactive marking decides
 * after it; and, for windows deleted since, when its timeline says so (the router's "In
 * maintenance (window …" note or a "Marked as planned downtime: window …" note).
 */

export interface PlannedWindow {
  name: string;
  start: Date;
  end: Date;
  /** What it covers, as text: hostnames and matchers. */
  covers: string;
}

export interface PlannedMark {
  window: string;
  start: Date | null;
  end: Date | null;
}

interface AlertFacts {
  id: string;
  serverId: string | null;
  createdAt: Date;
  hostname: string;
  alertname: string;
  type: string;
  severity: string;
  service: string | null;
  mountpoint: string | null;
  timeline: { note: string | null }[];
}

/** At most this many occurrences per window are looked at (a daily window over 31 days is 33). */
const PER_WINDOW = 500;
const MARKED = /^Marked as planned downtime: window “(.+)” \(/;
const IN_MAINTENANCE = /^In maintenance \(window “(.+)”, until /;

export async function plannedDowntime(
  db: Db,
  range: { from: Date; to: Date },
  server: { id: string; hostname: string } | null,
  alerts: readonly AlertFacts[],
): Promise<{ windows: PlannedWindow[]; byAlert: Map<string, PlannedMark> }> {
  const byAlert = new Map<string, PlannedMark>();
  const rows = await db.select().from(maintenanceWindows);
  const serverIds = [...new Set([...alerts.map((a) => a.serverId).filter((id): id is string => !!id), ...(server ? [server.id] : []), ...rows.flatMap((w) => w.serverIds)])];
  const known = serverIds.length ? await db.select({ id: servers.id, hostname: servers.hostname, labels: servers.labels }).from(servers).where(inArray(servers.id, serverIds)) : [];
  const serverOf = new Map(known.map((s) => [s.id, s]));
  // Alerts open during the report may have opened long before it: look back to the oldest.
  const earliest = new Date(Math.min(range.from.getTime(), ...alerts.map((a) => a.createdAt.getTime())));

  const windows: PlannedWindow[] = [];
  for (const w of rows) {
    let schedule: WindowSchedule;
    let match: ReturnType<typeof compileAll> | null;
    let serverMatch: ReturnType<typeof compileServerLevel> | null;
    try {
      schedule = new WindowSchedule({ startsAt: w.startsAt, endsAt: w.endsAt, timezone: w.timezone, rrule: w.rrule });
      match = w.matchers.length ? compileAll(w.matchers) : null;
      serverMatch = w.matchers.length ? compileServerLevel(w.matchers) : null;
    } catch {
      continue; // a window stored before a rule tightened: the router ignores it too
    }
    const occurrences = schedule.between(earliest, range.to, PER_WINDOW);
    if (!occurrences.length) continue;
    // A report on one server lists the windows that can cover it.
    const s = server ? serverOf.get(server.id) : undefined;
    const coversServer = !server || w.serverIds.includes(server.id) || (!!serverMatch && !!s && serverMatch({ hostname: s.hostname, labels: s.labels }));
    if (coversServer) {
      const hosts = w.serverIds.map((id) => serverOf.get(id)?.hostname ?? 'a deleted server');
      const covers = [...hosts, ...w.matchers.map(matcherText)].join(', ');
      for (const o of occurrences) if (o.start < range.to && o.end > range.from) windows.push({ name: w.name, start: o.start, end: o.end, covers });
    }
    for (const a of alerts) {
      if (byAlert.has(a.id)) continue;
      const labels = (a.serverId && serverOf.get(a.serverId)?.labels) || {};
      const covered = (a.serverId !== null && w.serverIds.includes(a.serverId)) || (match !== null && match({ ...a, labels }));
      if (!covered) continue;
      const t = a.createdAt.getTime();
      const o = occurrences.find((x) => x.start.getTime() <= t && t < x.end.getTime());
      if (o) byAlert.set(a.id, { window: w.name, start: o.start, end: o.end });
    }
  }
  for (const a of alerts) {
    if (byAlert.has(a.id)) continue;
    for (const e of a.timeline) {
      const m = e.note ? (MARKED.exec(e.note) ?? IN_MAINTENANCE.exec(e.note)) : null;
      if (m) {
        byAlert.set(a.id, { window: m[1]!, start: null, end: null });
        break;
      }
    }
  }
  windows.sort((x, y) => x.start.getTime() - y.start.getTime() || x.name.localeCompare(y.name));
  return { windows, byAlert };
}
