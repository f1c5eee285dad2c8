import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { BackendAuth } from './monitoring/prometheus-client';
import { parseTrustProxy, type TrustProxy } from './http/trust-proxy';
import { parseNetworks, type OutboundRules } from './outbound/policy';
import { parseResolver } from './contract/checks';
import { paths } from './paths';

const bool = z
  .string()
  .optional()
  .transform((v) => v === '1' || v?.toLowerCase() === 'true');

/** Every environment variable Opsdeck reads, with its default (README "Configuration"). */
export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  /** Encrypts channel secrets at rest (issue 15); unset: a key generated into DATA_DIR/secret.key. */
  OPSDECK_SECRET_KEY: z.string().optional(),
  ADMIN_EMAIL: z.string().default('admin@opsdeck.local'),
  ADMIN_PASSWORD: z.string().default('opsdeck-admin'),
  ADMIN_USERNAME: z.string().default('admin'),
  SESSION_TTL_HOURS: z.coerce.number().positive().default(12),
  COOKIE_SECURE: bool,
  SIGNIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  TRUST_PROXY: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SCRAPE_INTERVAL: z.coerce.number().positive().max(3600).default(15),
  SCRAPE_TIMEOUT: z.coerce.number().positive().max(600).optional(),
  SCRAPE_CONCURRENCY: z.coerce.number().int().positive().max(1000).default(32),
  /** Samples one scrape may expose (Prometheus's sample_limit); past it the scrape is refused and the server is over its limits. */
  SCRAPE_SERIES_LIMIT: z.coerce.number().int().min(100).max(1_000_000).default(50_000),
  /** Bytes a label name or value the console reads may have; at most 2048, since service names are indexed and a btree row holds ~2.7 KB. */
  SCRAPE_LABEL_LIMIT: z.coerce.number().int().min(64).max(2048).default(1024),
  METRICS_RETENTION_HOURS: z.coerce.number().positive().default(24),
  CHECK_CONCURRENCY: z.coerce.number().int().positive().max(1000).default(32),
  CHECK_MIN_INTERVAL: z.coerce.number().int().min(1).max(3600).default(10),
  CHECK_RETENTION_HOURS: z.coerce.number().positive().default(48),
  /** Runs on request (run-now, an edit) per check in any minute. */
  CHECK_RUN_NOW_PER_MINUTE: z.coerce.number().int().min(1).max(1000).default(6),
  /** The outbound policy (server/outbound/policy.ts): networks checks and channels may reach, and may not. */
  OUTBOUND_ALLOW: z.string().optional(),
  OUTBOUND_DENY: z.string().optional(),
  /** DNS servers the names of check, channel and Alertmanager targets are resolved through. */
  OUTBOUND_RESOLVER: z
    .string()
    .optional()
    // Read as a DNS check's resolver is: Node aborts on port 0 and wraps a port past 65535.
    .refine((v) => !v || v.split(',').every((s) => !s.trim() || parseResolver(s.trim()) !== null), 'OUTBOUND_RESOLVER must be IP addresses (optionally with a port from 1 to 65535) separated by commas'),
  PROMETHEUS_URL: z.string().url().optional().or(z.literal('')),
  PROMETHEUS_SD_TOKEN: z.string().optional(),
  PROMETHEUS_BEARER_TOKEN: z.string().optional(),
  PROMETHEUS_BASIC_AUTH: z.string().regex(/^[^:]*:.*$/s, 'PROMETHEUS_BASIC_AUTH must be user:password').optional().or(z.literal('')),
  PROMETHEUS_HEADERS: z.string().optional(),
  PROMETHEUS_CA_FILE: z.string().optional(),
  GRAFANA_URL: z.string().url().optional().or(z.literal('')),
  GRAFANA_JOB: z.string().min(1).default('opsdeck'),
  GRAFANA_DATASOURCE: z.string().min(1).default('default'),
  DEMO_FLEET: z.string().optional(),
  DEMO_FLEET_SIZE: z.coerce.number().int().min(1).max(5000).default(12),
  DEMO_FLEET_PORT: z.coerce.number().int().min(0).max(65535).default(9100),
  DEMO_PAYLOAD: z.enum(['real', 'light']).default('real'),
  ALERT_EVAL_INTERVAL: z.coerce.number().positive().max(3600).default(15),
  ALERT_EVALUATION: z.string().optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//i, 'SMTP_URL must start with smtp:// or smtps://')
    .optional()
    .or(z.literal('')),
  MAIL_FROM: z.string().min(1).default('Opsdeck <opsdeck@localhost>'),
  SLACK_BOT_TOKEN: z.string().optional(),
  SLACK_API_URL: z.string().url().default('https://slack.com/api'),
  SLACK_SIGNING_SECRET: z.string().optional(),
  PUSHOVER_APP_TOKEN: z.string().optional(),
  PUSHOVER_API_URL: z.string().url().default('https://api.pushover.net'),
  TWILIO_ACCOUNT_SID: z.string().optional(),
  TWILIO_AUTH_TOKEN: z.string().optional(),
  TWILIO_FROM: z.string().regex(/^\+[1-9]\d{6,14}$/, 'TWILIO_FROM must be a number in E.164 form, such as +15550100123').optional().or(z.literal('')),
  TWILIO_API_URL: z.string().url().default('https://api.twilio.com'),
  PUBLIC_URL: z.string().url().optional().or(z.literal('')),
  HISTORY_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(365),
  LIVE_RETENTION_MINUTES: z.coerce.number().int().min(1).max(1_440).default(15),
  LIVE_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(300).default(15),
  ALERT_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(400),
  METRICS_ENABLED: z.string().optional(),
  METRICS_TOKEN: z.string().optional(),
  ALERTMANAGER_URL: z
    .string()
    .optional()
    .refine((v) => !v || v.split(',').every((u) => !u.trim() || /^https?:\/\/[^\s]+$/i.test(u.trim())), 'ALERTMANAGER_URL must be http(s) URLs separated by commas'),
  ALERTMANAGER_MIRROR_SILENCES: bool,
  ALERTMANAGER_RESEND_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  ALERTMANAGER_RUNBOOK_URL: z.string().optional(),
  ALERTMANAGER_RECEIVER_TOKEN: z.string().optional(),
  /** Public status pages (issue 16 §3): requests per minute from one address (0: no limit), and how long a page's view is kept. */
  STATUS_RATE_LIMIT: z.coerce.number().int().min(0).max(100_000).default(120),
  STATUS_CACHE_SECONDS: z.coerce.number().min(0).max(300).default(5),
});

export interface MonitoringSettings {
  /** Seconds between scrapes (or Prometheus reads). */
  scrapeIntervalS: number;
  scrapeTimeoutS: number;
  scrapeConcurrency: number;
  /** Samples one scrape may expose (SCRAPE_SERIES_LIMIT); more: the scrape is refused, the server is `over_limits`. */
  seriesLimit: number;
  /** Bytes a label name or value may have in the families the console reads (SCRAPE_LABEL_LIMIT). */
  labelLimit: number;
  retentionHours: number;
  /** Set: Prometheus scrapes and stores; Opsdeck reads with PromQL. */
  prometheusUrl?: string;
  /** Bearer token Prometheus presents to /api/prometheus/targets; unset: the endpoint is closed. */
  prometheusSdToken?: string;
  /** How Opsdeck authenticates to PROMETHEUS_URL (a Prometheus behind auth, Mimir, VictoriaMetrics). */
  prometheusAuth?: BackendAuth;
  grafanaUrl?: string;
  /** Embedded Linux panels filter on this Prometheus job (`var-job`): the README's scrape config names it `opsdeck`. */
  grafanaJob: string;
  /** The Grafana data source the embedded dashboards read (`var-datasource`: a uid or name; `default`: Grafana's default). */
  grafanaDatasource: string;
  /** false: no scraping at all (API tests drive the pipeline themselves). */
  enabled: boolean;
  /** Website, TCP, DNS and TLS checks (issue 16, docs/checks.md); they run in both modes. */
  checks: {
    concurrency: number;
    /** The shortest interval a check may have (10 s; tests shorten it). */
    minIntervalS: number;
    /** Raw results are kept this long; hourly and daily sums 92 days. */
    retentionHours: number;
    /** Runs on request (run-now, or at once after an edit) per check in any minute. */
    runNowPerMinute?: number;
  };
}

export interface DemoSettings {
  enabled: boolean;
  size: number;
  port: number;
  /** real: hosts serve as many samples as real exporters; light: only what the console reads (server/demo/ballast.ts). */
  payload: 'real' | 'light';
}

/** Alert evaluation (server/alerting, docs/alerting.md). */
export interface AlertingSettings {
  /** false: no evaluation loop (API tests); the evaluator's tick() still works when called. */
  enabled: boolean;
  /** Seconds between evaluation ticks. */
  evalIntervalS: number;
  /** Give active, agent-configured servers without an alert config the default rules on each tick. */
  autoDefaults: boolean;
  /** Figures scraped longer ago than this neither open nor resolve alerts. */
  staleAfterS: number;
}

/** Deleting old alerts (server/alerting/retention.ts, docs/alerting.md "Retention"). */
export interface AlertRetentionSettings {
  /** Resolved alerts (and their timelines) resolved longer ago than this are deleted; 0 keeps everything. */
  days: number;
  /** Alerts deleted per statement (each its own short transaction). */
  batchSize: number;
  /** Pause between two batches, so scrapes, ticks and requests get their turn. */
  pauseMs: number;
  /** Minutes between two passes (the first comes this long after the start, minus startup). */
  everyMinutes: number;
}

/** Sending alert notifications (server/alerting/delivery.ts, docs/alerting.md "Delivery"). */
export interface DeliverySettings {
  /** false: no delivery loop (tests); the worker's deliver() still works when called. */
  enabled: boolean;
  /**
   * Seconds between looks at the outbox on PostgreSQL, where another replica may have queued a
   * row; and the first look after start (rows queued before a restart).
   */
  pollIntervalS: number;
  /**
   * Seconds between looks on PGlite, where every writer is this process and wakes the worker
   * (the evaluator's and the freshness watch's onQueued, the alert routes): a safety net, not
   * the path a notification takes. A retry due sooner is looked at when it is due.
   */
  idlePollS: number;
  /** smtp:// or smtps:// URL with credentials; unset: email deliveries are skipped. */
  smtpUrl?: string;
  mailFrom: string;
  /** Unset: Slack deliveries are skipped. */
  slackBotToken?: string;
  slackApiUrl: string;
  /**
   * The Slack app's signing secret (issue 27 §4): set, Slack messages carry Acknowledge and Resolve
   * buttons and Slack's interaction requests to /api/integrations/slack/interactions are checked with it.
   */
  slackSigningSecret?: string;
  /** Pushover's application token for people's Pushover contact methods; unset: they cannot be sent to. */
  pushoverAppToken?: string;
  /** Default https://api.pushover.net. */
  pushoverApiUrl?: string;
  /** The Twilio account people's SMS and voice contact methods go through; unset: they cannot be sent to. */
  twilio?: { accountSid: string; authToken: string; from: string };
  /** Default https://api.twilio.com. */
  twilioApiUrl?: string;
  /** Where the console is reached; links in messages start with it. */
  publicUrl: string;
  /** Wait before each retry of a failed channel; one more failure than this list is long gives up. A peer's Retry-After replaces the wait (issue 15). */
  retryDelaysS: number[];
  /** How long a channel target (webhook, Teams, PagerDuty, Telegram, ntfy) may take to answer; default 10 s. */
  channelTimeoutMs?: number;
}

/** GET /metrics, Opsdeck's own metrics (routes/self-metrics.ts, docs/self-monitoring.md). */
export interface MetricsSettings {
  enabled: boolean;
  /** Set: scrapers must present it as a bearer token. */
  token?: string;
}

/** Replicas on PostgreSQL (server/ops/leader.ts, docs/architecture.md "Replicas"). */
export interface LeaderSettings {
  /** How often the leader proves it is alive, and how often the others try to take over (ms). */
  heartbeatMs: number;
  /**
   * How long the leader's lock outlives its last heartbeat: PostgreSQL ends the leader's
   * connection (idle_session_timeout), and with it the lock, when the leader is silent this long
   * (a frozen or cut-off process), and the leader stops its own work when a heartbeat has not come
   * back for this long.
   */
  leaseMs: number;
}

/**
 * Heartbeat and lease from the scrape interval: a third of it (0.2–5 s), the lease three
 * heartbeats, so a dead or frozen leader is replaced well within two intervals.
 */
export function leaderSettings(scrapeIntervalS: number): LeaderSettings {
  const heartbeatMs = Math.round(Math.min(5000, Math.max(200, (scrapeIntervalS * 1000) / 3)));
  return { heartbeatMs, leaseMs: 3 * heartbeatMs };
}

/** Issue 15 §2–3: Alertmanager both ways (server/alertmanager, docs/alertmanager.md). */
export interface AlertmanagerSettings {
  /** Every instance of the (clustered) Alertmanager; empty: nothing is pushed. */
  urls: string[];
  /** Mirror Opsdeck's silences as Alertmanager silences. */
  mirrorSilences: boolean;
  /** Open alerts are posted again this often (Prometheus' resend delay), each valid for four times as long. */
  resendS: number;
  /** How often changed alerts are looked for between full resends (ms). */
  pollMs: number;
  /** The runbook_url annotation: {id}, {alertname}, {type}, {hostname}, {serverId} are filled in (URL-encoded). */
  runbookUrl: string;
  /** Where the console is reached (generatorURL). */
  publicUrl: string;
  /** The receiver's token from the environment; an admin may also set one (settings). */
  receiverToken?: string;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** OPSDECK_SECRET_KEY (server/channels/secret-box.ts); unset: DATA_DIR/secret.key. */
  secretKey?: string;
  databaseUrl?: string;
  admin: { email: string; password: string; username: string };
  sessionTtlMs: number;
  cookieSecure: boolean;
  /** Failed sign-ins for one account from one address before backoff starts (server/auth/signin-limiter.ts). */
  signinRateLimit: number;
  /** The first wait once backoff starts (doubling with each further failure) and its cap; tests shorten them. */
  signinBackoffS: { first: number; max: number };
  /** TRUST_PROXY: whose X-Forwarded-For names the client (off by default). */
  trustProxy: TrustProxy;
  logLevel: string;
  monitoring: MonitoringSettings;
  demo: DemoSettings;
  alerting: AlertingSettings;
  delivery: DeliverySettings;
  leader: LeaderSettings;
  metrics: MetricsSettings;
  alertmanager: AlertmanagerSettings;
  /** Where the built UI lives (dist/ of the package); undefined serves no UI (API-only tests). */
  uiDir?: string;
  /** PUBLIC_URL when set: the address agent install tokens point at (else the request's own host). */
  publicUrl?: string;
  /** Command history (the audit trail) older than this many days is pruned hourly; 0 keeps everything. */
  historyRetentionDays: number;
  /** The live stream (GET /api/live): events kept for resuming (minutes), and the heartbeat that keeps proxies from closing an idle stream. */
  live: { retentionMinutes: number; heartbeatSeconds: number };
  /** Public status pages: requests per minute per address (0: unlimited) and the view's cache time (0: none). */
  statusPages: { rateLimitPerMinute: number; cacheSeconds: number };
  alertRetention: AlertRetentionSettings;
  /** OUTBOUND_ALLOW, OUTBOUND_DENY, OUTBOUND_RESOLVER (docs/decisions.md "One outbound policy"). */
  outbound: OutboundRules;
}

/**
 * `Name=value` pairs separated by commas (`X-Scope-OrgID=tenant-1, X-Other=v`), or a JSON object
 * (for values holding commas).
 */
export function parseHeaders(text: string): Record<string, string> {
  const trimmed = text.trim();
  if (!trimmed) return {};
  let pairs: [string, string][];
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw new Error('PROMETHEUS_HEADERS is not valid JSON');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('PROMETHEUS_HEADERS must be a JSON object of header names to values');
    pairs = Object.entries(parsed).map(([k, v]) => [k, String(v)]);
  } else {
    pairs = trimmed.split(',').map((part) => {
      const at = part.indexOf('=');
      if (at < 1) throw new Error(`PROMETHEUS_HEADERS: "${part.trim().slice(0, 40)}" is not Name=value`);
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()];
    });
  }
  for (const [name, value] of pairs) {
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) throw new Error(`PROMETHEUS_HEADERS: "${name.slice(0, 40)}" is not a header name`);
    if (/[\r\n]/.test(value)) throw new Error(`PROMETHEUS_HEADERS: the value of ${name} holds a line break`);
  }
  return Object.fromEntries(pairs);
}

function backendAuth(e: z.infer<typeof configSchema>): BackendAuth | undefined {
  const auth: BackendAuth = {
    bearerToken: e.PROMETHEUS_BEARER_TOKEN || undefined,
    basicAuth: e.PROMETHEUS_BASIC_AUTH || undefined,
    headers: e.PROMETHEUS_HEADERS ? parseHeaders(e.PROMETHEUS_HEADERS) : undefined,
  };
  if (e.PROMETHEUS_CA_FILE) {
    try {
      auth.ca = readFileSync(e.PROMETHEUS_CA_FILE, 'utf8');
    } catch (error) {
      throw new Error(`PROMETHEUS_CA_FILE ${e.PROMETHEUS_CA_FILE} cannot be read: ${(error as Error).message}`);
    }
  }
  return Object.values(auth).some((v) => v !== undefined) ? auth : undefined;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = configSchema.parse(env);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    secretKey: e.OPSDECK_SECRET_KEY || undefined,
    databaseUrl: e.DATABASE_URL || undefined,
    admin: { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD, username: e.ADMIN_USERNAME },
    sessionTtlMs: e.SESSION_TTL_HOURS * 3_600_000,
    cookieSecure: e.COOKIE_SECURE,
    signinRateLimit: e.SIGNIN_RATE_LIMIT,
    signinBackoffS: { first: 5, max: 900 },
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    logLevel: e.LOG_LEVEL,
    monitoring: {
      scrapeIntervalS: e.SCRAPE_INTERVAL,
      // A scrape must end before the next one is due, or slow targets pile up.
      scrapeTimeoutS: Math.min(e.SCRAPE_TIMEOUT ?? 10, e.SCRAPE_INTERVAL * 0.9),
      scrapeConcurrency: e.SCRAPE_CONCURRENCY,
      seriesLimit: e.SCRAPE_SERIES_LIMIT,
      labelLimit: e.SCRAPE_LABEL_LIMIT,
      retentionHours: e.METRICS_RETENTION_HOURS,
      prometheusUrl: e.PROMETHEUS_URL ? e.PROMETHEUS_URL.replace(/\/+$/, '') : undefined,
      prometheusSdToken: e.PROMETHEUS_SD_TOKEN || undefined,
      prometheusAuth: backendAuth(e),
      grafanaUrl: e.GRAFANA_URL ? e.GRAFANA_URL.replace(/\/+$/, '') : undefined,
      grafanaJob: e.GRAFANA_JOB,
      grafanaDatasource: e.GRAFANA_DATASOURCE,
      enabled: true,
      checks: { concurrency: e.CHECK_CONCURRENCY, minIntervalS: e.CHECK_MIN_INTERVAL, retentionHours: e.CHECK_RETENTION_HOURS, runNowPerMinute: e.CHECK_RUN_NOW_PER_MINUTE },
    },
    demo: { enabled: e.DEMO_FLEET !== '0' && e.DEMO_FLEET?.toLowerCase() !== 'false', size: e.DEMO_FLEET_SIZE, port: e.DEMO_FLEET_PORT, payload: e.DEMO_PAYLOAD },
    alerting: { enabled: e.ALERT_EVALUATION !== '0' && e.ALERT_EVALUATION?.toLowerCase() !== 'false', evalIntervalS: e.ALERT_EVAL_INTERVAL, autoDefaults: true, staleAfterS: Math.max(60, 3 * e.SCRAPE_INTERVAL) },
    delivery: {
      enabled: true,
      pollIntervalS: 1,
      idlePollS: 10,
      smtpUrl: e.SMTP_URL || undefined,
      mailFrom: e.MAIL_FROM,
      slackBotToken: e.SLACK_BOT_TOKEN || undefined,
      slackApiUrl: e.SLACK_API_URL.replace(/\/+$/, ''),
      slackSigningSecret: e.SLACK_SIGNING_SECRET || undefined,
      pushoverAppToken: e.PUSHOVER_APP_TOKEN || undefined,
      pushoverApiUrl: e.PUSHOVER_API_URL.replace(/\/+$/, ''),
      twilio: e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN && e.TWILIO_FROM ? { accountSid: e.TWILIO_ACCOUNT_SID, authToken: e.TWILIO_AUTH_TOKEN, from: e.TWILIO_FROM } : undefined,
      twilioApiUrl: e.TWILIO_API_URL.replace(/\/+$/, ''),
      publicUrl: (e.PUBLIC_URL || `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
      retryDelaysS: [30, 120, 600, 1800],
    },
    leader: leaderSettings(e.SCRAPE_INTERVAL),
    metrics: { enabled: e.METRICS_ENABLED !== '0' && e.METRICS_ENABLED?.toLowerCase() !== 'false', token: e.METRICS_TOKEN || undefined },
    alertmanager: {
      urls: (e.ALERTMANAGER_URL ?? '')
        .split(',')
        .map((u) => u.trim().replace(/\/+$/, ''))
        .filter(Boolean),
      mirrorSilences: e.ALERTMANAGER_MIRROR_SILENCES,
      resendS: e.ALERTMANAGER_RESEND_SECONDS,
      pollMs: 1000,
      runbookUrl: e.ALERTMANAGER_RUNBOOK_URL || '{publicUrl}/notifications/show/{id}',
      publicUrl: (e.PUBLIC_URL || `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
      receiverToken: e.ALERTMANAGER_RECEIVER_TOKEN || undefined,
    },
    uiDir: paths.ui,
    publicUrl: e.PUBLIC_URL ? e.PUBLIC_URL.replace(/\/+$/, '') : undefined,
    historyRetentionDays: e.HISTORY_RETENTION_DAYS,
    live: { retentionMinutes: e.LIVE_RETENTION_MINUTES, heartbeatSeconds: e.LIVE_HEARTBEAT_SECONDS },
    statusPages: { rateLimitPerMinute: e.STATUS_RATE_LIMIT, cacheSeconds: e.STATUS_CACHE_SECONDS },
    alertRetention: { days: e.ALERT_RETENTION_DAYS, batchSize: 200, pauseMs: 50, everyMinutes: 60 },
    outbound: {
      allow: parseNetworks(e.OUTBOUND_ALLOW, 'OUTBOUND_ALLOW'),
      deny: parseNetworks(e.OUTBOUND_DENY, 'OUTBOUND_DENY'),
      resolver: (e.OUTBOUND_RESOLVER ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    },
  };
}

/** Defaults for tests: in-memory database, quiet logs, no UI. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({});
  return {
    ...base,
    logLevel: 'silent',
    uiDir: undefined,
    monitoring: { ...base.monitoring, enabled: false },
    demo: { ...base.demo, enabled: false },
    alerting: { ...base.alerting, enabled: false },
    delivery: { ...base.delivery, enabled: false },
    // Tests never write a key file into ./data.
    secretKey: 'opsdeck-test-secret-key-not-for-production',
    ...overrides,
  };
}
