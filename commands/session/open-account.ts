import { z } from 'zod';
import { defineCommand } from '../define-command';

export const openAccount = defineCommand({
  id: 'account.open',
  title: 'Open Account Settings',
  category: 'Account',
  input: z.object({}).strict(),
  permission: 'read',
  history: false,
  run(_input, ctx) {
    ctx.ui.open('account');
    return {};
  },
});
