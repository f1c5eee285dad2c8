import { z } from 'zod';
import { defineUserFieldCommand } from './user-field-command';

export const setUserEmail = defineUserFieldCommand({
  id: 'user.set-email',
  title: 'Set user email',
  field: 'email',
  arg: { label: 'Email', kind: 'text' },
  schema: z.string().trim().min(1, 'email is required').max(500),
});
