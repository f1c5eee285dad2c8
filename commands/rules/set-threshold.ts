import { z } from 'zod';
import { forecastHourChoices, formatThreshold, thresholdChoices } from '../../server/contract/alerts';
import { defineCommand } from '../define-command';
import { parseThreshold } from './rule-draft';
import { editRule, undoRuleEdit, ruleArg, ruleField, serverArg, serverField } from './rule-target';

const message = `threshold must be one of ${thresholdChoices.join(', ')} % (forecast rules: ${forecastHourChoices.join(', ')} h)`;

/** SPEC §5 threshold choices (99 … 60 %) for CPU, memory and disk rules; hours for forecast rules (issue 16), checked per rule by the draft. */
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
      .refine((n) => n !== null && ([...thresholdChoices, ...forecastHourChoices] as readonly number[]).includes(n), message)
      .transform((n) => n!),
    server: serverField,
  }),
  args: [ruleArg, { name: 'threshold', label: 'Threshold', kind: 'enum', positional: true, options: [...thresholdChoices.map((t) => ({ value: String(t), label: `${t} %` })), ...forecastHourChoices.map((t) => ({ value: String(t), label: `${t} h (forecast rules)` }))] }, serverArg],
  permission: 'rules.write',
  inverse: (_input, result) => undoRuleEdit(result, 'threshold'),
  run: (input, ctx) => editRule(ctx, input, () => ({ threshold: input.threshold }), (r) => `threshold ${formatThreshold(r.metric, r.threshold!)}`),
});
