import { z } from 'zod';
import { roleLabels } from '../../server/contract/permissions';
import type { User } from '../../server/contract/users';
import { queryKeys } from '../../src/api/query-keys';
import { updateUser } from '../../src/api/users';
import { defineCommand, type ArgSpec } from '../define-command';
import { resolveUser } from './resolve-user';

type Field = 'username' | 'email' | 'phonenumber' | 'role';

/** The four one-field edits of the user drawer share one shape: resolve the user, PATCH one field. */
export function defineUserFieldCommand<F extends Field>(spec: { id: string; title: string; field: F; arg: Omit<ArgSpec, 'name'>; schema: z.ZodTypeAny }) {
  const { field } = spec;
  const shown = (u: User) => (field === 'role' ? roleLabels[u.role] : u[field]);
  return defineCommand({
    id: spec.id,
    title: spec.title,
    category: 'Users',
    input: z.object({ user: z.string().min(1, 'user is required'), [field]: spec.schema }) as z.ZodObject<{ user: z.ZodString } & Record<F, z.ZodTypeAny>>,
    args: [
      { name: 'user', label: 'User', kind: 'entity', entity: 'user', positional: true },
      { name: field, ...spec.arg },
    ],
    permission: 'users.write',
    apiCall: (input: Record<string, unknown>) => ({ method: 'PATCH', path: `/api/users/${String(input.user)}`, body: { [field]: input[field] } }),
    async run(input: Record<string, unknown>, ctx) {
      const found = await resolveUser(ctx.api, String(input.user));
      const { result } = await updateUser(ctx.api, found._id, { [field]: input[field] });
      await ctx.invalidate(queryKeys.users.all);
      return { message: `Updated **${result.username}**: ${spec.arg.label.toLowerCase()} is now ${shown(result)}.`, data: result };
    },
  });
}
