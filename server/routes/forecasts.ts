import type { FastifyInstance } from 'fastify';
import { endpoints } from '../contract/api-routes';
import type { Db } from '../db/client';
import { serve } from '../http/serve';
import { serverForecastsOf } from '../servers/service';

/** GET /api/servers/forecast/{id} (issue 16): when the server's disk and memory run out at the current trend. */
export function registerForecasts(app: FastifyInstance, db: Db): void {
  serve(app, endpoints['servers.forecast'], async ({ params }) => ({ result: await serverForecastsOf(db, params) }));
}
