import { z } from 'zod';
import type { AlertRule } from '../../server/contract/alerts';
import { updateAlertConfig } from '../../src/api/alert-config';
import { queryKeys } from '../../src/api/query-keys';
import { formatDuration, parseDuration } from '../../server/contract/duration';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { findRule, ruleLabel, updateBody } from './rule-draft';
import { fetchConfig, resolveRulesServer, ruleArg, ruleField, serverArg, serverField } from './rule-target';

const onOff = z.enum(['on', 'off'], { error: 'hostDown must be on or off' });

/** "30m" or "off" → seconds or null. */
const interval = z.string().transform((v, ctx) => {
  if (/^(off|none)$/i.test(v.trim())) return null;
  const s = parseDuration(v);
  if (s === undefined || s < 60) {
    ctx.addIssue({ code: 'custom', message: 'minInterval: give a duration like 30m, or off' });
    return z.NEVER;
  }
  return s;
});

/** "4/30m" (4 changes within 30 minutes) or "off". */
const flap = z.string().transform((v, ctx) => {
  if (/^(off|none)$/i.test(v.trim())) return null;
  const m = /^\s*(\d+)\s*\/\s*(\S+)\s*$/.exec(v);
  const window = m ? parseDuration(m[2]!) : undefined;
  if (!m || window === undefined || Number(m[1]) < 2 || window < 60) {
    ctx.addIssue({ code: 'custom', message: 'flap: give changes/window like 4/30m, or off' });
    return z.NEVER;
  }
  return { transitions: Number(m[1]), windowSeconds: window };
});

/** What the rule's routing reads as, for messages and the rules table. */
export function routingSummary(r: Pick<AlertRule, 'suppressOnHostDown' | 'minNotifyIntervalSeconds' | 'flapTransitions' | 'flapWindowSeconds'>): string {
  return [
    r.suppressOnHostDown === false ? 'not suppressed while the host is down' : 'suppressed while the host is down',
    r.minNotifyIntervalSeconds ? `at most one notification every ${formatDuration(r.minNotifyIntervalSeconds)}` : 'no minimum interval',
    r.flapTransitions && r.flapWindowSeconds ? `flapping at ${r.flapTransitions} changes within ${formatDuration(r.flapWindowSeconds)}` : 'no flap detection',
  ].join(', ');
}

export const setRouting = defineCommand({
  id: 'rules.set-routing',
  title: 'Set alert rule routing',
  category: 'Alert rules',
  description: 'A rule’s routing (issue 14): --hostDown on|off (mute its alerts while the server’s instance_down fires; default on), --minInterval 30m|off (least time between two notifications of one alert), --flap 4/30m|off (N changes within M: one message, then quiet until stable). Saved at once.',
  input: z.object({ rule: ruleField, server: serverField, hostDown: onOff.optional(), minInterval: interval.optional(), flap: flap.optional() }),
  args: [
    ruleArg,
    serverArg,
    { name: 'hostDown', label: 'Suppress while host is down', kind: 'enum', optional: true, options: [{ value: 'on', label: 'On' }, { value: 'off', label: 'Off' }] },
    { name: 'minInterval', label: 'Minimum interval', kind: 'text', optional: true, placeholder: 'e.g. 30m (off: none)' },
    { name: 'flap', label: 'Flap detection', kind: 'text', optional: true, placeholder: 'e.g. 4/30m (off: none)' },
  ],
  permission: 'rules.write',
  async run(input, ctx) {
    if (input.hostDown === undefined && input.minInterval === undefined && input.flap === undefined) throw new CommandError('Give --hostDown, --minInterval or --flap', 'refused');
    const server = await resolveRulesServer(ctx, input.server);
    const config = await fetchConfig(ctx, server);
    const rule = findRule(config.rules, input.rule);
    // Held edits of the open tab stay held: the body is the saved config, and the tab's Update
    // does not send routing fields (rule-draft.ts updateBody), so neither overwrites the other.
    const body = updateBody({ base: config, edits: {} });
    body.rules = body.rules.map((r) =>
      r._id !== rule._id
        ? r
        : {
            ...r,
            ...(input.hostDown !== undefined ? { suppressOnHostDown: input.hostDown === 'on' } : {}),
            ...(input.minInterval !== undefined ? { minNotifyIntervalSeconds: input.minInterval } : {}),
            ...(input.flap !== undefined ? { flapTransitions: input.flap?.transitions ?? null, flapWindowSeconds: input.flap?.windowSeconds ?? null } : {}),
          },
    );
    const saved = (await updateAlertConfig(ctx.api, config._id, body)).result;
    await ctx.invalidate(queryKeys.alertConfig.server(server._id));
    const after = saved.rules.find((r) => r._id === rule._id)!;
    return { message: `**${ruleLabel(rule.name)}** on ${server.hostname}: ${routingSummary(after)}. Saved.`, data: after };
  },
});
