import { z } from 'zod';
import { defineUserFieldCommand } from './user-field-command';

export const setUserPhone = defineUserFieldCommand({
  id: 'user.set-phone',
  title: 'Set user phone number',
  field: 'phonenumber',
  arg: { label: 'Phone number', kind: 'text' },
  schema: z.string().trim().min(1, 'phonenumber is required').max(500),
});
