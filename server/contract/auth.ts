import { z } from 'zod';
import { roleSchema } from './users';

export const signinSchema = z.object({ email: z.string().min(1).max(500), password: z.string().min(1).max(200) }).strict();
export type Signin = z.infer<typeof signinSchema>;

/** GET /api/auth/whoami → { result }. SPEC names _id and username; role and email are ours. */
export const whoamiSchema = z.object({ _id: z.string(), username: z.string(), email: z.string(), role: roleSchema });
export type Whoami = z.infer<typeof whoamiSchema>;

export const SESSION_COOKIE = 'opsdeck_session';
