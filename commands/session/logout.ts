import { z } from 'zod';
import { signout } from '../../src/api/auth';
import { defineCommand } from '../define-command';

export const logout = defineCommand({
  id: 'session.logout',
  title: 'Logout',
  category: 'Session',
  input: z.object({}).strict(),
  permission: 'read',
  async run(_input, ctx) {
    await signout(ctx.api);
    ctx.session.signedOut();
    ctx.navigate('/logout');
    return { message: 'Logged out.' };
  },
});
