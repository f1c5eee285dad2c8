import { z } from 'zod';
import { severities } from '../../server/contract/alerts';
import { defineCommand } from '../define-command';
import { editRule, undoRuleEdit, ruleArg, ruleField, serverArg, serverField } from './rule-target';

/** The Severity column of the Alerts Configuration tab (SPEC §4 severities). */
export const setSeverity = defineCommand({
  id: 'rules.set-severity',
  title: 'Set alert rule severity',
  category: 'Alert rules',
  description: 'e.g. `rules.set-severity "high cpu usage" critical --server web-01`.',
  input: z.object({ rule: ruleField, severity: z.enum(severities, { error: `severity must be one of ${severities.join(', ')}` }), server: serverField }),
  args: [ruleArg, { name: 'severity', label: 'Severity', kind: 'enum', positional: true, options: severities.map((s) => ({ value: s, label: s })) }, serverArg],
  permission: 'rules.write',
  inverse: (_input, result) => undoRuleEdit(result, 'severity'),
  run: (input, ctx) => editRule(ctx, input, () => ({ severity: input.severity }), (r) => `severity ${r.severity}`),
});
