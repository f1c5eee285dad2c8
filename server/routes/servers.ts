import type { FastifyInstance } from 'fastify';
import { endpoints } from '../contract/api-routes';
import type { Db } from '../db/client';
import { serve } from '../http/serve';
import type { Monitoring } from '../monitoring/monitoring';
import { serverMetricsResource, serversResource } from '../servers/resource';
import { serverChart, serverUpStatus, serverUsage } from '../servers/service';
import { listServices } from '../servers/services-list';
import { registerResource } from './resource';

/** SPEC §7 Servers: the servers resource, its metrics list, usage, up status, charts and services. */
export function registerServers(app: FastifyInstance, db: Db, monitoring: Monitoring): void {
  registerResource(app, db, serversResource({ outbound: app.outbound, monitoring }));
  registerResource(app, db, serverMetricsResource());

  serve(app, endpoints['servers.usage'], async ({ params }) => ({ result: await serverUsage(db, params) }));
  serve(app, endpoints['servers.upStatus'], async ({ params }) => ({ result: await serverUpStatus(db, params) }));
  serve(app, endpoints['servers.chart'], async ({ params, query }) => ({ result: await serverChart(db, monitoring, { id: params.id, ...query }) }));
  serve(app, endpoints['services.list'], async ({ body }) => ({ result: await listServices(db, body) }));
}
