import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config';
import { openDatabase, type Database } from './db/client';
import { HttpError, installErrorHandlers } from './http/errors';
import { loadSession, readToken } from './http/session';
import { registerAgent } from './routes/agent';
import { registerAgentDownloads } from './routes/agent-downloads';
import { registerAlerts } from './routes/alerts';
import { registerAnalytics } from './routes/analytics';
import { registerAuth } from './routes/auth';
import { registerCommandHistory } from './routes/command-history';
import { registerIncidentReport } from './routes/incident-report';
import { registerMonitoring } from './routes/monitoring';
import { registerServers } from './routes/servers';
import { registerUsers } from './routes/users';
import { Monitoring } from './monitoring/monitoring';
import { DeliveryWorker } from './alerting/delivery';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    monitoring: Monitoring;
    delivery: DeliveryWorker;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const redactKeys = (url: string) => url.replace(/(\/validate_api_key\/)[^/?#]+/, '$1[redacted]');

/**
 * The whole API (and the built UI when `config.uiDir` holds one). Tests pass their own database
 * (`deps.database`) so one PGlite serves a whole test file; otherwise the app opens one and
 * closes it with the app.
 */
export async function buildApp(config: Config, deps: { database?: Database } = {}): Promise<FastifyInstance> {
  const database = deps.database ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  const { db } = database;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // SPEC puts the agent's API key in the path of validate_api_key: keep it out of the logs.
      serializers: {
        req: (req) => ({ method: req.method, url: redactKeys(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort }),
      },
    },
    bodyLimit: 1024 * 1024,
    trustProxy: false,
  });
  app.decorate('database', database);
  const monitoring = new Monitoring(database, config.monitoring, app.log.child({ module: 'monitoring' }));
  app.decorate('monitoring', monitoring);
  // Alert notifications (docs/alerting.md "Delivery"); the evaluator starts in routes/alerts.ts.
  const delivery = new DeliveryWorker(database, config.delivery, app.log.child({ module: 'delivery' }));
  app.decorate('delivery', delivery);
  app.addHook('onReady', async () => {
    monitoring.start();
    delivery.start();
  });
  // Stop collecting and sending before the database goes.
  app.addHook('onClose', async () => {
    await monitoring.stop();
    await delivery.stop();
    if (!deps.database) await database.close();
  });
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);

  installErrorHandlers(app);
  await app.register(fastifyCookie);
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_req, ctx) => {
      const err = new HttpError(429, `Too many sign-in attempts. Try again in ${Math.ceil(ctx.ttl / 1000)} s.`);
      return err;
    },
  });

  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    // Cross-site protection for cookie-authenticated writes: a form or <img> on another site
    // cannot add this header, and a cross-site fetch that adds it needs a preflight we never allow.
    if (!SAFE_METHODS.has(request.method) && request.headers['x-requested-with'] !== 'opsdeck') {
      throw new HttpError(403, 'Cross-site request refused: the x-requested-with header is missing');
    }
    const session = await loadSession(db, readToken(request));
    if (session === 'expired') {
      request.user = null;
      (request as { sessionExpired?: boolean }).sessionExpired = true;
    } else if (session) {
      request.user = session.user;
      request.sessionId = session.sessionId;
    }
  });

  app.get('/api/health', async () => ({ status: 'ok', db: database.kind }));
  registerAuth(app, db, config);
  registerUsers(app, db);
  registerCommandHistory(app, db);
  registerServers(app, db, monitoring);
  registerMonitoring(app, database, config.monitoring);
  registerAlerts(app, database, config.alerting);
  // Alert latency (docs/alerting.md "When ticks run"): evaluate as soon as a scrape round's
  // figures are written, and send what a tick queued at once. Monitoring and the evaluator stay
  // unaware of each other; both calls do nothing while their loop is off.
  monitoring.onRoundWritten(() => app.alerting.trigger());
  app.alerting.onQueued = () => delivery.wake();
  registerIncidentReport(app, db);
  registerAnalytics(app, db);
  registerAgent(app, db, monitoring, { publicUrl: config.publicUrl });
  registerAgentDownloads(app);

  const uiDir = config.uiDir ? resolve(config.uiDir) : undefined;
  const serveUi = !!uiDir && existsSync(resolve(uiDir, 'index.html'));
  if (serveUi) await app.register(fastifyStatic, { root: uiDir!, wildcard: false, index: false });

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api') {
      return reply.status(404).send({ statusCode: 404, error: 'Not Found', message: `No API call ${request.method} ${request.url.split('?')[0]}` });
    }
    if (serveUi && (request.method === 'GET' || request.method === 'HEAD')) {
      // SPA fallback: the client router decides what the path shows (including its not-found page).
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.status(404).send({ statusCode: 404, error: 'Not Found', message: 'Not found' });
  });

  return app;
}
