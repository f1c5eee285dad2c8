import { z } from 'zod';
import type { EscalationStep } from '../../server/contract/alerts';
import { updateNotificationGroup } from '../../src/api/notification-groups';
import { queryKeys } from '../../src/api/query-keys';
import type { Api } from '../../src/api/client';
import { formatDuration, parseDuration } from '../../server/contract/duration';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { resolveUser } from '../user/resolve-user';
import { resolveGroup } from './resolve-group';
import { resolveSchedule } from '../oncall/schedule-fields';

/** "1h", "off" (or "none") → seconds or null; undefined when not given. */
const periodSchema = (what: string) =>
  z
    .union([z.string(), z.number(), z.null()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      if (v === null || (typeof v === 'string' && /^(off|none|never)$/i.test(v.trim()))) return null;
      const s = typeof v === 'number' ? v : parseDuration(v);
      if (s === undefined || s < 60) {
        ctx.addIssue({ code: 'custom', message: `${what}: give a duration like 30m or 4h, or off` });
        return z.NEVER;
      }
      return s;
    });

/**
 * "15m: DBA; 30m: @ann, @bob" — steps separated by `;`, each a delay and whom to notify: group
 * names, or users as @username (or @email), emailed; and whom to page through their own
 * notification rules (issue 27 §3): `oncall:<schedule>` (whoever is on call then) and `page:@ann`.
 * "none" clears the steps.
 */
export async function parseSteps(api: Api, text: string): Promise<EscalationStep[]> {
  if (/^\s*(none|off)\s*$/i.test(text)) return [];
  const steps: EscalationStep[] = [];
  for (const part of text.split(';').map((p) => p.trim()).filter(Boolean)) {
    const m = /^([^:]+):(.*)$/.exec(part);
    const after = m ? parseDuration(m[1]!) : undefined;
    if (!m || after === undefined) throw new CommandError(`"${part}" is not a step: write "15m: DBA" or "30m: @ann, @bob"`);
    const targets = m[2]!.split(',').map((t) => t.trim()).filter(Boolean);
    if (!targets.length) throw new CommandError(`The step "${part}" notifies nobody: name a group or @users`);
    const step: EscalationStep = { afterSeconds: after, groupId: null, userIds: [], scheduleIds: [], pageUserIds: [] };
    for (const t of targets) {
      if (/^oncall:/i.test(t)) step.scheduleIds.push((await resolveSchedule(api, t.slice(7).trim()))._id);
      else if (/^page:@?/i.test(t)) step.pageUserIds.push((await resolveUser(api, t.replace(/^page:@?/i, '').trim()))._id);
      else if (t.startsWith('@')) step.userIds.push((await resolveUser(api, t.slice(1)))._id);
      else if (step.groupId) throw new CommandError(`The step "${part}" names two groups: make a step for each`);
      else step.groupId = (await resolveGroup(api, t))._id;
    }
    steps.push(step);
  }
  return steps;
}

export const setEscalation = defineCommand({
  id: 'group.set-escalation',
  title: 'Set escalation policy',
  category: 'Notification Groups',
  description:
    'A group’s escalation and repeat (issue 14): --steps "15m: DBA; 30m: @ann, @bob; 45m: oncall:Platform, page:@chloe" (after that long unacknowledged, notify that group or those users, or page whoever is on call in a schedule and named people through their notification rules), --repeat 1h (send again while firing and unacknowledged), --ackReminder 4h (remind the owner of an older acknowledgement); "off" or "none" clears one.',
  input: z.object({
    group: z.string({ error: 'group is required' }).trim().min(1, 'group is required'),
    steps: z.union([z.string(), z.array(z.object({ afterSeconds: z.number(), groupId: z.string().nullable(), userIds: z.array(z.string()), scheduleIds: z.array(z.string()).default([]), pageUserIds: z.array(z.string()).default([]) }))]).optional(),
    repeat: periodSchema('repeat'),
    ackReminder: periodSchema('ackReminder'),
  }),
  args: [
    { name: 'group', label: 'Notification group', kind: 'entity', entity: 'group', positional: true },
    { name: 'steps', label: 'Escalation steps', kind: 'text', optional: true, placeholder: 'e.g. 15m: DBA; 30m: @ann (none: no steps)' },
    { name: 'repeat', label: 'Repeat every', kind: 'text', optional: true, placeholder: 'e.g. 1h (off: never)' },
    { name: 'ackReminder', label: 'Remind owners after', kind: 'text', optional: true, placeholder: 'e.g. 4h (off: never)' },
  ],
  permission: 'groups.write',
  async run(input, ctx) {
    const group = await resolveGroup(ctx.api, input.group);
    const steps = input.steps === undefined ? undefined : typeof input.steps === 'string' ? await parseSteps(ctx.api, input.steps) : input.steps;
    const body = { ...(steps !== undefined ? { escalationSteps: steps } : {}), ...(input.repeat !== undefined ? { repeatIntervalSeconds: input.repeat } : {}), ...(input.ackReminder !== undefined ? { ackReminderSeconds: input.ackReminder } : {}) };
    if (!Object.keys(body).length) throw new CommandError('Give --steps, --repeat or --ackReminder', 'refused');
    const { result } = await updateNotificationGroup(ctx.api, group._id, body);
    await ctx.invalidate(queryKeys.notificationGroups.all);
    return { message: `**${result.name}**: ${escalationSummary(result)}.`, data: result };
  },
});

/** "2 escalation steps (15m, 30m), repeats every 1h, reminds owners after 4h" */
export function escalationSummary(g: { escalationSteps?: Pick<EscalationStep, 'afterSeconds'>[]; repeatIntervalSeconds?: number | null; ackReminderSeconds?: number | null }): string {
  const steps = g.escalationSteps ?? [];
  return [
    steps.length ? `${steps.length} escalation step${steps.length === 1 ? '' : 's'} (${steps.map((s) => formatDuration(s.afterSeconds)).join(', ')})` : 'no escalation',
    g.repeatIntervalSeconds ? `repeats every ${formatDuration(g.repeatIntervalSeconds)}` : 'no repeat',
    g.ackReminderSeconds ? `reminds owners after ${formatDuration(g.ackReminderSeconds)}` : 'no acknowledgement reminder',
  ].join(', ');
}
