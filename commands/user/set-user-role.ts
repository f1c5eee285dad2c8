import { z } from 'zod';
import { roleLabels, roles } from '../../server/contract/permissions';
import { defineUserFieldCommand } from './user-field-command';

export const setUserRole = defineUserFieldCommand({
  id: 'user.set-role',
  title: 'Set user role',
  field: 'role',
  arg: { label: 'Role', kind: 'enum', options: roles.map((r) => ({ value: r, label: roleLabels[r] })) },
  schema: z.enum(roles),
});
