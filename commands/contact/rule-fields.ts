import { z } from 'zod';
import { MAX_RULE_DELAY_MINUTES, type NotificationRule } from '../../server/contract/contact-methods';
import { listNotificationRules } from '../../src/api/contact-methods';
import type { Api } from '../../src/api/client';
import type { ArgSpec } from '../define-command';
import { CommandError } from '../registry';
import { commandError } from './contact-fields';

/**
 * What the contact.rule-* commands share: a step is named as people read it — its method's label
 * and its delay ("Mobile --after 5") — so History shows which step, and the line re-runs.
 */
export const afterShape = {
  after: z.coerce
    .number({ error: 'after must be a whole number of minutes' })
    .int('after must be a whole number of minutes')
    .min(0, 'after must be 0 (at once) or more')
    .max(MAX_RULE_DELAY_MINUTES, `after is at most ${MAX_RULE_DELAY_MINUTES} minutes (a day)`)
    .optional(),
};
export const afterArg = { name: 'after', label: 'After how many minutes unacknowledged (0 or empty: at once)', kind: 'number', optional: true, placeholder: '0' } as const satisfies ArgSpec;

/** "at once" or "after 5 min", as a step reads. */
export const whenText = (afterMinutes: number) => (afterMinutes === 0 ? 'at once' : `after ${afterMinutes} min`);

/** One stored step by its method (label or id) and, when several steps use it, its delay. */
export async function resolveRule(api: Api, person: { _id: string; username: string }, method: string, after: number | undefined): Promise<NotificationRule> {
  const { result } = await listNotificationRules(api, person._id).catch(commandError);
  if (result.isDefault) throw new CommandError(`${person.username} has no notification rules of their own (each verified contact method is paged at once)`);
  const wanted = method.trim().toLowerCase();
  const ofMethod = result.data.filter((r) => r.method._id === method.trim() || r.method.label.toLowerCase() === wanted);
  const matches = after === undefined ? ofMethod : ofMethod.filter((r) => r.afterMinutes === after);
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) throw new CommandError(`"${method}" is paged ${matches.map((r) => whenText(r.afterMinutes)).join(' and ')}: say which with --after`);
  const steps = result.data.map((r) => `${r.method.label} ${whenText(r.afterMinutes)}`).join(', ');
  throw new CommandError(`${person.username} has no notification rule for "${method}"${after === undefined ? '' : ` ${whenText(after)}`} (there are: ${steps})`);
}
