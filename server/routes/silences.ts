import type { FastifyInstance } from 'fastify';
import { audited } from '../audit/trail';
import { endpoints } from '../contract/api-routes';
import type { Db } from '../db/client';
import { serve } from '../http/serve';
import { silenceResource } from '../silences/resource';
import { expireSilence, previewSilence } from '../silences/service';
import { registerResource } from './resource';

/**
 * Issue 14 §2 silences: SPEC's generic list / one / create / update, plus expire and a preview
 * of what matchers match now. Every change makes the evaluator look again at once (`changed`).
 */
export function registerSilences(app: FastifyInstance, db: Db, changed: () => void): void {
  registerResource(app, db, silenceResource(changed));

  serve(app, endpoints['silences.expire'], async ({ params, request }) => ({ result: await audited(request, db, (tx, audit) => expireSilence(tx, params, audit, changed)) }));

  // A preview reads: it is not a change for the audit trail.
  serve(app, endpoints['silences.preview'], async ({ body }) => ({ result: await previewSilence(db, body) }), { config: { audit: false } });
}
