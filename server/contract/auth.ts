import { z } from 'zod';
import { str } from './common';
import { roleSchema } from './users';

export const signinSchema = z.object({ email: str().min(1).max(500), password: str().min(1).max(200) }).strict();
export type Signin = z.infer<typeof signinSchema>;

/** GET /api/auth/whoami → { result }. SPEC names _id and username; role and email are ours. */
export const whoamiSchema = z.object({ _id: str(), username: str(), email: str(), role: roleSchema });
export type Whoami = z.infer<typeof whoamiSchema>;

export const SESSION_COOKIE = 'opsdeck_session';
