import { z } from 'zod';
import { checkKindLabels, type CreateCheck } from '../../server/contract/checks';
import { queryKeys } from '../../src/api/query-keys';
import { createCheck as createCheckCall } from '../../src/api/checks';
import { defineCommand } from '../define-command';
import { checkFieldArgs, checkFieldError, checkRuleArgs, checkSettingArgs, checkFieldsShape, inferKind, toCheckBody } from './check-fields';

export const createCheck = defineCommand({
  id: 'check.create',
  title: 'Create check',
  category: 'Checks',
  description: 'Watch a website (--url), a TCP port (--host --port), a DNS name (--host) or a TLS certificate (--kind tls): every 60 s unless --interval says otherwise.',
  input: z.object({ name: z.string().trim().min(1, 'name is required').max(100, 'name is too long (at most 100 characters)'), ...checkFieldsShape }).partial({
    ...Object.fromEntries(Object.keys(checkFieldsShape).map((k) => [k, true])),
  } as { [K in keyof typeof checkFieldsShape]: true }),
  args: [
    { name: 'name', label: 'Name', kind: 'text', positional: true, placeholder: 'Check name, e.g. Shop front' },
    checkFieldArgs.kind,
    ...checkSettingArgs,
    checkFieldArgs.paused,
    ...checkRuleArgs,
  ],
  permission: 'checks.write',
  inverse: (_input, result) => {
    const id = (result.data as { _id?: string } | undefined)?._id;
    return id ? { id: 'check.delete', input: { check: id } } : null;
  },
  async run({ name, ...fields }, ctx) {
    const kind = inferKind(fields);
    const body = { name, kind, ...(await toCheckBody(ctx.api, fields)) } as CreateCheck;
    const { result } = await createCheckCall(ctx.api, body).catch((err: unknown) => {
      throw checkFieldError(err);
    });
    await ctx.invalidate(queryKeys.checks.all);
    return { message: `Created ${checkKindLabels[result.kind]} check **${result.name}** (${result.target}), every ${result.intervalSeconds} s.`, data: result };
  },
});
