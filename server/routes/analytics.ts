import type { FastifyInstance } from 'fastify';
import { alertsSummary, downServers, nodesSummary, servicesDown, topCpu, topDisk, topMemory } from '../analytics/service';
import { endpoints } from '../contract/api-routes';
import type { Rows } from '../contract/analytics';
import type { Db } from '../db/client';
import { serve } from '../http/serve';

const rows = <T>(data: T[]): Rows<T> => ({ result: { data, count: data.length } });

/** SPEC §7 Analytics: the home dashboard's figures (server/analytics/service.ts). */
export function registerAnalytics(app: FastifyInstance, db: Db): void {
  serve(app, endpoints['analytics.topCpu'], async ({ query }) => rows(await topCpu(db, query)));
  serve(app, endpoints['analytics.topMemory'], async ({ query }) => rows(await topMemory(db, query)));
  serve(app, endpoints['analytics.topDisk'], async ({ query }) => rows(await topDisk(db, query)));
  serve(app, endpoints['analytics.nodesSummary'], async () => ({ result: await nodesSummary(db) }));
  serve(app, endpoints['analytics.alertsSummary'], async () => ({ result: await alertsSummary(db) }));
  serve(app, endpoints['analytics.servicesDown'], async () => rows(await servicesDown(db)));
  serve(app, endpoints['analytics.downServers'], async () => rows(await downServers(db)));
}
