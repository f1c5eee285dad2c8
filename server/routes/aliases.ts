import type { FastifyInstance } from 'fastify';
import { endpoints } from '../contract/api-routes';
import type { Db } from '../db/client';
import { audited } from '../audit/trail';
import { listAliases, putAlias, removeAlias } from '../aliases/service';
import { serve } from '../http/serve';

/**
 * Each person's command aliases (issue 13): `GET /api/aliases` lists your own, `PUT
 * /api/aliases/{name}` with `{line}` creates or replaces one (201 / 200), `DELETE
 * /api/aliases/{name}` removes it.
 */
export function registerAliases(app: FastifyInstance, db: Db): void {
  serve(app, endpoints['aliases.list'], async ({ user }) => ({ result: await listAliases(db, user) }));

  serve(app, endpoints['aliases.put'], async ({ params, body, user, request, reply }) => {
    const { alias, created } = await audited(request, db, (tx, audit) => putAlias(tx, { name: params.name, ...body }, user, audit));
    if (created) reply.status(201);
    return { result: alias };
  });

  serve(app, endpoints['aliases.remove'], async ({ params, user, request }) => ({ result: await audited(request, db, (tx, audit) => removeAlias(tx, params, user, audit)) }));
}
