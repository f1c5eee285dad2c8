import { z } from 'zod';
import { str } from './common';

/**
 * Personal API tokens (issue 13): `Authorization: Bearer odt_…` on /api, without the session
 * cookie and without the cross-site header. A token acts as its owner, with the owner's role
 * (`role`) or for reading only (`read`); the audit trail names the person and the token.
 */
export const PERSONAL_TOKEN_PREFIX = 'odt_';
export const tokenScopes = ['role', 'read'] as const;
export type TokenScope = (typeof tokenScopes)[number];
export const tokenScopeLabels: Record<TokenScope, string> = { role: 'My role', read: 'Read only' };

export const personalTokenSchema = z.object({
  _id: str(),
  name: str(),
  /** The first characters of the token, to tell tokens apart without the secret. */
  prefix: str(),
  scope: z.enum(tokenScopes),
  createdAt: str(),
  lastUsedAt: str().nullable(),
  revokedAt: str().nullable(),
});
export type PersonalToken = z.infer<typeof personalTokenSchema>;

/** POST /api/auth/tokens answers the token once, in `token`; only its hash is kept. */
export type CreatedPersonalToken = PersonalToken & { token: string };

export const createTokenSchema = z
  .object({
    name: str({ error: 'name must be text' }).trim().min(1, 'name is required').max(100, 'name is too long (at most 100 characters)'),
    scope: z.enum(tokenScopes, { error: `scope must be one of ${tokenScopes.join(', ')}` }).default('role'),
  })
  .strict();
export type CreateToken = z.input<typeof createTokenSchema>;
