import { z } from 'zod';
import { roleLabels } from '../../server/contract/permissions';
import type { User } from '../../server/contract/users';
import { queryKeys } from '../../src/api/query-keys';
import { updateUser } from '../../src/api/users';
import { defineCommand, type ArgSpec, type CommandDefinition, type CommandResult } from '../define-command';
import { resolveUser } from './resolve-user';

type Field = 'username' | 'email' | 'phonenumber' | 'role';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** What the server ended with the change (another role ends sessions and revokes API tokens), in words. */
export function signedOutText(user: User): string {
  const s = user.signedOut;
  if (!s) return '';
  if (!s.sessions && !s.tokens) return ' They had no session or personal API token open.';
  return ` Their access ended: ${plural(s.sessions, 'session')} signed out and ${plural(s.tokens, 'personal API token')} revoked; they sign in again and make new tokens.`;
}

/** The four one-field edits of the user drawer share one shape: resolve the user, PATCH one field. */
export function defineUserFieldCommand<F extends Field, S extends z.ZodTypeAny, const Id extends string>(spec: { id: Id; title: string; field: F; arg: Omit<ArgSpec, 'name'>; schema: S }) {
  const { field } = spec;
  const shown = (u: User) => (field === 'role' ? roleLabels[u.role] : u[field]);
  const input = z.object({ user: z.string().min(1, 'user is required'), [field]: spec.schema }) as unknown as z.ZodObject<{ user: z.ZodString } & { [K in F]: S }>;
  // Built from `field`, so the names match the input; TypeScript cannot follow a generic key here.
  const args = [
    { name: 'user', label: 'User', kind: 'entity', entity: 'user', positional: true },
    { name: field, ...spec.arg },
  ] as unknown as CommandDefinition<typeof input>['args'];
  return defineCommand({
    id: spec.id,
    title: spec.title,
    category: 'Users',
    input,
    args,
    permission: 'users.write',
    // Undo puts the old value back (an empty old phone number cannot be set again: no undo).
    inverse: (_input: unknown, result: CommandResult) => {
      const before = result.before as User | undefined;
      const after = result.data as User | undefined;
      return before && after && before[field] !== after[field] && before[field] ? { id: spec.id, input: { user: before._id, [field]: before[field] } } : null;
    },
    async run(input: Record<string, unknown>, ctx) {
      const found = await resolveUser(ctx.api, String(input.user));
      const { result } = await updateUser(ctx.api, found._id, { [field]: input[field] });
      await ctx.invalidate(queryKeys.users.all);
      return { message: `Updated **${result.username}**: ${spec.arg.label.toLowerCase()} is now ${shown(result)}.${signedOutText(result)}`, data: result, before: found };
    },
  });
}
