import { z } from 'zod';
import type { AlertConfig, AlertRule, NotificationGroup } from '../../server/contract/alerts';
import { MAX_TEXT } from '../../server/contract/common';
import { getAlertConfigs, updateAlertConfig } from '../../src/api/alert-config';
import { ApiError } from '../../src/api/client';
import { getNotificationGroup, listNotificationGroups } from '../../src/api/notification-groups';
import { queryKeys } from '../../src/api/query-keys';
import { getServer } from '../../src/api/servers';
import type { ArgSpec, CommandContext, CommandResult, InverseRun } from '../define-command';
import { CommandError } from '../registry';
import { resolveServer } from '../server/resolve-server';
import { openServerView } from '../server-view/current-view';
import { checkEdit, draftKey, findRule, getDraft, ruleLabel, updateBody, withEdit, type EditableField, type RuleDraft, type RuleEdit } from './rule-draft';
import { isUuid } from '../../server/contract/ids';

/**
 * How rules.* commands meet the held-edits model (docs/decisions.md): while a server's Alerts
 * Configuration tab is open its draft is registered in `ctx.drafts`, and a change to that
 * server's rules is laid over the draft, to be sent by Update / rules.save. For any other server
 * (or with the tab closed) the command fetches the config, changes the one rule and saves at once.
 */

export const serverField = z.string().trim().min(1, 'server is required').max(MAX_TEXT).optional();
export const ruleField = z.string({ error: 'rule is required' }).trim().min(1, 'rule is required').max(MAX_TEXT);

export const ruleArg = { name: 'rule', label: 'Rule', kind: 'text', positional: true, placeholder: 'Rule name, e.g. high cpu usage' } as const satisfies ArgSpec;
export const serverArg = { name: 'server', label: 'Server', kind: 'entity', entity: 'server', optional: true } as const satisfies ArgSpec;

export interface RulesServer {
  _id: string;
  hostname: string;
}

/** `--server` (hostname, IP or id), else the server whose detail is open. */
export async function resolveRulesServer(ctx: CommandContext, ref: string | undefined): Promise<RulesServer> {
  if (ref) {
    const s = await resolveServer(ctx.api, ref);
    return { _id: s._id, hostname: s.hostname };
  }
  const open = openServerView(ctx);
  if (!open) throw new CommandError('Name a server with --server (hostname, IP address or id), or open its detail page.');
  const draft = getDraft(ctx.drafts, open.serverId);
  if (draft) return { _id: draft.serverId, hostname: draft.hostname };
  const s = (await getServer(ctx.api, open.serverId)).result;
  return { _id: s._id, hostname: s.hostname };
}

/** The server's config as stored, or a pointer to rules.create-defaults. */
export async function fetchConfig(ctx: CommandContext, server: RulesServer): Promise<AlertConfig> {
  const config = (await getAlertConfigs(ctx.api, server._id)).result.data[0];
  if (!config) throw new CommandError(`${server.hostname} has no alert config. Create it with \`rules.create-defaults --server ${server.hostname}\`.`);
  return config;
}

const HELD = 'Held until you press **Update** (or run `rules.save`).';

/**
 * Changes one rule: in the open tab's draft when there is one, otherwise fetched, changed and
 * saved at once. `change` turns the rule (as it is now, edits included) into the fields to set,
 * `describe` the rule after the change into the message.
 */
export async function editRule(
  ctx: CommandContext,
  input: { server?: string; rule: string },
  change: (rule: AlertRule) => RuleEdit | Promise<RuleEdit>,
  describe: (rule: AlertRule) => string,
): Promise<CommandResult> {
  const server = await resolveRulesServer(ctx, input.server);
  const draft = getDraft(ctx.drafts, server._id);
  if (draft) {
    const base = findRule(draft.base.rules, input.rule);
    const current = { ...base, ...draft.edits[base._id] };
    const patch = await change(current);
    checkEdit(base, patch);
    // Read again: the group lookup above awaited, and the screen may have changed the draft.
    const latest = getDraft(ctx.drafts, server._id) ?? draft;
    const edits = withEdit(latest, base._id, patch);
    ctx.drafts!.set(draftKey(server._id), { ...latest, edits } satisfies RuleDraft);
    const after = { ...base, ...edits[base._id] };
    return { message: `**${ruleLabel(base.name)}** on ${server.hostname}: ${describe(after)}. ${edits[base._id] ? HELD : 'Same as saved.'}`, data: after, before: { server: server._id, rule: current } satisfies RuleBefore };
  }
  const config = await fetchConfig(ctx, server);
  const rule = findRule(config.rules, input.rule);
  const patch = await change(rule);
  checkEdit(rule, patch);
  const edits = withEdit({ base: config, edits: {} }, rule._id, patch);
  if (!edits[rule._id]) return { message: `**${ruleLabel(rule.name)}** on ${server.hostname} already has ${describe(rule)}.`, data: rule, before: { server: server._id, rule } satisfies RuleBefore };
  const saved = (await updateAlertConfig(ctx.api, config._id, updateBody({ base: config, edits }))).result;
  await ctx.invalidate(queryKeys.alertConfig.server(server._id));
  const after = saved.rules.find((r) => r._id === rule._id) ?? { ...rule, ...edits[rule._id] };
  return { message: `**${ruleLabel(rule.name)}** on ${server.hostname}: ${describe(after)}. Saved.`, data: after, before: { server: server._id, rule } satisfies RuleBefore };
}

/** The rule as it was (its held edits included) before a rules.* run, for the undo. */
interface RuleBefore {
  server: string;
  rule: AlertRule;
}

/**
 * Undo of a rule edit: the same kind of edit with the value the rule had, on the same server, so
 * it lands where the edit did (the open tab's held edits, or saved at once).
 */
export function undoRuleEdit(result: CommandResult, field: EditableField): InverseRun | null {
  const before = result.before as RuleBefore | undefined;
  const after = result.data as AlertRule | undefined;
  if (!before || !after || before.rule[field] === after[field]) return null;
  const input = { rule: before.rule._id, server: before.server };
  const old = before.rule;
  switch (field) {
    case 'enabled':
      return { id: old.enabled ? 'rules.enable' : 'rules.disable', input };
    case 'threshold':
      return old.threshold === null ? null : { id: 'rules.set-threshold', input: { ...input, threshold: old.threshold } };
    case 'timeLimit':
      return { id: 'rules.set-grace', input: { ...input, grace: old.timeLimit } };
    case 'severity':
      return { id: 'rules.set-severity', input: { ...input, severity: old.severity } };
    case 'notificationGroup':
      return { id: 'rules.set-group', input: { ...input, group: old.notificationGroup ?? 'none' } };
  }
}

export const NO_GROUP = ['none', '-', 'null'];

/**
 * A notification group by id or name (case-insensitive; a unique part of a name also works);
 * "none" clears. Kept local to the rules commands: the group domain has its own resolver.
 */
export async function resolveGroup(ctx: CommandContext, ref: string): Promise<NotificationGroup | null> {
  const value = ref.trim();
  if (!value || NO_GROUP.includes(value.toLowerCase())) return null;
  if (isUuid(value)) {
    try {
      return (await getNotificationGroup(ctx.api, value)).result;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
  }
  const { data, count } = (await listNotificationGroups(ctx.api, { pageNumber: 1, pageSize: 100, search: value, sort: { by: 'name', direction: 'asc' } })).result;
  const exact = data.filter((g) => g.name.toLowerCase() === value.toLowerCase());
  if (exact.length === 1) return exact[0]!;
  const candidates = exact.length > 1 ? exact : data;
  if (exact.length === 0 && count === 1 && data[0]) return data[0];
  if (candidates.length === 0) throw new CommandError(`No notification group matches "${value}".`);
  throw new CommandError(`${exact.length > 1 ? exact.length : count} notification groups match "${value}": ${candidates.slice(0, 5).map((g) => g.name).join(', ')}. Use the full name or the id.`);
}
