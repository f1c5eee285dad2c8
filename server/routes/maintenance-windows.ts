import type { FastifyInstance } from 'fastify';
import { endpoints } from '../contract/api-routes';
import type { Db } from '../db/client';
import { serve } from '../http/serve';
import { windowResource } from '../maintenance/resource';
import { previewWindow, windowOccurrences } from '../maintenance/service';
import { registerResource } from './resource';

/**
 * Issue 14 §3 maintenance windows: SPEC's generic list / one / create / update / delete, a preview
 * of what they cover now, and the occurrences the calendar draws. Every change makes the
 * evaluator look again at once (`changed`).
 */
export function registerMaintenanceWindows(app: FastifyInstance, db: Db, changed: () => void): void {
  registerResource(app, db, windowResource(changed));

  // A preview reads: it is not a change for the audit trail.
  serve(app, endpoints['maintenanceWindows.preview'], async ({ body }) => ({ result: await previewWindow(db, body) }), { config: { audit: false } });

  serve(app, endpoints['maintenanceWindows.occurrences'], async ({ query }) => ({ result: await windowOccurrences(db, query) }));
}
