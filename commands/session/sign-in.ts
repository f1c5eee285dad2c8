import { z } from 'zod';
import { signin } from '../../src/api/auth';
import { defineCommand } from '../define-command';

export const signIn = defineCommand({
  id: 'session.signin',
  title: 'Sign in',
  category: 'Session',
  input: z.object({ email: z.string().trim().min(1, 'email is required'), password: z.string().min(1, 'password is required') }),
  args: [
    { name: 'email', label: 'Email', kind: 'text' },
    { name: 'password', label: 'Password', kind: 'password' },
  ],
  when: (ctx) => !ctx.user,
  async run(input, ctx) {
    const { result } = await signin(ctx.api, input);
    ctx.session.signedIn(result);
    ctx.navigate('/');
    return { message: `Signed in as **${result.username}**.`, data: result };
  },
});
