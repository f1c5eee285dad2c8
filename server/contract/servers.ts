import { z } from 'zod';
import { str } from './common';
import { labelsSchema } from './routing';

/** SPEC §3 Server. `operating_system` keeps SPEC's snake_case name. */
export const operatingSystems = ['linux', 'windows'] as const;
export const serverStatuses = ['active', 'suspended', 'terminated'] as const;
export const DEFAULT_AGENT_PORT = 9100;

export const operatingSystemSchema = z.enum(operatingSystems);
export const serverStatusSchema = z.enum(serverStatuses);
export const yesNoSchema = z.enum(['yes', 'no']);

/** `up` and `down` come from scraping; `unknown` until the first scrape (shown as orange text, SPEC §2). */
export type ServerState = 'up' | 'down' | 'unknown';

const figure = z.number().nullable();

/** SPEC §7 servers/metrics/usage: the latest figures of a server. */
export const usageSchema = z.object({
  cpuUsage: figure,
  memoryUsage: figure,
  diskUsage: figure,
  networkUsage: figure,
  swapUsage: figure,
  uptime: figure,
  cpuLoad1: figure,
  cpuLoad5: figure,
  cpuLoad15: figure,
  cpuCores: figure,
  memorySaturation: figure,
  memoryTotal: figure,
  swapTotal: figure,
});
export type UsageFigures = z.infer<typeof usageSchema>;

export const serverSchema = usageSchema.extend({
  _id: str(),
  hostname: str(),
  ipaddress: str(),
  operating_system: operatingSystemSchema,
  agentPort: z.number().int(),
  state: str(),
  suppressAlarm: yesNoSchema,
  isAgentConfigured: z.boolean(),
  isAgentInstalled: z.boolean(),
  status: serverStatusSchema,
  createdAt: str(),
  updatedAt: str(),
  /** When the exporter last answered; SPEC's 'Last Updated'. */
  lastScrapedAt: str().nullable(),
  /** Since when the state has been what it is (the down time of a down server). */
  stateChangedAt: str().nullable(),
  /** Why the last scrape failed, for a down server. */
  lastError: str().nullable(),
  /** Issue 14: key/value tags that silences and maintenance windows match on (`label.env=prod`). */
  labels: z.record(str(), str()).optional(),
});
export type Server = z.infer<typeof serverSchema>;

/** GET servers/metrics/usage/{id}. */
export const serverUsageSchema = usageSchema.extend({
  state: str(),
  suppressAlarm: yesNoSchema,
  isAgentConfigured: z.boolean(),
  lastScrapedAt: str().nullable(),
});
export type ServerUsage = z.infer<typeof serverUsageSchema>;

/** GET servers/upstatus/{id}. */
export const serverUpStatusSchema = z.object({
  _id: str(),
  state: str(),
  lastScrapedAt: str().nullable(),
  stateChangedAt: str().nullable(),
  lastError: str().nullable(),
});
export type ServerUpStatus = z.infer<typeof serverUpStatusSchema>;

const hostnameSchema = str()
  .trim()
  .min(1, 'hostname is required')
  .max(253, 'hostname is too long (at most 253 characters)')
  .regex(/^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/, 'hostname may contain letters, digits, dots, hyphens and underscores');
const ipSchema = str({ error: 'ipaddress is required' })
  .trim()
  .min(1, 'ipaddress is required')
  .pipe(z.union([z.ipv4(), z.ipv6()], { error: 'ipaddress must be an IPv4 or IPv6 address' }));
const portSchema = z.number({ error: 'agentPort must be a number' }).int('agentPort must be a whole number').min(1, 'agentPort must be between 1 and 65535').max(65535, 'agentPort must be between 1 and 65535');

export const createServerSchema = z
  .object({
    hostname: hostnameSchema,
    ipaddress: ipSchema,
    operating_system: operatingSystemSchema,
    agentPort: portSchema.default(DEFAULT_AGENT_PORT),
    /** Extension: register an exporter that already runs (provisioning scripts, the demo fleet). */
    isAgentConfigured: z.boolean().default(false),
    labels: labelsSchema.default({}),
  })
  .strict();
export type CreateServer = z.input<typeof createServerSchema>;

export const updateServerSchema = z
  .object({
    hostname: hostnameSchema,
    ipaddress: ipSchema,
    operating_system: operatingSystemSchema,
    agentPort: portSchema,
    suppressAlarm: yesNoSchema,
    status: serverStatusSchema,
    /** Replaces the labels (issue 14). */
    labels: labelsSchema,
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to update' });
export type UpdateServer = z.input<typeof updateServerSchema>;

/** SPEC §3 Service record. */
export const serviceRecordSchema = z.object({
  _id: str(),
  serverId: str(),
  server: z.object({ hostname: str(), ipaddress: str() }),
  service_name: str(),
  status: str(),
  createdAt: str(),
  updatedAt: str(),
});
export type ServiceRecord = z.infer<typeof serviceRecordSchema>;

/** GET servers/chart/{id}?panel&from&to&step — one chart panel of PANELS.md over a time range. */
export const chartQuerySchema = z
  .object({
    panel: z.coerce.number().int().min(1).max(10_000),
    /** Unix milliseconds. */
    from: z.coerce.number().int().min(0),
    to: z.coerce.number().int().min(0),
    /** Seconds between points; default: the range divided into about 300 points, at least the scrape interval. */
    step: z.coerce.number().int().min(1).max(86_400).optional(),
  })
  .strict()
  .refine((q) => q.to > q.from, { message: 'to must be after from', path: ['to'] })
  .refine((q) => q.to - q.from <= 31 * 86_400_000, { message: 'The range may span at most 31 days', path: ['from'] });
export type ChartQuery = z.input<typeof chartQuerySchema>;

export const panelKinds = ['stat', 'gauge', 'timeseries', 'bargauge'] as const;
export const chartDataSchema = z.object({
  panel: z.object({ id: z.number(), title: str(), kind: z.enum(panelKinds), unit: str() }),
  /** Unix seconds, ascending (uPlot's x axis). */
  timestamps: z.array(z.number()),
  series: z.array(z.object({ label: str(), values: z.array(z.number().nullable()) })),
  /** Present when the panel has more lines than one answer holds (100): `shown` of `total` are in `series`. */
  truncated: z.object({ shown: z.number().int(), total: z.number().int() }).optional(),
});
export type ChartData = z.infer<typeof chartDataSchema>;

/** GET /api/monitoring/config — what the web app needs to know about the monitoring set-up. */
export const monitoringConfigSchema = z.object({
  mode: z.enum(['builtin', 'prometheus']),
  scrapeIntervalSeconds: z.number(),
  grafanaUrl: str().nullable(),
  /** `var-job` of embedded Linux panels (GRAFANA_JOB). */
  grafanaJob: str(),
  /** `var-datasource` of embedded panels (GRAFANA_DATASOURCE). */
  grafanaDatasource: str(),
  retentionHours: z.number(),
});
export type MonitoringConfig = z.infer<typeof monitoringConfigSchema>;

/**
 * GET /api/prometheus/targets: one target group per server Prometheus scrapes, in its HTTP service
 * discovery format (https://prometheus.io/docs/prometheus/latest/http_sd/).
 */
export const prometheusTargetGroupSchema = z.object({ targets: z.array(str()), labels: z.record(str(), str()) });
export type PrometheusTargetGroup = z.infer<typeof prometheusTargetGroupSchema>;


/** One "full within N hours" forecast (issue 16): a robust linear fit over the last 6 hours. */
export const forecastSchema = z.object({
  /** Hours until 100 %; null when it is not filling. */
  hoursLeft: z.number().nullable(),
  fullAt: str().nullable(),
  /** Percent per hour. */
  slopePerHour: z.number(),
  fittedNow: z.number(),
  points: z.number(),
  computedAt: str(),
});
export type Forecast = z.infer<typeof forecastSchema>;
/** GET servers/forecast/{id}. */
export const serverForecastsSchema = z.object({ disk: forecastSchema.nullable(), memory: forecastSchema.nullable() });
export type ServerForecasts = z.infer<typeof serverForecastsSchema>;
