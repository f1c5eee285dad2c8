import { z } from 'zod';
import { gracePeriodChoices } from '../../server/contract/alerts';
import { defineCommand } from '../define-command';
import { graceLabel, parseGrace } from './rule-draft';
import { editRule, undoRuleEdit, ruleArg, ruleField, serverArg, serverField } from './rule-target';

const message = 'grace must be 1 to 5 minutes (1m … 5m, or 60 … 300 seconds)';

/** SPEC §5 grace period choices: 1 to 5 minutes (timeLimit 60–300 s). */
export const setGrace = defineCommand({
  id: 'rules.set-grace',
  title: 'Set alert rule grace period',
  category: 'Alert rules',
  description: 'How long a condition must hold before the alert fires, e.g. `rules.set-grace "high cpu usage" 2m --server web-01`.',
  input: z.object({
    rule: ruleField,
    grace: z
      .union([z.number(), z.string().max(20)], { error: message })
      .transform(parseGrace)
      .refine((n) => n !== null && (gracePeriodChoices as readonly number[]).includes(n), message)
      .transform((n) => n!),
    server: serverField,
  }),
  args: [ruleArg, { name: 'grace', label: 'Grace period', kind: 'enum', positional: true, options: gracePeriodChoices.map((s) => ({ value: `${s / 60}m`, label: graceLabel(s) })) }, serverArg],
  permission: 'rules.write',
  inverse: (_input, result) => undoRuleEdit(result, 'timeLimit'),
  run: (input, ctx) => editRule(ctx, input, () => ({ timeLimit: input.grace }), (r) => `grace period ${graceLabel(r.timeLimit)}`),
});
