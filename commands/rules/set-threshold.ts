import { z } from 'zod';
import { thresholdChoices } from '../../server/contract/alerts';
import { defineCommand } from '../define-command';
import { parseThreshold } from './rule-draft';
import { editRule, ruleArg, ruleField, serverArg, serverField } from './rule-target';

const message = `threshold must be one of ${thresholdChoices.join(', ')} %`;

/** SPEC §5 threshold choices (99 … 60 %), for CPU, memory and disk rules only. */
export const setThreshold = defineCommand({
  id: 'rules.set-threshold',
  title: 'Set alert rule threshold',
  category: 'Alert rules',
  description: 'e.g. `rules.set-threshold "high cpu usage" 80 --server web-01` (99, 95, 90, 85, 80, 70 or 60 %).',
  input: z.object({
    rule: ruleField,
    threshold: z
      .union([z.number(), z.string().max(10)], { error: message })
      .transform(parseThreshold)
      .refine((n) => n !== null && (thresholdChoices as readonly number[]).includes(n), message)
      .transform((n) => n!),
    server: serverField,
  }),
  args: [ruleArg, { name: 'threshold', label: 'Threshold', kind: 'enum', positional: true, options: thresholdChoices.map((t) => ({ value: String(t), label: `${t} %` })) }, serverArg],
  permission: 'rules.write',
  run: (input, ctx) => editRule(ctx, input, () => ({ threshold: input.threshold }), (r) => `threshold ${r.threshold} %`),
});
