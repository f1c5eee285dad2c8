import { z } from 'zod';
import { defineUserFieldCommand } from './user-field-command';

export const renameUser = defineUserFieldCommand({
  id: 'user.rename',
  title: 'Rename user',
  field: 'username',
  arg: { label: 'User name', kind: 'text' },
  schema: z.string().trim().min(1, 'username is required').max(500),
});
