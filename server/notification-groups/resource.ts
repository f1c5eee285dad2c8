import { and, inArray, ne, sql } from 'drizzle-orm';
import {
  createNotificationGroupSchema,
  slackChannelMessage,
  slackRule,
  uniqueEmails,
  updateNotificationGroupSchema,
  type EscalationStep,
  type NotificationGroup,
} from '../contract/alerts';
import type { Db } from '../db/client';
import { rowCount } from '../db/row-counts';
import { notificationGroups, oncallSchedules, shortGrams, users } from '../db/schema';
import { badRequest, conflict } from '../http/errors';
import type { ResourceDef } from '../routes/resource';
import { isUuid } from '../contract/ids';

export type GroupRow = typeof notificationGroups.$inferSelect;

export function groupToApi(row: GroupRow): NotificationGroup {
  return {
    _id: row.id,
    id: row.id,
    name: row.name,
    description: row.description,
    emailEnabled: row.emailEnabled,
    emailList: row.emailList,
    slackEnabled: row.slackEnabled,
    slackChannel: row.slackChannel,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    escalationSteps: row.escalationSteps ?? [],
    repeatIntervalSeconds: row.repeatIntervalSeconds,
    ackReminderSeconds: row.ackReminderSeconds,
  };
}

/** How the audit trail names a group. */
export const groupTarget = (row: { id: string; name: string }) => ({ kind: 'group', id: row.id, name: row.name });

/** Escalation steps name groups and users that exist (and not the group itself): a 400 naming the step's field. */
async function checkSteps(db: Db, steps: readonly EscalationStep[] | undefined, selfId?: string): Promise<void> {
  if (!steps?.length) return;
  const groupIds = [...new Set(steps.flatMap((s) => (s.groupId ? [s.groupId] : [])))];
  const userIds = [...new Set(steps.flatMap((s) => [...s.userIds, ...(s.pageUserIds ?? [])]))];
  const scheduleIds = [...new Set(steps.flatMap((s) => s.scheduleIds ?? []))];
  const schedules = new Set(scheduleIds.some((g) => !isUuid(g)) ? [] : scheduleIds.length ? (await db.select({ id: oncallSchedules.id }).from(oncallSchedules).where(inArray(oncallSchedules.id, scheduleIds))).map((g) => g.id) : []);
  const groups = new Set(groupIds.some((g) => !isUuid(g)) ? [] : groupIds.length ? (await db.select({ id: notificationGroups.id }).from(notificationGroups).where(inArray(notificationGroups.id, groupIds))).map((g) => g.id) : []);
  const people = new Set(userIds.some((u) => !isUuid(u)) ? [] : userIds.length ? (await db.select({ id: users.id }).from(users).where(inArray(users.id, userIds))).map((u) => u.id) : []);
  steps.forEach((s, i) => {
    if (s.groupId && s.groupId === selfId) throw badRequest(`escalationSteps.${i}.groupId: a step escalates to another group`, `escalationSteps.${i}.groupId`);
    if (s.groupId && !groups.has(s.groupId)) throw badRequest(`escalationSteps.${i}.groupId: no notification group with id "${s.groupId}"`, `escalationSteps.${i}.groupId`);
    const j = s.userIds.findIndex((u) => !people.has(u));
    if (j >= 0) throw badRequest(`escalationSteps.${i}.userIds.${j}: no user with id "${s.userIds[j]}"`, `escalationSteps.${i}.userIds.${j}`);
    const k = (s.scheduleIds ?? []).findIndex((id) => !schedules.has(id));
    if (k >= 0) throw badRequest(`escalationSteps.${i}.scheduleIds.${k}: no on-call schedule with id "${s.scheduleIds[k]}"`, `escalationSteps.${i}.scheduleIds.${k}`);
    const p = (s.pageUserIds ?? []).findIndex((u) => !people.has(u));
    if (p >= 0) throw badRequest(`escalationSteps.${i}.pageUserIds.${p}: no user with id "${s.pageUserIds[p]}"`, `escalationSteps.${i}.pageUserIds.${p}`);
  });
}

async function nameTaken(db: Db, name: string, exceptId?: string): Promise<boolean> {
  const where = and(sql`${notificationGroups.nameLc} = ${name.toLowerCase()}`, exceptId ? ne(notificationGroups.id, exceptId) : undefined);
  return (await db.select({ id: notificationGroups.id }).from(notificationGroups).where(where).limit(1)).length > 0;
}
const takenMessage = (name: string) => `A notification group named "${name}" already exists`;

/**
 * SPEC §7 notification-groups: list (search by name), create, edit, get, delete. A changed
 * escalation policy makes the evaluator look again at once (`changed`, after the commit).
 */
export function groupResource(changed: () => void): ResourceDef<GroupRow, NotificationGroup> {
  return {
    name: 'notification-groups',
    table: notificationGroups,
    id: notificationGroups.id,
    toApi: groupToApi,
    read: 'read',
    sortable: { createdAt: notificationGroups.createdAt, updatedAt: notificationGroups.updatedAt, name: notificationGroups.nameLc as never },
    filterable: {
      name: { column: notificationGroups.name, lower: notificationGroups.nameLc as never, grams: shortGrams(notificationGroups.nameLc as never), ops: ['contains', 'eq'] },
      emailEnabled: { column: notificationGroups.emailEnabled, ops: ['eq'], kind: 'boolean' },
      slackEnabled: { column: notificationGroups.slackEnabled, ops: ['eq'], kind: 'boolean' },
      createdAt: { column: notificationGroups.createdAt, ops: ['between'], kind: 'date' },
    },
    search: [{ lower: notificationGroups.nameLc as never, grams: shortGrams(notificationGroups.nameLc as never) }],
    total: (db) => rowCount(db, 'notification_groups'),
    defaultSort: { by: 'createdAt', direction: 'desc' },
    target: groupTarget,
    conflicts: { notification_groups_name_lc_idx: { field: 'name', message: 'A notification group with this name already exists' } },
    create: {
      permission: 'groups.write',
      schema: createNotificationGroupSchema,
      async toRow(input, { db }) {
        if (await nameTaken(db, input.name)) throw conflict(takenMessage(input.name), 'name');
        await checkSteps(db, input.escalationSteps);
        return { ...input, emailList: uniqueEmails(input.emailList), slackChannel: input.slackChannel?.trim() || null };
      },
    },
    update: {
      permission: 'groups.write',
      schema: updateNotificationGroupSchema,
      async toRow(input, existing, { db }) {
        if (input.name !== undefined && (await nameTaken(db, input.name, existing.id))) throw conflict(takenMessage(input.name), 'name');
        const merged = { slackEnabled: input.slackEnabled ?? existing.slackEnabled, slackChannel: input.slackChannel === undefined ? existing.slackChannel : input.slackChannel };
        if (!slackRule(merged)) throw badRequest(`slackChannel: ${slackChannelMessage}`, 'slackChannel');
        await checkSteps(db, input.escalationSteps, existing.id);
        const row: Record<string, unknown> = { ...input, updatedAt: new Date() };
        if (input.emailList) row.emailList = uniqueEmails(input.emailList);
        if (input.slackChannel !== undefined) row.slackChannel = input.slackChannel?.trim() || null;
        return row;
      },
      // A new escalation policy applies to the group's open alerts at once (issue 14 §6).
      async after(updated, input, { db: tx, afterCommit }) {
        if (input.escalationSteps === undefined && input.repeatIntervalSeconds === undefined && input.ackReminderSeconds === undefined) return;
        await tx.execute(sql`
          update alerts set next_action_at = now()
          where status <> 'resolved' and rule_id in (select id from alert_rules where notification_group_id = ${updated.id})`);
        afterCommit(changed);
      },
    },
    // Rules that named the group fall back to none (foreign key "set null").
    remove: { permission: 'groups.write' },
  };
}
