import { and, asc, eq } from 'drizzle-orm';
import type { AuditScope } from '../audit/trail';
import { pluginFor } from '../channels/index';
import type { SecretBox } from '../channels/secret-box';
import { channelToApi, findChannel, insertChannel, listChannels, mergeChannelUpdate, openChannel, updateChannel, type OpenedChannel } from '../channels/store';
import { channelInputSchema, MAX_CHANNELS_PER_GROUP, type ChannelConfig, type ChannelTestResult, type ChannelUpdate, type DeliveryLogEntry, type NotificationChannel } from '../contract/channels';
import { isUuid } from '../contract/ids';
import type { Db } from '../db/client';
import { alertDeliveries, alerts, notificationChannels, notificationGroups } from '../db/schema';
import { badRequest, conflict, fromZod, notFound, pgCode } from '../http/errors';
import type { OutboundPolicy } from '../outbound/policy';
import { groupTarget } from './resource';

/**
 * Issue 15 §1, §4: a group's channel targets (list, add, edit, remove), a test notification on
 * them, and an alert's delivery log. Secrets come in whole and go out masked. The checks that
 * take time (the outbound policy resolving a target's host) run before the change's transaction
 * opens; the writes run inside it.
 */

export type Group = typeof notificationGroups.$inferSelect;
type ChannelRow = OpenedChannel['row'];

export async function findGroup(db: Db, id: string): Promise<Group> {
  const [group] = isUuid(id) ? await db.select().from(notificationGroups).where(eq(notificationGroups.id, id)) : [];
  if (!group) throw notFound(`No notification group with id "${id}"`);
  return group;
}

export { groupTarget };

export async function groupChannels(db: Db, box: SecretBox, input: { id: string }): Promise<NotificationChannel[]> {
  const group = await findGroup(db, input.id);
  return (await listChannels(db, group.id)).map((row) => channelToApi(box, row));
}

/** The outbound policy on the URLs the target's owner chose: a 400 naming the field (they are decided again at each send). */
export async function refuseEndpoints(outbound: OutboundPolicy, config: ChannelConfig): Promise<void> {
  for (const { field, url } of pluginFor(config.type).endpoints(config as never)) {
    const refused = await outbound.urlRefusal(url, 'channel');
    if (refused) throw badRequest(`${field}: ${refused}`, field);
  }
}

const nameTaken = (name: string) => conflict(`This group already has a channel named "${name}"`, 'name');

/** A unique-index race past the name check is the same 409. */
async function orNameTaken<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (pgCode(error) === '23505') throw nameTaken(name);
    throw error;
  }
}

export async function findGroupChannel(db: Db, group: Group, ref: string): Promise<ChannelRow> {
  const row = await findChannel(db, group.id, ref);
  if (!row) throw notFound(`Notification group "${group.name}" has no channel "${ref}"`);
  return row;
}

/** Adds a channel target: at most MAX_CHANNELS_PER_GROUP per group, names unique within it (any case). */
export async function addChannel(tx: Db, box: SecretBox, input: { group: Group; config: ChannelConfig }): Promise<NotificationChannel> {
  const { group, config } = input;
  const row = await orNameTaken(config.name, async () => {
    const existing = await listChannels(tx, group.id);
    if (existing.length >= MAX_CHANNELS_PER_GROUP) throw badRequest(`A notification group has at most ${MAX_CHANNELS_PER_GROUP} channels`, 'type');
    if (existing.some((c) => c.name.toLowerCase() === config.name.toLowerCase())) throw nameTaken(config.name);
    return insertChannel(tx, box, group.id, config);
  });
  return channelToApi(box, row);
}

/**
 * The target an edit makes (issue 15): the type stays; secrets left out or empty are kept (they
 * are never shown to be sent back). Unreadable secrets (another key) cannot be merged: every
 * secret must be given again. Checked as a whole new target is (a 400 naming the field).
 */
export function editedConfig(box: SecretBox, row: ChannelRow, update: ChannelUpdate): ChannelConfig {
  const opened = openChannel(box, row);
  const base = opened.target ?? { type: row.type, name: row.name, settings: row.settings, secrets: {} };
  const parsed = channelInputSchema.safeParse(mergeChannelUpdate(base, update));
  if (!parsed.success) throw fromZod(parsed.error);
  return parsed.data;
}

export async function editChannel(tx: Db, box: SecretBox, input: { group: Group; row: ChannelRow; config: ChannelConfig }): Promise<NotificationChannel> {
  const { group, row, config } = input;
  const updated = await orNameTaken(config.name, async () => {
    const others = (await listChannels(tx, group.id)).filter((c) => c.id !== row.id);
    if (others.some((c) => c.name.toLowerCase() === config.name.toLowerCase())) throw nameTaken(config.name);
    return updateChannel(tx, box, row, config);
  });
  return channelToApi(box, updated);
}

/** Removes a channel target; answers it as it was. */
export async function removeChannel(tx: Db, box: SecretBox, input: { group: Group; row: ChannelRow }): Promise<NotificationChannel> {
  const { group, row } = input;
  await tx.delete(notificationChannels).where(and(eq(notificationChannels.id, row.id), eq(notificationChannels.groupId, group.id)));
  return channelToApi(box, row);
}

/** A test send names one of the group's channels (by id or name), its email or Slack, or none (all). */
export async function checkTestChannel(db: Db, group: Group, ref: string | undefined): Promise<void> {
  if (ref && !['email', 'slack'].includes(ref.toLowerCase())) await findGroupChannel(db, group, ref);
}

/**
 * The answer lists every channel's outcome (200); the history records the run as failed when
 * any channel did not take the message, with the reasons (already redacted of secrets).
 */
export function recordTestOutcome(group: Group, results: ChannelTestResult[], audit: AuditScope): void {
  const failed = results.filter((r) => !r.ok);
  if (!results.length) audit.fail(`Notification group "${group.name}" has no channel to test`);
  else if (failed.length) audit.fail(`${failed.length} of ${results.length} channel${results.length === 1 ? '' : 's'} failed the test: ${failed.map((r) => `${r.name}: ${r.error ?? 'failed'}`).join('; ')}`);
}

/** An alert's delivery log: every attempt on every channel, oldest first (at most 1000). */
export async function alertDeliveryLog(db: Db, input: { id: string }): Promise<DeliveryLogEntry[]> {
  const [alert] = isUuid(input.id) ? await db.select({ id: alerts.id }).from(alerts).where(eq(alerts.id, input.id)) : [];
  if (!alert) throw notFound(`No alert with id "${input.id}"`);
  const rows = await db
    .select({ d: alertDeliveries, name: notificationChannels.name })
    .from(alertDeliveries)
    .leftJoin(notificationChannels, eq(notificationChannels.id, alertDeliveries.channelId))
    .where(eq(alertDeliveries.alertId, alert.id))
    .orderBy(asc(alertDeliveries.at), asc(alertDeliveries.id))
    .limit(1000);
  return rows.map(
    ({ d, name }): DeliveryLogEntry => ({
      _id: d.id,
      at: d.at.toISOString(),
      transition: d.transition,
      channel: d.channel,
      channelName: name,
      target: d.target,
      attempt: d.attempt,
      outcome: d.outcome,
      responseCode: d.responseCode,
      error: d.error,
      retryAt: d.retryAt?.toISOString() ?? null,
      message: d.message ? { subject: d.message.subject ?? null, text: d.message.text } : null,
    }),
  );
}
