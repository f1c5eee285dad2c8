import { z } from 'zod';
import { defineCommand } from '../define-command';
import { editRule, undoRuleEdit, ruleArg, ruleField, serverArg, serverField } from './rule-target';

/** The Enabled toggle, off: a disabled rule opens nothing, and its open alerts resolve (docs/alerting.md). */
export const disableRule = defineCommand({
  id: 'rules.disable',
  title: 'Disable alert rule',
  category: 'Alert rules',
  description: 'Turn a rule off, e.g. `rules.disable "high cpu usage" --server web-01`.',
  input: z.object({ rule: ruleField, server: serverField }),
  args: [ruleArg, serverArg],
  permission: 'rules.write',
  inverse: (_input, result) => undoRuleEdit(result, 'enabled'),
  run: (input, ctx) => editRule(ctx, input, () => ({ enabled: false }), (r) => (r.enabled ? 'enabled' : 'disabled')),
});
