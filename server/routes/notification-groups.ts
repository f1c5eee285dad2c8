import { and, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  createNotificationGroupSchema,
  slackChannelMessage,
  slackRule,
  uniqueEmails,
  updateNotificationGroupSchema,
  type NotificationGroup,
} from '../contract/alerts';
import type { Db } from '../db/client';
import { notificationGroups } from '../db/schema';
import { badRequest, conflict } from '../http/errors';
import { registerResource } from './resource';

type GroupRow = typeof notificationGroups.$inferSelect;

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
  };
}

async function nameTaken(db: Db, name: string, exceptId?: string): Promise<boolean> {
  const where = and(sql`${notificationGroups.nameLc} = ${name.toLowerCase()}`, exceptId ? ne(notificationGroups.id, exceptId) : undefined);
  return (await db.select({ id: notificationGroups.id }).from(notificationGroups).where(where).limit(1)).length > 0;
}
const takenMessage = (name: string) => `A notification group named "${name}" already exists`;

/** SPEC §7 notification-groups: list (search by name), create, edit, get, delete. */
export function registerNotificationGroups(app: FastifyInstance, db: Db): void {
  registerResource<GroupRow, NotificationGroup>(app, db, {
    name: 'notification-groups',
    table: notificationGroups,
    id: notificationGroups.id,
    toApi: groupToApi,
    read: 'read',
    sortable: { createdAt: notificationGroups.createdAt, updatedAt: notificationGroups.updatedAt, name: notificationGroups.nameLc as never },
    filterable: {
      name: { column: notificationGroups.name, lower: notificationGroups.nameLc as never, ops: ['contains', 'eq'] },
      emailEnabled: { column: notificationGroups.emailEnabled, ops: ['eq'], kind: 'boolean' },
      slackEnabled: { column: notificationGroups.slackEnabled, ops: ['eq'], kind: 'boolean' },
      createdAt: { column: notificationGroups.createdAt, ops: ['between'], kind: 'date' },
    },
    search: [notificationGroups.nameLc as never],
    defaultSort: { by: 'createdAt', direction: 'desc' },
    create: {
      permission: 'groups.write',
      schema: createNotificationGroupSchema,
      async toRow(input, { db }) {
        if (await nameTaken(db, input.name)) throw conflict(takenMessage(input.name), 'name');
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
        const row: Record<string, unknown> = { ...input, updatedAt: new Date() };
        if (input.emailList) row.emailList = uniqueEmails(input.emailList);
        if (input.slackChannel !== undefined) row.slackChannel = input.slackChannel?.trim() || null;
        return row;
      },
    },
    // Rules that named the group fall back to none (foreign key "set null").
    remove: { permission: 'groups.write' },
  });
}
