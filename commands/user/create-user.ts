import { z } from 'zod';
import { roleLabels, roles } from '../../server/contract/permissions';
import { createUserSchema } from '../../server/contract/users';
import { queryKeys } from '../../src/api/query-keys';
import { createUser as createUserCall } from '../../src/api/users';
import { defineCommand } from '../define-command';

export const createUser = defineCommand({
  id: 'user.create',
  title: 'Create user',
  category: 'Users',
  description: 'Add a user with a role; they can sign in right away.',
  input: createUserSchema.omit({ status: true }).extend({ role: z.enum(roles) }),
  args: [
    { name: 'username', label: 'User name', kind: 'text', placeholder: 'Please enter User name' },
    { name: 'email', label: 'Email', kind: 'text', placeholder: 'Please enter User Email' },
    { name: 'phonenumber', label: 'Phone number', kind: 'text', placeholder: 'Please enter Phonenumber' },
    { name: 'password', label: 'Password', kind: 'password', placeholder: 'Please enter Password' },
    { name: 'role', label: 'Role', kind: 'enum', options: roles.map((r) => ({ value: r, label: roleLabels[r] })), placeholder: 'Please slect Role' },
  ],
  permission: 'users.write',
  inverse: (_input, result) => {
    const id = (result.data as { _id?: string } | undefined)?._id;
    return id ? { id: 'user.delete', input: { user: id } } : null;
  },
  async run(input, ctx) {
    const { result } = await createUserCall(ctx.api, { ...input, status: 'active' });
    await ctx.invalidate(queryKeys.users.all);
    return { message: `Created user **${result.username}** (${result.email}, ${roleLabels[result.role]}).`, data: result };
  },
});
