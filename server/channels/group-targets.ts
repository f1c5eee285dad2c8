import type { Db } from '../db/client';
import type { notificationGroups } from '../db/schema';
import type { OutboundFetch } from '../outbound/http-client';
import type { Mailer } from './email';
import { pluginFor } from './index';
import { redact } from './mask';
import type { SecretBox } from './secret-box';
import { listChannels, openChannel, targetLine } from './store';
import { asChannelError, type ChannelError, type ChannelMessage, type ChannelPlugin, type ChannelTarget, type DeliveryChannel, type SendResult, type TargetOf } from './types';

type GroupRow = typeof notificationGroups.$inferSelect;

/**
 * One place a group's notification goes: its email list, its Slack channel, or one of its stored
 * targets. The delivery worker's real sends and test sends walk the same list, each target
 * through its plugin (`trySend`).
 */
export interface GroupTarget {
  channel: DeliveryChannel;
  /** A stored target's id; null for the group's own email list and Slack channel. */
  channelId: string | null;
  /** What test results call it, and what `group.test --channel` picks it by (with `ref`). */
  name: string;
  ref: string;
  /** Null: a stored target that cannot be opened, for `error`; it fails once, not retried. */
  config: TargetOf<DeliveryChannel> | null;
  error: string | null;
  /** Redacted from every error it reports. */
  secretValues: string[];
}

/** What the group's own channels send with: the console's SMTP_URL (as a mailer) and SLACK_*. */
export interface OwnChannels {
  mailer: Mailer | null;
  slackBotToken?: string;
  slackApiUrl: string;
  /** SLACK_SIGNING_SECRET is set: the group's Slack messages carry buttons that act (issue 27 §4). */
  slackInteractive?: boolean;
}

/**
 * A group's targets in the order they are tried and listed: its email list (`emails`, null when
 * it sends no email), its Slack channel, then its stored targets. Without a group, the named
 * users' email only.
 */
export async function groupTargets(db: Db, box: SecretBox, group: GroupRow | undefined, emails: string[] | null, own: OwnChannels): Promise<GroupTarget[]> {
  const ownTarget = (config: TargetOf<'email' | 'slack'>, secretValues: string[] = []): GroupTarget => ({ channel: config.type, channelId: null, name: config.name, ref: config.id, config, error: null, secretValues });
  const targets: GroupTarget[] = [];
  if (emails) targets.push(ownTarget({ type: 'email', id: 'email', name: pluginFor('email').label, to: emails, mailer: own.mailer }));
  const token = own.slackBotToken ?? null;
  if (group?.slackEnabled) targets.push(ownTarget({ type: 'slack', id: 'slack', name: pluginFor('slack').label, channel: group.slackChannel?.trim() ?? '', token, apiUrl: own.slackApiUrl, interactive: !!own.slackInteractive }, token ? [token] : []));
  for (const opened of group ? (await listChannels(db, group.id)).map((r) => openChannel(box, r)) : []) {
    targets.push({ channel: opened.row.type as DeliveryChannel, channelId: opened.row.id, name: opened.row.name, ref: opened.row.id, config: opened.target, error: opened.error, secretValues: opened.secretValues });
  }
  return targets;
}

/** A target's plugin; undefined for a stored type no plugin knows any more. */
export const pluginOf = (t: GroupTarget) => pluginFor(t.channel) as ChannelPlugin | undefined;

/** A stored target's line carries its name ("pager: routing key ••••f00d"); the group's own channels' do not. */
const lineOf = (t: GroupTarget, plugin: ChannelPlugin, config: TargetOf<DeliveryChannel>) => (t.channelId ? targetLine(config as ChannelTarget) : plugin.target(config));

/** What one send on one target came to. */
export type Outcome =
  /** A stored target that cannot be opened: fails once, not retried. */
  | { kind: 'unusable'; target: string; error: string | null }
  /** The plugin cannot send at all (`unready`): skipped, with the message it would have sent. */
  | { kind: 'skipped'; target: string; error: string; preview: () => { subject: string | null; text: string } | null }
  /** A retry that finds everybody has the message. */
  | { kind: 'nobody' }
  | { kind: 'sent'; target: string; sent: SendResult }
  /** `error`: the failure's words with the target's secrets redacted. */
  | { kind: 'failed'; target: string; failure: ChannelError; error: string };

/**
 * One send on one target through its plugin, before it is recorded (a real send) or answered
 * (a test). `sent`: the targets of a real send's earlier attempts that were sent, for a plugin
 * that goes on with who has not had it (email). Never throws for the peer's sake.
 */
export async function trySend(t: GroupTarget, message: ChannelMessage, options: { timeoutMs: number; fetch: OutboundFetch }, sent?: string[]): Promise<Outcome> {
  const plugin = pluginOf(t);
  if (!t.config || !plugin) return { kind: 'unusable', target: t.name, error: t.error };
  const current = t.config;
  const unready = plugin.unready?.(current);
  if (unready) return { kind: 'skipped', target: lineOf(t, plugin, current), error: unready, preview: () => plugin.preview?.(current, message) ?? null };
  const config = sent && plugin.resume ? plugin.resume(current, sent) : current;
  if (!config) return { kind: 'nobody' };
  const target = lineOf(t, plugin, config);
  try {
    return { kind: 'sent', target, sent: await plugin.send(config, message, options) };
  } catch (error) {
    const e = asChannelError(error);
    return { kind: 'failed', target, failure: e, error: redact(e.message, t.secretValues) };
  }
}

/** "a@x: refused by the SMTP server (550 5.1.1); b@y: …": the recipients a target refused. */
export const refusals = (refused: { address: string; error: string }[]) => refused.map((r) => `${r.address}: ${r.error}`).join('; ');
