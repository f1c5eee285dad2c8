import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { HistoryRetention } from './audit/retention';
import { installAuditTrail } from './audit/trail';
import { loadPersonalToken, personalTokenOf } from './auth/personal-tokens';
import type { Config } from './config';
import { openDatabase, type Database } from './db/client';
import { HttpError, installErrorHandlers } from './http/errors';
import { installHttpHygiene, uiCacheHeaders } from './http/hygiene';
import { installJsonBodyParser } from './http/json-body';
import { MAX_BODY_BYTES } from './http/limits';
import { fastifyTrustProxy } from './http/trust-proxy';
import { loadSession, readToken } from './http/session';
import { registerAgent } from './routes/agent';
import { registerAgentDownloads } from './routes/agent-downloads';
import { registerAliases } from './routes/aliases';
import { registerAlerts } from './routes/alerts';
import { registerAlertConfig } from './routes/alert-config';
import { registerNotificationGroups } from './routes/notification-groups';
import { registerNotificationChannels } from './routes/notification-channels';
import { registerSilences } from './routes/silences';
import { registerMaintenanceWindows } from './routes/maintenance-windows';
import { registerOnCall } from './routes/oncall';
import { registerAnalytics } from './routes/analytics';
import { registerSearch } from './routes/search';
import { registerAuth } from './routes/auth';
import { registerTokens } from './routes/tokens';
import { registerContactMethods } from './routes/contact-methods';
import { registerChecks } from './routes/checks';
import { registerForecasts } from './routes/forecasts';
import { registerCommandHistory } from './routes/command-history';
import { registerIncidentReport } from './routes/incident-report';
import { registerLive } from './routes/live';
import { LiveHub, LiveRetention } from './live/hub';
import { LiveStreams } from './live/stream';
import { AlertRetention } from './alerting/retention';
import { computePrometheusForecasts } from './alerting/forecasts-promql';
import { registerMonitoring } from './routes/monitoring';
import { registerOps } from './routes/ops';
import { registerAlertReach } from './routes/alert-reach';
import { registerOpenApi } from './routes/openapi';
import { PAGE_ACTIONS_PREFIX, registerPageActions, SLACK_INTERACTIONS_PATH } from './routes/page-actions';
import { PageActionSigner } from './page-actions/token';
import { registerSelfMetrics } from './routes/self-metrics';
import { registerServers } from './routes/servers';
import { registerStatusPages } from './routes/status-pages';
import { statusPageExists } from './status/pages';
import { registerUsers } from './routes/users';
import { ALERTMANAGER_RECEIVER_PATH, registerIntegrations } from './routes/integrations';
import { AlertmanagerPush } from './alertmanager/push';
import { Monitoring } from './monitoring/monitoring';
import { DeliveryWorker } from './alerting/delivery';
import { AlertEvaluator } from './alerting/evaluator';
import { keyFromDataDir, keyFromText, SecretBox } from './channels/secret-box';
import { registerCheckMetrics } from './monitoring/checks/check-metrics';
import { sealStoredHeaders } from './monitoring/checks/check-headers';
import { OutboundPolicy } from './outbound/policy';
import { closeOutboundFetches, outboundFetch } from './outbound/http-client';
import { normalisedUrl } from './http/normalise-path';
import { metricsRegistry } from './ops/metrics';
import { LeaderGate } from './ops/leader';
import { FaultWatch } from './ops/fault-watch';
import { FreshnessWatch } from './ops/freshness-watch';
import { GapWatch } from './oncall/gap-watch';
import { databaseCheck, leaderCheck, migrationsCheck, monitoringCheck, registerHealth, storageCheck } from './ops/readiness';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    /** The one place background work starts: add leader-only loops here (docs/architecture.md "Replicas"). */
    leader: LeaderGate;
    freshness: FreshnessWatch;
    /** Issue 27 §7: mails a schedule's owners once about each gap in its next 7 days (leader only). */
    oncallGaps: GapWatch;
    monitoring: Monitoring;
    delivery: DeliveryWorker;
    /** Rule evaluation and the alert lifecycle (docs/alerting.md), leader only. */
    alerting: AlertEvaluator;
    /** Issue 15 §2: Opsdeck's alerts to Alertmanager (leader only; off without ALERTMANAGER_URL). */
    alertmanager: AlertmanagerPush;
    /** Seals and opens channel targets' secrets (issue 15). */
    secretBox: SecretBox;
    /** Where checks, channels, Alertmanager and exporters may connect (server/outbound/policy.ts). */
    outbound: OutboundPolicy;
    alertRetention: AlertRetention;
    /** What changed, for the live streams (GET /api/live). */
    live: LiveHub;
    /** Every route as registered (method, path pattern): the fuzz suite walks them all. */
    registeredRoutes: { method: string; url: string }[];
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const PROBE_PATHS = new Set(['/api/health', '/api/ready']);
/** Calls that carry their own credential (a bearer token the route checks), never a session. */
const MACHINE_PATHS = new Set([ALERTMANAGER_RECEIVER_PATH, SLACK_INTERACTIONS_PATH]);

/**
 * Whether a path not served otherwise is one of the app's own pages (the client router shows it,
 * its not-found page included), so it gets index.html. Probes, scrapers and asset requests must
 * not: a `/healthz` or `/metrics` answered with the app's HTML and 200 makes every check pass.
 */
export function isAppNavigation(path: string, accept: string | undefined): boolean {
  const first = path.split('/')[1]?.toLowerCase() ?? '';
  // Names probes and scrapers use; none is a route of the app (SPEC §2).
  if (/^(metrics|health|healthz|ready|readyz|live|livez)$/.test(first)) return false;
  if (first.startsWith('.')) return false;
  // Asset-like: the last segment has a file extension (.js, .css, .png, .map, .txt, .php …).
  const last = path.split('/').at(-1) ?? '';
  if (/\.[A-Za-z0-9]{1,10}$/.test(last)) return false;
  // A client that says it does not want HTML (an API client asking for JSON) does not get it.
  if (accept && !/text\/html|\*\/\*|application\/xhtml/i.test(accept)) return false;
  return true;
}
/** Secrets that travel in URLs (an installer's key, a calendar feed's token) stay out of the request log. */
const redactKeys = (url: string) =>
  url
    .replace(/(\/validate_api_key\/)[^/?#]+/, '$1[redacted]')
    .replace(/([?&]token=)[^&#]+/, '$1[redacted]')
    .replace(/(\/api\/page-actions\/)[^/?#]+/, '$1[redacted]');

/**
 * The whole API (and the built UI when `config.uiDir` holds one). Tests pass their own database
 * (`deps.database`) so one PGlite serves a whole test file; otherwise the app opens one and
 * closes it with the app. `deps.logStream` receives the JSON log lines (tests that count them).
 */
export async function buildApp(config: Config, deps: { database?: Database; logStream?: { write(line: string): void } } = {}): Promise<FastifyInstance> {
  const database = deps.database ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  const { db } = database;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // SPEC puts the agent's API key in the path of validate_api_key: keep it out of the logs.
      serializers: {
        req: (req) => ({ method: req.method, url: redactKeys(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort }),
      },
      ...(deps.logStream ? { stream: deps.logStream } : {}),
    },
    bodyLimit: MAX_BODY_BYTES,
    // Off unless TRUST_PROXY names the proxies: then request.ip (limits, logs, the trail) is the real client.
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Request ids are kept in the audit trail: unique across restarts and replicas, not req-1, req-2.
    genReqId: () => randomUUID(),
    // One path for every guard, limit and route: an encoded, doubled-slash or upper-case form of a
    // path is that path (server/http/normalise-path.ts); request.originalUrl keeps what came.
    rewriteUrl: (req) => normalisedUrl(req.url ?? '/'),
  });
  // Before any route: plugins' routes included, so a new route cannot escape the fuzz suite.
  const registeredRoutes: { method: string; url: string }[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) registeredRoutes.push({ method, url: route.url });
  });
  app.decorate('registeredRoutes', registeredRoutes);
  app.decorate('database', database);
  const leader = new LeaderGate(database, config.leader, app.log.child({ module: 'leader' }));
  app.decorate('leader', leader);
  const monitoring = new Monitoring(database, config.monitoring, app.log.child({ module: 'monitoring' }));
  app.decorate('monitoring', monitoring);
  // Check results on /metrics (issue 16; the registry h12's /metrics serves).
  registerCheckMetrics(metricsRegistry, monitoring.checks);
  // Checks and channels must not point at Opsdeck itself: its listening port (known once it
  // listens) and PUBLIC_URL; nobody's target is link-local or a cloud metadata address.
  const outbound = new OutboundPolicy(config.outbound, () => {
    const address = app.server.address();
    return { ports: address && typeof address === 'object' ? [address.port] : [], publicUrl: config.publicUrl };
  });
  app.decorate('outbound', outbound);
  monitoring.checks.outbound = outbound;
  // Alert notifications (docs/alerting.md "Delivery") and the evaluator that queues them.
  const secretBox = openSecretBox(config, database.kind, app.log);
  app.decorate('secretBox', secretBox);
  // Check header values are sealed with the same box; values an earlier version stored in the
  // clear are sealed now, before the checks are read (check-headers.ts).
  monitoring.checks.secretBox = secretBox;
  await sealHeadersStoredInClear(database, secretBox, app.log);
  // Signs the acknowledge and resolve links in notifications (issue 27 §4) with a key of its own from the same secret.
  const pageActionSigner = new PageActionSigner(secretBox.derive('page-actions'));
  const delivery = new DeliveryWorker(database, config.delivery, app.log.child({ module: 'delivery' }), Date.now, secretBox, outbound, pageActionSigner);
  app.decorate('delivery', delivery);
  const evaluator = new AlertEvaluator(database, config.alerting, app.log.child({ module: 'alerting' }), Date.now, leader);
  app.decorate('alerting', evaluator);
  // Background work runs in the leader only (every process on PGlite is its only one).
  leader.add({ name: 'monitoring', start: () => monitoring.start(), stop: () => monitoring.stop() });
  leader.add({ name: 'delivery', start: () => delivery.start(), stop: () => delivery.stop() });
  const alertmanager = new AlertmanagerPush(db, config.alertmanager, app.log.child({ module: 'alertmanager' }), outbound);
  app.decorate('alertmanager', alertmanager);
  if (alertmanager.enabled) leader.add({ name: 'alertmanager-push', start: () => alertmanager.start(), stop: () => alertmanager.stop() });
  // Never blind without saying so (issue 12): stale servers, the meta alert, the published health.
  const watch = new FreshnessWatch(database, monitoring, leader, leader.name, app.log.child({ module: 'freshness' }));
  watch.onQueued = () => delivery.wake();
  app.decorate('freshness', watch);
  leader.add({ name: 'freshness', start: () => watch.start(), stop: () => watch.stop() });
  // Faults that say what they are (issue 25 §7): the meta alert while the database cannot store changes.
  const faultWatch = new FaultWatch(database, leader, app.log.child({ module: 'faults' }), Math.max(1000, Math.min(5000, config.monitoring.scrapeIntervalS * 1000)));
  faultWatch.onQueued = () => delivery.wake();
  leader.add({ name: 'faults', start: () => faultWatch.start(), stop: () => faultWatch.stop() });
  // Nobody on call (issue 27 §7): each gap of the next 7 days is mailed to the schedule's owners once.
  const gapWatch = new GapWatch(db, (to, notice) => delivery.mailNotice(to, notice), (config.publicUrl ?? config.delivery.publicUrl).replace(/\/+$/, ''), app.log.child({ module: 'oncall-gaps' }));
  app.decorate('oncallGaps', gapWatch);
  // Without SMTP_URL there is nobody to mail: the warnings on the screens stay.
  if (config.delivery.smtpUrl) leader.add({ name: 'oncall-gaps', start: () => gapWatch.start(), stop: () => gapWatch.stop() });
  // The audit trail's retention (HISTORY_RETENTION_DAYS): one process prunes.
  const retention = new HistoryRetention(database.db, config.historyRetentionDays, app.log.child({ module: 'history' }));
  leader.add({ name: 'history-retention', start: () => retention.start(), stop: () => retention.stop() });
  // Resolved alerts older than ALERT_RETENTION_DAYS, in small batches (issue 17 §5).
  const alertRetention = new AlertRetention(database, config.alertRetention, app.log.child({ module: 'alert-retention' }));
  app.decorate('alertRetention', alertRetention);
  leader.add({ name: 'alert-retention', start: () => alertRetention.start(), stop: () => alertRetention.stop() });
  // The live stream (issue 24): every process reads what any process wrote; one prunes.
  const live = new LiveHub(database, app.log.child({ module: 'live' }));
  app.decorate('live', live);
  const liveStreams = new LiveStreams(database, live, config.live);
  const liveRetention = new LiveRetention(database, config.live.retentionMinutes, app.log.child({ module: 'live-retention' }));
  leader.add({ name: 'live-retention', start: () => liveRetention.start(), stop: async () => liveRetention.stop() });
  // The evaluator starts last, once the loops it reads from and sends through are running.
  leader.add({ name: 'evaluator', start: () => evaluator.start(), stop: () => evaluator.stop() });
  // Alert latency (docs/alerting.md "When ticks run"): evaluate as soon as a scrape round's
  // figures are written, and send what a tick queued at once. Monitoring and the evaluator stay
  // unaware of each other; both calls do nothing while their loop is off.
  monitoring.onRoundWritten(() => evaluator.trigger('round'));
  evaluator.onQueued = () => {
    delivery.wake();
    alertmanager.wake();
  };
  // Prometheus mode: forecasts by predict_linear over Prometheus's history (the built-in store has none).
  const prometheus = monitoring.prometheus;
  if (prometheus) evaluator.forecaster = (nowMs) => computePrometheusForecasts(database, prometheus, nowMs);
  app.addHook('onReady', async () => live.start());
  app.addHook('onReady', async () => leader.start());
  // Stop collecting and sending before the database goes.
  app.addHook('onClose', async () => {
    await leader.stop();
    await live.stop();
    await monitoring.stop();
    monitoring.prometheus?.close();
    await delivery.stop();
    await alertmanager.stop();
    await closeOutboundFetches(outbound);
    if (!deps.database) await database.close();
  });
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('apiToken', null);

  installErrorHandlers(app, database);
  const uiDir = config.uiDir ? resolve(config.uiDir) : undefined;
  const serveUi = !!uiDir && existsSync(resolve(uiDir, 'index.html'));
  // Security headers and compression (issue 11): before any route, so every reply has them.
  await installHttpHygiene(app, { uiDir: serveUi ? uiDir : undefined, grafanaUrl: config.monitoring.grafanaUrl, publicUrl: config.publicUrl });
  registerSelfMetrics(app, config.metrics);
  installJsonBodyParser(app);
  await app.register(fastifyCookie);

  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    // Probes carry no session, and must answer while the database does not.
    if (PROBE_PATHS.has(request.url.split('?')[0]!)) return;
    if (request.method === 'POST' && MACHINE_PATHS.has(request.url.split('?')[0]!)) return;
    // A notification's link or button (issue 27 §4): its signed token is the credential, for one
    // person, one alert and one action; the page's form cannot carry the cross-site header, and a
    // session plays no part (the link acts as the person it was sent to, whoever is signed in).
    if (request.url.startsWith(PAGE_ACTIONS_PREFIX)) return;
    // A personal API token (issue 13) is the credential itself, never sent by a browser on its
    // own: no cookie is read and no cross-site header is needed (another site's page cannot set
    // Authorization without a CORS preflight we never grant).
    const personal = personalTokenOf(request);
    if (personal !== undefined) {
      const found = await loadPersonalToken(db, personal);
      if (!found) throw new HttpError(401, 'This API token is not valid: it is unknown or revoked, or its user is suspended');
      request.user = found.user;
      request.apiToken = found.token;
      return;
    }
    // Cross-site protection for cookie-authenticated writes: a form or <img> on another site
    // cannot add this header, and a cross-site fetch that adds it needs a preflight we never allow.
    if (!SAFE_METHODS.has(request.method) && request.headers['x-requested-with'] !== 'opsdeck') {
      throw new HttpError(403, 'Cross-site request refused: the x-requested-with header is missing');
    }
    const session = await loadSession(database, readToken(request));
    if (session === 'expired') {
      request.user = null;
      (request as { sessionExpired?: boolean }).sessionExpired = true;
    } else if (session) {
      request.user = session.user;
      request.sessionId = session.sessionId;
    }
  });
  // After the session is known: every mutating call is recorded (server/audit/trail.ts).
  installAuditTrail(app, db);

  registerHealth(app, database, () => [databaseCheck(database), storageCheck(database), migrationsCheck(database), monitoringCheck(database, monitoring, watch, leader), leaderCheck(database, leader)]);
  registerAuth(app, db, config);
  registerTokens(app, db);
  registerContactMethods(app, db);
  registerUsers(app, db);
  registerCommandHistory(app, db);
  registerAliases(app, db);
  registerServers(app, db, monitoring);
  registerMonitoring(app, database, config.monitoring);
  registerOps(app, database);
  registerAlertReach(app, database, config.delivery);
  registerAlerts(app, db, evaluator);
  registerPageActions(app, db, evaluator, pageActionSigner, { publicUrl: config.delivery.publicUrl, slackSigningSecret: config.delivery.slackSigningSecret, fetch: outboundFetch(outbound, 'channel') });
  registerAlertConfig(app, db);
  registerNotificationGroups(app, db, () => evaluator.trigger());
  registerNotificationChannels(app, db);
  // Issue 14: a new or changed silence is applied by the next tick, which comes at once.
  registerSilences(app, db, () => evaluator.trigger());
  registerMaintenanceWindows(app, db, () => evaluator.trigger());
  registerOnCall(app, db, { publicUrl: config.publicUrl });
  // New figures are one event per written round, not one per server (migration 0028).
  monitoring.onRoundWritten(() => void database.query(`insert into live_events (kind, data) values ('servers', '{"change":"figures"}')`).catch((error) => app.log.warn({ err: error }, 'Could not record new figures for the live stream')));
  registerIntegrations(app, db, config.alertmanager, alertmanager);
  registerChecks(app, db, monitoring);
  registerForecasts(app, db);
  registerStatusPages(app, database, monitoring, config.statusPages);
  registerIncidentReport(app, db, config.alertRetention.days);
  registerLive(app, liveStreams);
  registerAnalytics(app, db);
  registerSearch(app, db);
  registerAgent(app, db, monitoring, { publicUrl: config.publicUrl });
  registerAgentDownloads(app);
  registerOpenApi(app);

  if (serveUi) {
    // Brotli and gzip copies written at build time are sent when the browser takes them.
    await app.register(fastifyStatic, { root: uiDir!, wildcard: false, index: false, preCompressed: true, cacheControl: false, setHeaders: uiCacheHeaders(uiDir!) });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (path === '/api' || path.startsWith('/api/')) {
      return reply.status(404).send({ statusCode: 404, error: 'Not Found', message: `No API call ${request.method} ${path}` });
    }
    if (serveUi && (request.method === 'GET' || request.method === 'HEAD') && isAppNavigation(path, request.headers.accept)) {
      // A public status page that does not exist is a 404 (the page itself says so).
      const slug = /^\/status\/([^/]+)\/?$/.exec(path)?.[1];
      if (slug !== undefined) {
        let name = slug;
        try {
          name = decodeURIComponent(slug);
        } catch {
          // Not valid percent-encoding: no page has that name.
        }
        // The database away: the page loads and says what its API call says.
        // The page is sent whole, never as a conditional answer: a 404 cannot be "not modified",
        // and a browser revalidating its copy would otherwise get a 404 with no body at all.
        if (!(await statusPageExists(database, name).catch(() => true))) {
          return reply.status(404).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(readFileSync(resolve(uiDir!, 'index.html')));
        }
      }
      // SPA fallback: the client router decides what the path shows (including its not-found page).
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.status(404).send({ statusCode: 404, error: 'Not Found', message: 'Not found' });
  });

  return app;
}

async function sealHeadersStoredInClear(database: Database, box: SecretBox, log: FastifyInstance['log']): Promise<void> {
  try {
    const sealed = await sealStoredHeaders(database, box);
    if (!sealed) return;
    // The rows as they were stay in the table's pages until a vacuum: rewritten at once. An
    // embedded backup also copies the write-ahead log, whose segments are recycled with their old
    // bytes: the one holding the old rows is closed and removed, so a backup taken from now on
    // holds the sealed values only. (On PostgreSQL, pg_dump copies no log.)
    await database.query('vacuum full checks');
    if (database.kind === 'pglite') {
      await database.query('set wal_recycle = off');
      await database.query('select pg_switch_wal()');
      // The first checkpoint begins the new segment's redo, the second lets the old one go.
      await database.query('checkpoint');
      await database.query('checkpoint');
      await database.query('reset wal_recycle');
    }
    log.info({ checks: sealed }, `Sealed the header values of ${sealed} check${sealed === 1 ? '' : 's'} that were stored in the clear`);
  } catch (err) {
    // Sent as stored meanwhile; the next start tries again.
    log.warn({ err }, 'Could not seal the check header values stored in the clear');
  }
}

/**
 * The key for channel secrets (docs/decisions.md): OPSDECK_SECRET_KEY, or else a key generated
 * once into DATA_DIR/secret.key — right for the embedded (PGlite) instance. Replicas on one
 * PostgreSQL must share OPSDECK_SECRET_KEY: each would otherwise make its own file and not read
 * the others' secrets, so that case is warned about.
 */
function openSecretBox(config: Config, kind: string, log: FastifyInstance['log']): SecretBox {
  if (config.secretKey) return new SecretBox(keyFromText(config.secretKey));
  const { key, created } = keyFromDataDir(config.dataDir);
  if (kind !== 'pglite') log.warn({ file: `${config.dataDir}/secret.key` }, 'OPSDECK_SECRET_KEY is not set: channel secrets are encrypted with a key in DATA_DIR; every replica must be given the same OPSDECK_SECRET_KEY');
  else if (created) log.info({ file: `${config.dataDir}/secret.key` }, 'Generated the key that encrypts channel secrets (set OPSDECK_SECRET_KEY to choose it)');
  return new SecretBox(key);
}
