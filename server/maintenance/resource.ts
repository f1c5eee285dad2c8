import { randomUUID } from 'node:crypto';
import { inArray, sql } from 'drizzle-orm';
import { createWindowSchema, updateWindowSchema, type MaintenanceWindow, type Matcher } from '../contract/routing';
import type { Whoami } from '../contract/auth';
import { isUuid } from '../contract/ids';
import type { Db } from '../db/client';
import { alertEvents, maintenanceWindows, servers } from '../db/schema';
import { compileAll } from '../alerting/matchers';
import { validateWindowTimes, WindowSchedule } from '../alerting/windows';
import { badRequest } from '../http/errors';
import type { ResourceDef } from '../routes/resource';

export type WindowRow = typeof maintenanceWindows.$inferSelect;
const DAY = 86_400_000;
/** How far back a retroactive window marks alerts: the incident report's longest window. */
const RETRO_MS = 31 * DAY;
const utc = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export const scheduleOf = (row: Pick<WindowRow, 'startsAt' | 'endsAt' | 'timezone' | 'rrule'>) => new WindowSchedule({ startsAt: row.startsAt, endsAt: row.endsAt, timezone: row.timezone, rrule: row.rrule });

export function windowToApi(row: WindowRow, now = new Date()): MaintenanceWindow {
  const schedule = scheduleOf(row);
  const active = schedule.activeAt(now);
  const nextStart = active ? null : schedule.nextBoundary(now);
  const next = active ?? (nextStart ? { start: nextStart, end: new Date(nextStart.getTime() + row.endsAt.getTime() - row.startsAt.getTime()) } : null);
  return {
    _id: row.id,
    id: row.id,
    name: row.name,
    comment: row.comment,
    serverIds: row.serverIds,
    matchers: row.matchers,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    timezone: row.timezone,
    rrule: row.rrule,
    createdBy: { _id: row.createdById, username: row.createdByName },
    state: active ? 'active' : next ? 'scheduled' : 'past',
    next: next ? { start: next.start.toISOString(), end: next.end.toISOString() } : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Servers named by id exist; matchers compile; times and rule hold (400 naming the field). */
async function check(db: Db, w: { serverIds: string[]; matchers: Matcher[]; startsAt: Date; endsAt: Date; timezone: string; rrule: string | null }): Promise<void> {
  if (!w.serverIds.length && !w.matchers.length) throw badRequest('serverIds: a window covers servers (serverIds) or alerts matching matchers', 'serverIds');
  const bad = w.serverIds.findIndex((id) => !isUuid(id));
  if (bad >= 0) throw badRequest(`serverIds.${bad}: no server with id "${w.serverIds[bad]}"`, `serverIds.${bad}`);
  if (w.serverIds.length) {
    const found = new Set((await db.select({ id: servers.id }).from(servers).where(inArray(servers.id, w.serverIds))).map((s) => s.id));
    const i = w.serverIds.findIndex((id) => !found.has(id));
    if (i >= 0) throw badRequest(`serverIds.${i}: no server with id "${w.serverIds[i]}"`, `serverIds.${i}`);
  }
  compileAll(w.matchers);
  validateWindowTimes(w);
}

/**
 * Retroactive marking (issue 14 §3): alerts that opened inside a past occurrence of the window
 * (the last 31 days) and that it covers get a timeline note "Marked as planned downtime", so the
 * incident report and a reader of the alert see it was planned. Returns how many were marked.
 */
async function markPast(db: Db, row: WindowRow, user: Whoami, now: Date): Promise<number> {
  const past = scheduleOf(row).between(new Date(now.getTime() - RETRO_MS), now, 500).filter((o) => o.start < now);
  if (!past.length) return 0;
  const candidates = (
    await db.execute<{ id: string; server_id: string; created_at: string | Date; hostname: string; alertname: string; type: string; severity: string; service: string | null; mountpoint: string | null; labels: Record<string, string> | string }>(sql`
      select a.id, a.server_id, a.created_at, a.hostname, a.alertname, a.type, a.severity, a.service, a.mountpoint, s.labels
      from alerts a join servers s on s.id = a.server_id
      where a.created_at >= ${past[0]!.start.toISOString()}::timestamptz and a.created_at < ${past.at(-1)!.end.toISOString()}::timestamptz
        and not exists (select 1 from alert_events e where e.alert_id = a.id and e.note like ${`Marked as planned downtime: window “${row.name.replace(/[\\%_]/g, (c) => `\\${c}`)}”%`})`)
  ).rows;
  const ids = new Set(row.serverIds);
  const match = row.matchers.length ? compileAll(row.matchers) : null;
  const marked = candidates.flatMap((a) => {
    const created = new Date(a.created_at).getTime();
    const occ = past.find((o) => o.start.getTime() <= created && created < o.end.getTime());
    if (!occ) return [];
    const labels = typeof a.labels === 'string' ? (JSON.parse(a.labels) as Record<string, string>) : (a.labels ?? {});
    if (!ids.has(a.server_id) && !(match && match({ ...a, labels }))) return [];
    return [{ id: randomUUID(), alertId: a.id, type: 'playbook_action' as const, at: now, userId: user._id, username: user.username, note: `Marked as planned downtime: window “${row.name}” (${utc(occ.start)} – ${utc(occ.end)}).` }];
  });
  for (let i = 0; i < marked.length; i += 1000) await db.insert(alertEvents).values(marked.slice(i, i + 1000));
  return marked.length;
}

/**
 * Issue 14 §3 maintenance windows as SPEC's generic list / one / create / update / delete. Every
 * change makes the evaluator look again at once (`changed`, after the commit). Writes need
 * `servers.write`, as the maintenance toggle does.
 */
export function windowResource(changed: () => void): ResourceDef<WindowRow, MaintenanceWindow> {
  return {
    name: 'maintenance-windows',
    table: maintenanceWindows,
    id: maintenanceWindows.id,
    toApi: (row) => windowToApi(row),
    read: 'read',
    sortable: { createdAt: maintenanceWindows.createdAt, startsAt: maintenanceWindows.startsAt, name: maintenanceWindows.nameLc as never },
    filterable: { name: { column: maintenanceWindows.name, lower: maintenanceWindows.nameLc as never, ops: ['contains', 'eq'] } },
    search: [{ lower: maintenanceWindows.nameLc as never }],
    defaultSort: { by: 'startsAt', direction: 'desc' },
    target: (row) => ({ kind: 'maintenance-window', id: row.id, name: row.name }),
    create: {
      permission: 'servers.write',
      schema: createWindowSchema,
      async toRow(input, { db: tx, user }) {
        const w = { ...input, startsAt: new Date(input.startsAt), endsAt: new Date(input.endsAt), rrule: input.rrule || null };
        await check(tx, w);
        const now = new Date();
        return { ...w, createdById: user._id, createdByName: user.username, createdAt: now, updatedAt: now };
      },
      async after(created, { db: tx, user, afterCommit }) {
        const marked = await markPast(tx, created, user, new Date());
        afterCommit(changed);
        return { marked };
      },
    },
    update: {
      permission: 'servers.write',
      schema: updateWindowSchema,
      async toRow(input, existing, { db: tx }) {
        const w = {
          serverIds: input.serverIds ?? existing.serverIds,
          matchers: input.matchers ?? existing.matchers,
          startsAt: input.startsAt ? new Date(input.startsAt) : existing.startsAt,
          endsAt: input.endsAt ? new Date(input.endsAt) : existing.endsAt,
          timezone: input.timezone ?? existing.timezone,
          rrule: input.rrule === undefined ? existing.rrule : input.rrule || null,
        };
        await check(tx, w);
        return { ...w, ...(input.name !== undefined ? { name: input.name } : {}), ...(input.comment !== undefined ? { comment: input.comment } : {}), updatedAt: new Date() };
      },
      async after(updated, _input, { db: tx, user, afterCommit }) {
        const marked = await markPast(tx, updated, user, new Date());
        afterCommit(changed);
        return { marked };
      },
    },
    remove: { permission: 'servers.write', after: async (_row, { afterCommit }) => afterCommit(changed) },
  };
}
