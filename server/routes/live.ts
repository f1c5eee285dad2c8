import type { FastifyInstance } from 'fastify';
import { endpoints } from '../contract/api-routes';
import { serve } from '../http/serve';
import type { LiveStreams } from '../live/stream';

/**
 * GET /api/live through its declaration like any call: `serve` checks the caller (401 signed out)
 * and parses `?lastEventId=`; the stream itself (server/live/stream.ts) takes the connection over.
 */
export function registerLive(app: FastifyInstance, streams: LiveStreams): void {
  // Streams never end by themselves: close them before the server waits for its connections.
  app.addHook('preClose', async () => streams.endAll());
  serve(app, endpoints['live.stream'], ({ query, request, reply }) => streams.serve(request, reply, query.lastEventId));
}
