import { z } from 'zod';

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
  ADMIN_EMAIL: z.string().default('admin@opsdeck.local'),
  ADMIN_PASSWORD: z.string().default('opsdeck-admin'),
  ADMIN_USERNAME: z.string().default('admin'),
  SESSION_TTL_HOURS: z.coerce.number().positive().default(12),
  COOKIE_SECURE: bool,
  SIGNIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SKIP_UI_BUILD: bool,
  SCRAPE_INTERVAL: z.coerce.number().positive().max(3600).default(15),
  SCRAPE_TIMEOUT: z.coerce.number().positive().max(600).optional(),
  SCRAPE_CONCURRENCY: z.coerce.number().int().positive().max(1000).default(32),
  METRICS_RETENTION_HOURS: z.coerce.number().positive().default(24),
  PROMETHEUS_URL: z.string().url().optional().or(z.literal('')),
  PROMETHEUS_SD_TOKEN: z.string().optional(),
  GRAFANA_URL: z.string().url().optional().or(z.literal('')),
  DEMO_FLEET: z.string().optional(),
  DEMO_FLEET_SIZE: z.coerce.number().int().min(1).max(5000).default(12),
  DEMO_FLEET_PORT: z.coerce.number().int().min(0).max(65535).default(9100),
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
  PUBLIC_URL: z.string().url().optional().or(z.literal('')),
});

export interface MonitoringSettings {
  /** Seconds between scrapes (or Prometheus reads). */
  scrapeIntervalS: number;
  scrapeTimeoutS: number;
  scrapeConcurrency: number;
  retentionHours: number;
  /** Set: Prometheus scrapes and stores; Opsdeck reads with PromQL. */
  prometheusUrl?: string;
  /** Bearer token Prometheus presents to /api/prometheus/targets; unset: the endpoint is closed. */
  prometheusSdToken?: string;
  grafanaUrl?: string;
  /** false: no scraping at all (API tests drive the pipeline themselves). */
  enabled: boolean;
}

export interface DemoSettings {
  enabled: boolean;
  size: number;
  port: number;
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

/** Sending alert notifications (server/alerting/delivery.ts, docs/alerting.md "Delivery"). */
export interface DeliverySettings {
  /** false: no delivery loop (tests); the worker's deliver() still works when called. */
  enabled: boolean;
  /** Seconds between looks at the outbox. */
  pollIntervalS: number;
  /** smtp:// or smtps:// URL with credentials; unset: email deliveries are skipped. */
  smtpUrl?: string;
  mailFrom: string;
  /** Unset: Slack deliveries are skipped. */
  slackBotToken?: string;
  slackApiUrl: string;
  /** Where the console is reached; links in messages start with it. */
  publicUrl: string;
  /** Wait before each retry of a failed channel; one more failure than this list is long gives up. */
  retryDelaysS: number[];
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  admin: { email: string; password: string; username: string };
  sessionTtlMs: number;
  cookieSecure: boolean;
  signinRateLimit: number;
  logLevel: string;
  skipUiBuild: boolean;
  monitoring: MonitoringSettings;
  demo: DemoSettings;
  alerting: AlertingSettings;
  delivery: DeliverySettings;
  /** Where the built UI lives; undefined serves no UI (API-only tests). */
  uiDir?: string;
  /** PUBLIC_URL when set: the address agent install tokens point at (else the request's own host). */
  publicUrl?: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = configSchema.parse(env);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL || undefined,
    admin: { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD, username: e.ADMIN_USERNAME },
    sessionTtlMs: e.SESSION_TTL_HOURS * 3_600_000,
    cookieSecure: e.COOKIE_SECURE,
    signinRateLimit: e.SIGNIN_RATE_LIMIT,
    logLevel: e.LOG_LEVEL,
    skipUiBuild: e.SKIP_UI_BUILD,
    monitoring: {
      scrapeIntervalS: e.SCRAPE_INTERVAL,
      // A scrape must end before the next one is due, or slow targets pile up.
      scrapeTimeoutS: Math.min(e.SCRAPE_TIMEOUT ?? 10, e.SCRAPE_INTERVAL * 0.9),
      scrapeConcurrency: e.SCRAPE_CONCURRENCY,
      retentionHours: e.METRICS_RETENTION_HOURS,
      prometheusUrl: e.PROMETHEUS_URL ? e.PROMETHEUS_URL.replace(/\/+$/, '') : undefined,
      prometheusSdToken: e.PROMETHEUS_SD_TOKEN || undefined,
      grafanaUrl: e.GRAFANA_URL ? e.GRAFANA_URL.replace(/\/+$/, '') : undefined,
      enabled: true,
    },
    demo: { enabled: e.DEMO_FLEET !== '0' && e.DEMO_FLEET?.toLowerCase() !== 'false', size: e.DEMO_FLEET_SIZE, port: e.DEMO_FLEET_PORT },
    alerting: { enabled: e.ALERT_EVALUATION !== '0' && e.ALERT_EVALUATION?.toLowerCase() !== 'false', evalIntervalS: e.ALERT_EVAL_INTERVAL, autoDefaults: true, staleAfterS: Math.max(60, 3 * e.SCRAPE_INTERVAL) },
    delivery: {
      enabled: true,
      pollIntervalS: 1,
      smtpUrl: e.SMTP_URL || undefined,
      mailFrom: e.MAIL_FROM,
      slackBotToken: e.SLACK_BOT_TOKEN || undefined,
      slackApiUrl: e.SLACK_API_URL.replace(/\/+$/, ''),
      publicUrl: (e.PUBLIC_URL || `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
      retryDelaysS: [30, 120, 600, 1800],
    },
    uiDir: 'dist',
    publicUrl: e.PUBLIC_URL ? e.PUBLIC_URL.replace(/\/+$/, '') : undefined,
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
    ...overrides,
  };
}
