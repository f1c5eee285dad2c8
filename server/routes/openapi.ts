import type { FastifyInstance } from 'fastify';
import { endpoints } from '../contract/api-routes';
import { buildOpenApi } from '../contract/openapi';
import { serve } from '../http/serve';
import { packageVersion } from '../paths';

/**
 * GET /api/openapi.json: the API described from the contract (server/contract/api-routes.ts and
 * the zod schemas the routes parse with). Public, like any API's description: it holds no data.
 * Built once, on the first call.
 */
export function registerOpenApi(app: FastifyInstance): void {
  let document: string | undefined;
  serve(app, endpoints['ops.openapi'], async ({ reply }) => {
    document ??= JSON.stringify(buildOpenApi(packageVersion));
    return reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(document);
  });
}
