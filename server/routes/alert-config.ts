import type { FastifyInstance } from 'fastify';
import { createDefaultConfig, isEmptyBody, listAlertConfigs, resetAlertConfig, updateAlertConfig } from '../alert-config/service';
import { audited } from '../audit/trail';
import { endpoints } from '../contract/api-routes';
import type { Db } from '../db/client';
import { badRequest } from '../http/errors';
import { serve } from '../http/serve';

/** SPEC §7 alert-config calls: get (by serverId), create defaults, update with the full config, reset. */
export function registerAlertConfig(app: FastifyInstance, db: Db): void {
  serve(app, endpoints['alertConfig.list'], async ({ body }) => ({ result: await listAlertConfigs(db, body) }));

  serve(app, endpoints['alertConfig.createDefaults'], async ({ params, request }) => ({ result: await audited(request, db, (tx, audit) => createDefaultConfig(tx, params, audit)) }));

  serve(app, endpoints['alertConfig.update'], async ({ params, body, request }) => ({ result: await audited(request, db, (tx, audit) => updateAlertConfig(tx, { ...body, id: params.id }, audit)) }));

  serve(app, endpoints['alertConfig.reset'], async ({ params, request }) => {
    if (!isEmptyBody(request.body)) throw badRequest('reset-alert-rules takes an empty body');
    return { result: await audited(request, db, (tx, audit) => resetAlertConfig(tx, params, audit)) };
  });
}
