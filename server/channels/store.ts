import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { channelInputSchema, type ChannelConfig, type ChannelType, type ChannelUpdate, type NotificationChannel } from '../contract/channels';
import type { Db } from '../db/client';
import { notificationChannels } from '../db/schema';
import { pluginFor } from './index';
import { maskToken, maskUrl } from './mask';
import { SecretUnreadable, type SecretBox } from './secret-box';
import type { ChannelTarget } from './types';
import { isUuid } from '../contract/ids';

type ChannelRow = typeof notificationChannels.$inferSelect;

/** A stored target opened for sending, or the reason it cannot be. */
export type OpenedChannel = { row: ChannelRow; target: ChannelTarget; secretValues: string[]; error: null } | { row: ChannelRow; target: null; secretValues: []; error: string };

/** Every secret string of a target, for redaction. */
export function secretValues(secrets: Record<string, unknown>): string[] {
  return Object.values(secrets).flatMap((v) => (typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v).filter((x): x is string => typeof x === 'string') : []));
}

export function openChannel(box: SecretBox, row: ChannelRow): OpenedChannel {
  try {
    const secrets = JSON.parse(box.open(row.secrets, row.id)) as Record<string, unknown>;
    const parsed = channelInputSchema.safeParse({ type: row.type, name: row.name, settings: row.settings, secrets });
    if (!parsed.success) return { row, target: null, secretValues: [], error: `The stored ${row.type} channel "${row.name}" is not valid any more: ${parsed.error.issues[0]?.message ?? 'unknown'}` };
    return { row, target: { ...parsed.data, id: row.id } as ChannelTarget, secretValues: secretValues(secrets), error: null };
  } catch (error) {
    return { row, target: null, secretValues: [], error: error instanceof SecretUnreadable ? error.message : `The channel's secrets cannot be read: ${(error as Error).message}` };
  }
}

/** Secrets as the API shows them: URLs down to their host, tokens to their last four characters. */
export function maskSecrets(config: { secrets: Record<string, unknown> }): NotificationChannel['secrets'] {
  const out: NotificationChannel['secrets'] = {};
  for (const [k, v] of Object.entries(config.secrets)) {
    if (v === undefined || v === null) continue;
    if (typeof v === 'string') out[k] = k === 'url' ? maskUrl(v) : maskToken(v);
    else if (typeof v === 'object') out[k] = Object.fromEntries(Object.keys(v).map((h) => [h, '••••']));
  }
  return out;
}

export function channelToApi(box: SecretBox, row: ChannelRow): NotificationChannel {
  const opened = openChannel(box, row);
  const base = { _id: row.id, groupId: row.groupId, type: row.type as ChannelType, name: row.name, settings: row.settings as NotificationChannel['settings'], createdAt: row.createdAt.toISOString() };
  if (!opened.target) return { ...base, secrets: {}, target: opened.error };
  return { ...base, secrets: maskSecrets(opened.target), target: targetLine(opened.target) };
}

/** "pager: routing key ••••f00d": what the delivery log and the test results name. */
export const targetLine = (t: ChannelTarget) => `${t.name}: ${pluginFor(t.type).target(t as never)}`;

export async function listChannels(db: Db, groupId: string): Promise<ChannelRow[]> {
  return db.select().from(notificationChannels).where(eq(notificationChannels.groupId, groupId)).orderBy(asc(notificationChannels.createdAt), asc(notificationChannels.id));
}

export async function findChannel(db: Db, groupId: string, ref: string): Promise<ChannelRow | undefined> {
  const where = isUuid(ref) ? eq(notificationChannels.id, ref) : sql`${notificationChannels.nameLc} = ${ref.trim().toLowerCase()}`;
  const [row] = await db.select().from(notificationChannels).where(and(eq(notificationChannels.groupId, groupId), where)).limit(1);
  return row;
}

export async function insertChannel(db: Db, box: SecretBox, groupId: string, config: ChannelConfig): Promise<ChannelRow> {
  const id = randomUUID();
  const [row] = await db
    .insert(notificationChannels)
    .values({ id, groupId, type: config.type, name: config.name, settings: config.settings as Record<string, unknown>, secrets: box.seal(JSON.stringify(config.secrets), id) })
    .returning();
  return row!;
}

/**
 * A stored target with an update merged over it (contract/channels.ts channelUpdateSchema): what
 * is left out, and secrets given empty, are kept; `null` removes. The result is checked by the
 * caller with channelInputSchema, as a new target is.
 */
export function mergeChannelUpdate(current: { type: string; name: string; settings: unknown; secrets: unknown }, update: ChannelUpdate): Record<string, unknown> {
  const merge = (stored: Record<string, unknown>, given: Record<string, unknown> | undefined, keepEmpty: boolean) => {
    const out: Record<string, unknown> = { ...stored };
    for (const [k, v] of Object.entries(given ?? {})) {
      if (v === null) delete out[k];
      else if (keepEmpty && typeof v === 'string' && v.trim() === '') continue;
      else out[k] = v;
    }
    return out;
  };
  return {
    type: current.type,
    name: update.name ?? current.name,
    settings: merge(current.settings as Record<string, unknown>, update.settings, false),
    secrets: merge(current.secrets as Record<string, unknown>, update.secrets, true),
  };
}

/** Replaces a target's name, settings and secrets (sealed again, bound to the same row). */
export async function updateChannel(db: Db, box: SecretBox, row: ChannelRow, config: ChannelConfig): Promise<ChannelRow> {
  const [updated] = await db
    .update(notificationChannels)
    .set({ name: config.name, settings: config.settings as Record<string, unknown>, secrets: box.seal(JSON.stringify(config.secrets), row.id) })
    .where(eq(notificationChannels.id, row.id))
    .returning();
  return updated!;
}
