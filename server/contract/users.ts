import { z } from 'zod';
import { MAX_TEXT, str } from './common';
import { roles } from './permissions';

export const userStatuses = ['active', 'suspended'] as const;
export const roleSchema = z.enum(roles);
export const userStatusSchema = z.enum(userStatuses);

/** SPEC §3 User, as the API returns it. The password never leaves the server. */
export const userSchema = z.object({
  _id: str(),
  username: str(),
  email: str(),
  phonenumber: str(),
  role: roleSchema,
  status: userStatusSchema,
  avatarUrl: str().nullable(),
  createdAt: str(),
  /**
   * In the answer of an update that ended the person's access: a new password, another role or a
   * suspension end their sessions and revoke their personal API tokens; how many of each.
   */
  signedOut: z.object({ reason: z.enum(['password', 'role', 'suspended']), sessions: z.number().int(), tokens: z.number().int() }).optional(),
});
export type User = z.infer<typeof userSchema>;
export type SignedOutReason = NonNullable<User['signedOut']>['reason'];

const text = (label: string) => str().trim().min(1, `${label} is required`).max(MAX_TEXT, `${label} is too long (at most ${MAX_TEXT} characters)`);

/** SPEC §5 Create user: all five required; no format rule beyond what an email needs to be unique. */
export const createUserSchema = z
  .object({
    username: text('username'),
    email: text('email'),
    phonenumber: text('phonenumber'),
    password: str().min(1, 'password is required').max(200, 'password is too long (at most 200 characters)'),
    role: roleSchema,
    status: userStatusSchema.default('active'),
  })
  .strict();
export type CreateUser = z.input<typeof createUserSchema>;

export const updateUserSchema = z
  .object({
    username: text('username'),
    email: text('email'),
    phonenumber: text('phonenumber'),
    password: str().min(1).max(200),
    role: roleSchema,
    status: userStatusSchema,
    avatarUrl: str().max(MAX_TEXT).nullable(),
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to update' });
export type UpdateUser = z.input<typeof updateUserSchema>;

/** The account drawer (resource auth/users) may change only the username. */
export const updateAccountSchema = z.object({ username: text('username') }).strict();

export const userSortable = ['createdAt', 'username', 'email', 'role', 'status'] as const;
export const userFilterable = { username: ['contains'], email: ['contains'], role: ['contains', 'eq', 'in'], status: ['in', 'eq'] } as const;
