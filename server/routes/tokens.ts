import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpoints } from '../contract/api-routes';
import type { Db } from '../db/client';
import { audited } from '../audit/trail';
import { forbidden } from '../http/errors';
import { serve } from '../http/serve';
import { createToken, listTokens, revokeToken } from '../tokens/service';

/** Before the body is parsed: a token caller is refused whatever it sends. */
async function fromSessionOnly(request: FastifyRequest): Promise<void> {
  if (request.apiToken) throw forbidden('Personal API tokens are made from a signed-in session, not with another token');
}

/**
 * Personal API tokens (issue 13), each person's own: `GET /api/auth/tokens` lists yours (revoked
 * ones too, with when), `POST` makes one and answers its secret once, `DELETE …/{id}` revokes it
 * (server/tokens/service.ts). New tokens are made from a signed-in session only: a token cannot
 * breed tokens that outlive its revocation.
 */
export function registerTokens(app: FastifyInstance, db: Db): void {
  serve(app, endpoints['tokens.list'], async ({ user }) => {
    const data = await listTokens(db, user);
    return { result: { data, count: data.length } };
  });

  serve(app, endpoints['tokens.create'], async ({ body, user, request }) => ({ result: await audited(request, db, (tx, audit) => createToken(tx, body, user, audit)) }), { before: ({ request }) => fromSessionOnly(request) });

  serve(app, endpoints['tokens.revoke'], async ({ params, user, request }) => ({ result: await audited(request, db, (tx, audit) => revokeToken(tx, params, user, audit)) }));
}
