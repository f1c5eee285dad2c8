import { sql } from 'drizzle-orm';
import type { DeliverySettings } from '../config';
import type { AlertReach, DefaultGroupAnswer } from '../contract/reach';
import type { Db } from '../db/client';
import { badRequest } from '../http/errors';

/**
 * Who a firing alert reaches (issue 24 §6, docs/alerting.md "Reach"). A rule notifies its
 * notification group; the default group (a setting) is the group new rules get — default rules
 * of a new server, a new check's rules, rules reset to the defaults — and setting it gives it to
 * every rule that notifies nobody at that moment. A group reaches someone when one of its
 * channels can send: email on with addresses and SMTP_URL set, Slack on with a channel and
 * SLACK_BOT_TOKEN set, or a channel target (webhook, Teams, PagerDuty, Telegram, ntfy).
 */

export const DEFAULT_GROUP_KEY = 'default_notification_group';

/** The default group's id, when one is set and the group still exists (a deleted group is no default). */
export const defaultGroupId = sql`(select g.id from settings s join notification_groups g on g.id = (s.value->>'groupId')::uuid where s.key = ${DEFAULT_GROUP_KEY})`;

export async function defaultGroup(db: Db): Promise<{ _id: string; name: string } | null> {
  const r = await db.execute<{ id: string; name: string }>(sql`select g.id, g.name from notification_groups g where g.id = ${defaultGroupId}`);
  const row = r.rows[0];
  return row ? { _id: row.id, name: row.name } : null;
}

/**
 * Makes `groupId` the default group (null: none) and gives it to every rule, of servers and of
 * checks, that has no group now. Returns how many rules it gave it to. The caller has checked
 * that the group exists.
 */
export async function setDefaultGroup(tx: Db, groupId: string | null): Promise<DefaultGroupAnswer> {
  if (groupId === null) {
    await tx.execute(sql`delete from settings where key = ${DEFAULT_GROUP_KEY}`);
    return { group: null, assigned: { rules: 0, checkRules: 0 } };
  }
  await tx.execute(sql`insert into settings (key, value, updated_at) values (${DEFAULT_GROUP_KEY}, ${JSON.stringify({ groupId })}::jsonb, now())
    on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at`);
  const rules = await tx.execute(sql`update alert_rules set notification_group_id = ${groupId} where notification_group_id is null`);
  const checkRules = await tx.execute(sql`update check_rules set notification_group_id = ${groupId}, updated_at = now() where notification_group_id is null`);
  return { group: await defaultGroup(tx), assigned: { rules: rules.rowCount ?? 0, checkRules: checkRules.rowCount ?? 0 } };
}

/** The group a new default names (null: none); a 400 naming `groupId` when no group has that id. */
export async function groupToDefault(db: Db, groupId: string | null): Promise<{ id: string; name: string } | null> {
  if (!groupId) return null;
  const r = await db.execute<{ id: string; name: string }>(sql`select id, name from notification_groups where id = ${groupId}`);
  const group = r.rows[0];
  if (!group) throw badRequest(`No notification group with id "${groupId}"`, 'groupId');
  return group;
}

/** How the audit trail names the setting, with the group it now names. */
export const defaultGroupTarget = (group: { name: string } | null) => ({ kind: 'setting', id: DEFAULT_GROUP_KEY, name: group ? `Default notification group: ${group.name}` : 'Default notification group' });

type GroupRow = {
  id: string;
  name: string;
  email_enabled: boolean;
  emails: number;
  slack_enabled: boolean;
  slack_channel: string | null;
  targets: number;
  rules: number;
};

/** Why a group's channels cannot send, one phrase each; empty when one of them can. */
export function silentBecause(g: Pick<GroupRow, 'email_enabled' | 'emails' | 'slack_enabled' | 'slack_channel' | 'targets'>, delivery: Pick<DeliverySettings, 'smtpUrl' | 'slackBotToken'>): string[] {
  const email = g.email_enabled && g.emails > 0 && !!delivery.smtpUrl;
  const slack = g.slack_enabled && !!g.slack_channel?.trim() && !!delivery.slackBotToken;
  if (email || slack || g.targets > 0) return [];
  const why: string[] = [];
  if (!g.email_enabled) why.push('email is off');
  else if (!g.emails) why.push('it has no email addresses');
  else why.push('SMTP_URL is not set, so Opsdeck sends no email');
  if (g.slack_enabled) why.push(delivery.slackBotToken ? 'it has no Slack channel' : 'SLACK_BOT_TOKEN is not set, so Opsdeck sends no Slack messages');
  why.push('it has no other channel');
  return why;
}

/**
 * The console's reach, for the dashboard: how many enabled rules there are (of active servers
 * and of checks), how many notify no group, the default group, and the groups the rules notify
 * with whether each can send. `state` says what to fix first: `no-group` (rules that notify
 * nobody and no default group), `no-channel` (no group the rules use can send), or `ok`.
 */
export async function alertReach(db: Db, delivery: Pick<DeliverySettings, 'smtpUrl' | 'slackBotToken'>): Promise<AlertReach> {
  const counts = await db.execute<{ rules: number; silent: number; groups: number }>(sql`
    with r as (
      select r.notification_group_id as g from alert_rules r join servers s on s.id = r.server_id
      where r.enabled and s.status = 'active' and s.is_agent_configured
      union all
      select cr.notification_group_id from check_rules cr join checks c on c.id = cr.check_id where cr.enabled
    )
    select (select count(*)::int from r) as rules, (select count(*)::int from r where g is null) as silent,
      (select count(*)::int from notification_groups) as groups`);
  const { rules, silent, groups } = counts.rows[0] ?? { rules: 0, silent: 0, groups: 0 };
  const used = await db.execute<GroupRow>(sql`
    with r as (
      select r.notification_group_id as g from alert_rules r join servers s on s.id = r.server_id
      where r.enabled and s.status = 'active' and s.is_agent_configured and r.notification_group_id is not null
      union all
      select cr.notification_group_id from check_rules cr where cr.enabled and cr.notification_group_id is not null
    ), ids as (
      select g from r union select ${defaultGroupId}
    )
    select g.id, g.name, g.email_enabled, coalesce(array_length(g.email_list, 1), 0)::int as emails, g.slack_enabled, g.slack_channel,
      (select count(*)::int from notification_channels c where c.group_id = g.id) as targets,
      (select count(*)::int from r where r.g = g.id) as rules
    from notification_groups g where g.id in (select g from ids where g is not null)
    order by g.name`);
  const dflt = await defaultGroup(db);
  const inUse = used.rows.map((g) => ({ _id: g.id, name: g.name, rules: Number(g.rules), silentBecause: silentBecause({ ...g, emails: Number(g.emails), targets: Number(g.targets) }, delivery) }));
  const state: AlertReach['state'] = rules === 0 ? 'ok' : Number(silent) > 0 && !dflt ? 'no-group' : inUse.length > 0 && inUse.every((g) => g.silentBecause.length) ? 'no-channel' : 'ok';
  return { state, rules: Number(rules), silentRules: Number(silent), groups: Number(groups), defaultGroup: dflt, groupsInUse: inUse };
}
