import { z } from 'zod';
import { defineCommand } from '../define-command';
import { editRule, undoRuleEdit, ruleArg, ruleField, serverArg, serverField } from './rule-target';

/** The Enabled toggle of the Alerts Configuration tab (held while the tab is open; saved at once elsewhere). */
export const enableRule = defineCommand({
  id: 'rules.enable',
  title: 'Enable alert rule',
  category: 'Alert rules',
  description: 'Turn a rule on, e.g. `rules.enable "high cpu usage" --server web-01`.',
  input: z.object({ rule: ruleField, server: serverField }),
  args: [ruleArg, serverArg],
  permission: 'rules.write',
  inverse: (_input, result) => undoRuleEdit(result, 'enabled'),
  run: (input, ctx) => editRule(ctx, input, () => ({ enabled: true }), (r) => (r.enabled ? 'enabled' : 'disabled')),
});
