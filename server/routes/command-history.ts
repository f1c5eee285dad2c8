import type { FastifyInstance } from 'fastify';
import { endpoints } from '../contract/api-routes';
import type { Db } from '../db/client';
import { serve } from '../http/serve';
import { streamHistory } from '../audit/export';
import { historyResource, historyToApi } from '../audit/history';
import { registerResource } from './resource';

/** History (server/audit/history.ts): the generic resource calls, and a window's export. */
export function registerCommandHistory(app: FastifyInstance, db: Db): void {
  registerResource(app, db, historyResource);

  // JSON Lines beside the markdown incident report: one record per line, oldest first.
  serve(app, endpoints['commandHistory.export'], async ({ query: q, reply }) => {
    const stamp = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
    reply
      .type('application/x-ndjson; charset=utf-8')
      .header('content-disposition', `attachment; filename="history-${stamp(q.from)}-${stamp(q.to)}.jsonl"`)
      .header('cache-control', 'no-store');
    return reply.send(streamHistory(db, q, historyToApi));
  });
}
