import { z } from 'zod';
import { queryKeys } from '../../src/api/query-keys';
import { updateCheck } from '../../src/api/checks';
import { defineCommand } from '../define-command';
import { checkArg, checkFieldError, checkRuleArgs, checkSettingArgs, checkFieldsShape, resolveCheck, toCheckBody } from './check-fields';

export const editCheck = defineCommand({
  id: 'check.edit',
  title: 'Edit check',
  category: 'Checks',
  description: 'Change a check’s name, target, interval, expectations or rules (--latencyMs, --certDays, --downGrace, --group); with no change given, open its edit form.',
  input: z.object({ check: z.string().trim().min(1, 'check is required'), name: z.string().trim().min(1).max(100).optional(), ...checkFieldsShape }).partial({
    ...Object.fromEntries(Object.keys(checkFieldsShape).map((k) => [k, true])),
  } as { [K in keyof typeof checkFieldsShape]: true }),
  args: [
    checkArg,
    { name: 'name', label: 'New name', kind: 'text', optional: true },
    ...checkSettingArgs,
    ...checkRuleArgs,
  ],
  permission: 'checks.write',
  async run({ check, name, kind, ...fields }, ctx) {
    const found = await resolveCheck(ctx.api, check);
    if (kind !== undefined && kind !== found.kind) throw new Error(`A check cannot change its kind (${found.kind}); create another one`);
    const body = await toCheckBody(ctx.api, fields);
    if (name !== undefined && name !== found.name) Object.assign(body, { name });
    if (!Object.keys(body).length) {
      ctx.navigate(`/checks/edit/${found._id}`);
      return { message: `Editing **${found.name}**.`, data: found };
    }
    const { result } = await updateCheck(ctx.api, found._id, body).catch((err: unknown) => {
      throw checkFieldError(err);
    });
    await ctx.invalidate(queryKeys.checks.all);
    return { message: `Updated check **${result.name}** (${result.target}).`, data: result };
  },
});
