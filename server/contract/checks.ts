import { z } from 'zod';
import { severitySchema } from './alerts';
import { str } from './common';

/**
 * Checks (issue 16): HTTP(S), TCP, DNS and TLS probes the server runs on an interval, their
 * website_alert rules, results and uptime. Shared with the web app and the commands.
 */

export const checkKinds = ['http', 'tcp', 'dns', 'tls'] as const;
export type CheckKind = (typeof checkKinds)[number];
export const checkKindLabels: Record<CheckKind, string> = { http: 'HTTP(S)', tcp: 'TCP port', dns: 'DNS', tls: 'TLS certificate' };

export const httpMethods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export const dnsRecordTypes = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS'] as const;
export const keywordModes = ['contains', 'absent'] as const;

export const checkRuleKinds = ['down', 'latency', 'cert_expiry'] as const;
export type CheckRuleKind = (typeof checkRuleKinds)[number];
/** The alert names the rules open (snake_case like the server rules; the screens show spaces). */
export const checkRuleNames: Record<CheckRuleKind, string> = { down: 'check_down', latency: 'slow_response', cert_expiry: 'certificate_expiring' };
export const checkRuleLabels: Record<CheckRuleKind, string> = { down: 'Down', latency: 'Slow response', cert_expiry: 'Certificate expiring' };

/** Grace periods a check rule may have, in seconds (0: open at the first result that shows it). */
export const MAX_CHECK_GRACE_S = 3600;
export const MAX_INTERVAL_S = 86_400;
export const MAX_TIMEOUT_S = 60;
export const MAX_HEADERS = 20;
/** Bodies larger than this are not read further (the keyword must appear within it). */
export const MAX_BODY_BYTES = 1024 * 1024;

export const checkRuleSchema = z.object({
  _id: str(),
  kind: z.enum(checkRuleKinds),
  /** The alert name it opens: check_down, slow_response, certificate_expiring. */
  name: str(),
  enabled: z.boolean(),
  /** Grace period in seconds. */
  timeLimit: z.number().int(),
  /** Milliseconds (latency), days (cert_expiry), null (down). */
  threshold: z.number().nullable(),
  severity: severitySchema,
  notificationGroup: str().nullable(),
});
export type CheckRule = z.infer<typeof checkRuleSchema>;

export const checkHeaderSchema = z.object({
  name: str(),
  /** null when the value is a credential (Authorization, Cookie, tokens): never sent back. */
  value: str().nullable(),
  redacted: z.boolean(),
});

export const checkSchema = z.object({
  _id: str(),
  name: str(),
  kind: z.enum(checkKinds),
  /** The URL, host:port or DNS name: what the list shows. */
  target: str(),
  url: str().nullable(),
  host: str().nullable(),
  port: z.number().nullable(),
  method: z.enum(httpMethods),
  expectedStatus: str(),
  keyword: str().nullable(),
  keywordMode: z.enum(keywordModes),
  headers: z.array(checkHeaderSchema),
  followRedirects: z.boolean(),
  ignoreTlsErrors: z.boolean(),
  recordType: z.enum(dnsRecordTypes).nullable(),
  expectedAnswer: str().nullable(),
  resolver: str().nullable(),
  intervalSeconds: z.number().int(),
  timeoutSeconds: z.number().int(),
  paused: z.boolean(),
  /** up, down, or unknown (never run yet). */
  state: str(),
  stateChangedAt: str().nullable(),
  lastCheckedAt: str().nullable(),
  lastError: str().nullable(),
  latencyMs: z.number().nullable(),
  statusCode: z.number().nullable(),
  certExpiresAt: str().nullable(),
  /** Whole and fractional days until the certificate expires (negative: expired), from certExpiresAt. */
  certDaysLeft: z.number().nullable(),
  certProblem: str().nullable(),
  rules: z.array(checkRuleSchema),
  /** Share of results that were up over the last 24 hours (percent); null without results. */
  uptime24h: z.number().nullable(),
  createdAt: str(),
  updatedAt: str(),
});
export type Check = z.infer<typeof checkSchema>;

// ---------------------------------------------------------------------------------------------
// Input

const nameSchema = str({ error: 'name is required' }).trim().min(1, 'name is required').max(100, 'name is too long (at most 100 characters)');
const hostSchema = str()
  .trim()
  .min(1, 'host is required')
  .max(253, 'host is too long (at most 253 characters)')
  .regex(/^[A-Za-z0-9.:_-]+$/, 'host must be a hostname or an IP address');
const portSchema = z.number({ error: 'port must be a number' }).int('port must be a whole number').min(1, 'port must be between 1 and 65535').max(65535, 'port must be between 1 and 65535');
const STATUS_LIST = /^\s*\d{3}(\s*-\s*\d{3})?(\s*,\s*\d{3}(\s*-\s*\d{3})?)*\s*$/;

/** "200-299,301" → [[200, 299], [301, 301]]; null when the text is not such a list. */
export function parseStatusList(text: string): [number, number][] | null {
  if (!STATUS_LIST.test(text)) return null;
  const ranges = text.split(',').map((part) => {
    const [a, b] = part.split('-').map((n) => Number(n.trim()));
    return [a!, b ?? a!] as [number, number];
  });
  return ranges.every(([a, b]) => a >= 100 && b <= 599 && a <= b) ? ranges : null;
}

/**
 * A DNS check's resolver (`1.1.1.1`, `10.0.0.2:5353`, `[::1]:53`, `::1`) as host and port (53
 * when none is given), or null when it is not an IP address with a port from 1 to 65535: Node's
 * resolver aborts the whole process on port 0 (a failed assertion, no exception to catch) and
 * takes a port past 65535 modulo 65536, another port than the one the outbound policy decided on.
 */
export function parseResolver(text: string): { host: string; port: number } | null {
  const match = /^\[([0-9a-fA-F:]+)\](?::(\d{1,5}))?$/.exec(text) ?? /^([\d.]+)(?::(\d{1,5}))?$/.exec(text) ?? /^([0-9a-fA-F]*:[0-9a-fA-F:]*)$/.exec(text);
  if (!match) return null;
  const host = match[1]!;
  const port = match[2] === undefined ? 53 : Number(match[2]);
  const isAddress = (host.includes(':') ? z.ipv6() : z.ipv4()).safeParse(host).success;
  return isAddress && port >= 1 && port <= 65535 ? { host, port } : null;
}

/**
 * Headers that instance metadata services require to answer (GCP, Azure, AWS IMDSv2, Alibaba):
 * a check never sends them, so a target that is a metadata service in disguise gets nothing.
 */
export const METADATA_HEADERS = new Set(['metadata-flavor', 'metadata', 'x-google-metadata-request', 'x-aws-ec2-metadata-token', 'x-aws-ec2-metadata-token-ttl-seconds', 'x-alibaba-metadata-token', 'x-alibaba-metadata-token-ttl-seconds']);

/** A PEM private key (or anything that starts like one) never belongs in a header a check sends. */
export const PRIVATE_KEY = /-----BEGIN ([A-Z0-9 ]+ )?PRIVATE KEY-----|PRIVATE KEY-----/i;

const headerInputSchema = z
  .object({
    name: str({ error: 'header name is required' })
      .trim()
      .min(1, 'header name is required')
      .max(100, 'header name is too long')
      .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'header name may contain letters, digits and -')
      .refine((v) => !METADATA_HEADERS.has(v.toLowerCase()), 'header name is one cloud metadata services require (Metadata-Flavor, Metadata, X-aws-ec2-metadata-token…): a check never sends it'),
    /** Omitted on update: keep the stored value of the header with this name (a redacted credential). */
    value: str()
      .max(4000, 'header value is too long (at most 4,000 characters)')
      .refine((v) => !/[\r\n\0]/.test(v), 'header value may not contain line breaks')
      .refine((v) => !PRIVATE_KEY.test(v), 'header value holds private-key material: a check never sends a private key')
      .optional(),
  })
  .strict();
export type CheckHeaderInput = z.infer<typeof headerInputSchema>;

const ruleInputSchema = z
  .object({
    enabled: z.boolean({ error: 'enabled must be true or false' }),
    timeLimit: z
      .number({ error: 'timeLimit must be a number of seconds' })
      .int('timeLimit must be a whole number of seconds')
      .min(0, 'timeLimit cannot be negative')
      .max(MAX_CHECK_GRACE_S, `timeLimit is at most ${MAX_CHECK_GRACE_S} seconds`),
    threshold: z.number({ error: 'threshold must be a number' }).int('threshold must be a whole number').min(1, 'threshold must be at least 1').max(600_000, 'threshold is too large').nullable(),
    severity: severitySchema,
    notificationGroup: str().max(64).nullable(),
  })
  .partial()
  .strict();
export type CheckRuleInput = z.infer<typeof ruleInputSchema>;

/** Fields every kind shares, and the kind-specific ones; which apply is checked per kind (checkInputProblem). */
const fields = {
  name: nameSchema,
  url: str().trim().max(2000, 'url is too long (at most 2,000 characters)'),
  host: hostSchema,
  port: portSchema,
  method: z.enum(httpMethods, { error: `method must be one of ${httpMethods.join(', ')}` }),
  expectedStatus: str()
    .max(200, 'expectedStatus is too long')
    .refine((v) => parseStatusList(v) !== null, 'expectedStatus must list status codes or ranges, e.g. 200-299,301'),
  keyword: str().max(500, 'keyword is too long (at most 500 characters)').nullable(),
  keywordMode: z.enum(keywordModes, { error: 'keywordMode must be contains or absent' }),
  headers: z.array(headerInputSchema).max(MAX_HEADERS, `at most ${MAX_HEADERS} headers`),
  followRedirects: z.boolean({ error: 'followRedirects must be true or false' }),
  ignoreTlsErrors: z.boolean({ error: 'ignoreTlsErrors must be true or false' }),
  recordType: z.enum(dnsRecordTypes, { error: `recordType must be one of ${dnsRecordTypes.join(', ')}` }),
  expectedAnswer: str().trim().max(500, 'expectedAnswer is too long').nullable(),
  resolver: str()
    .trim()
    .max(100)
    .regex(/^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:]+\])(:\d{1,5})?$|^[0-9a-fA-F:]+$/, 'resolver must be an IP address, optionally with :port')
    .refine((v) => parseResolver(v) !== null, 'resolver must be an IP address with a port from 1 to 65535 (1.1.1.1, 10.0.0.2:5353, [::1]:53)')
    .nullable(),
  intervalSeconds: z.number({ error: 'intervalSeconds must be a number' }).int('intervalSeconds must be a whole number').min(1, 'intervalSeconds must be positive').max(MAX_INTERVAL_S, 'intervalSeconds is at most 86400 (one day)'),
  timeoutSeconds: z.number({ error: 'timeoutSeconds must be a number' }).int('timeoutSeconds must be a whole number').min(1, 'timeoutSeconds must be at least 1').max(MAX_TIMEOUT_S, `timeoutSeconds is at most ${MAX_TIMEOUT_S}`),
  paused: z.boolean({ error: 'paused must be true or false' }),
  rules: z.object({ down: ruleInputSchema, latency: ruleInputSchema, cert_expiry: ruleInputSchema }).partial().strict(),
};

export const createCheckSchema = z
  .object({ kind: z.enum(checkKinds, { error: `kind must be one of ${checkKinds.join(', ')}` }), ...fields })
  .partial({
    url: true,
    host: true,
    port: true,
    method: true,
    expectedStatus: true,
    keyword: true,
    keywordMode: true,
    headers: true,
    followRedirects: true,
    ignoreTlsErrors: true,
    recordType: true,
    expectedAnswer: true,
    resolver: true,
    intervalSeconds: true,
    timeoutSeconds: true,
    paused: true,
    rules: true,
  })
  .strict();
export type CreateCheck = z.input<typeof createCheckSchema>;

export const updateCheckSchema = z
  .object(fields)
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to update' });
export type UpdateCheck = z.input<typeof updateCheckSchema>;

/** The settings a probe needs, as stored (create input merged over defaults, or an update over the row). */
export interface CheckSettings {
  kind: CheckKind;
  url: string | null;
  host: string | null;
  port: number | null;
  method: (typeof httpMethods)[number];
  expectedStatus: string;
  keyword: string | null;
  keywordMode: (typeof keywordModes)[number];
  headers: { name: string; value: string }[];
  followRedirects: boolean;
  ignoreTlsErrors: boolean;
  recordType: (typeof dnsRecordTypes)[number] | null;
  expectedAnswer: string | null;
  resolver: string | null;
  intervalSeconds: number;
  timeoutSeconds: number;
}

/**
 * What is wrong with a check's settings for its kind, as [field, message], or null. Kind-specific
 * rules live here (not in the zod object) because an update is checked merged over the stored row.
 */
export function checkInputProblem(s: CheckSettings): [string, string] | null {
  if (s.kind === 'http') {
    if (!s.url) return ['url', 'url: an HTTP check needs a URL'];
    let url: URL;
    try {
      url = new URL(s.url);
    } catch {
      return ['url', 'url: not a valid URL (e.g. https://example.com/health)'];
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return ['url', `url: the scheme "${url.protocol.replace(/:$/, '')}" is not supported: use http or https`];
    if (!url.hostname) return ['url', 'url: the URL has no host'];
    if (url.username || url.password) return ['url', 'url: credentials in the URL are not allowed: send them in an Authorization header'];
  } else {
    if (s.kind === 'dns') {
      if (!s.host) return ['host', 'host: a DNS check needs the name to resolve'];
    } else {
      if (!s.host) return ['host', `host: a ${s.kind === 'tcp' ? 'TCP' : 'TLS'} check needs a host`];
      if (!s.port) return ['port', `port: a ${s.kind === 'tcp' ? 'TCP' : 'TLS'} check needs a port`];
    }
  }
  if (s.timeoutSeconds > s.intervalSeconds) return ['timeoutSeconds', 'timeoutSeconds: the timeout must not be longer than the interval'];
  return null;
}

/** The display target of a check: its URL, host:port or DNS name (with the record type). */
export function checkTarget(s: Pick<CheckSettings, 'kind' | 'url' | 'host' | 'port' | 'recordType'>): string {
  if (s.kind === 'http') return s.url ?? '';
  if (s.kind === 'dns') return `${s.host ?? ''} ${s.recordType ?? 'A'}`;
  const host = s.host && s.host.includes(':') ? `[${s.host}]` : (s.host ?? '');
  return `${host}:${s.port ?? ''}`;
}

// ---------------------------------------------------------------------------------------------
// Results, charts, uptime

export const checkResultSchema = z.object({
  up: z.boolean(),
  at: str(),
  latencyMs: z.number().nullable(),
  statusCode: z.number().nullable(),
  certDaysLeft: z.number().nullable(),
  error: str().nullable(),
});
export type CheckResult = z.infer<typeof checkResultSchema>;

/** GET checks/results/{id}?limit: how many of the latest results. */
export const checkResultsQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) }).strict();

/** What POST checks/run-now/{id} answers beside the check: the run's own result. */
export const checkRunSchema = z.object({
  up: z.boolean(),
  latencyMs: z.number().nullable(),
  statusCode: z.number().nullable(),
  error: str().nullable(),
  certExpiresAt: str().nullable(),
  certProblem: str().nullable(),
});
export type CheckRun = z.infer<typeof checkRunSchema>;

/** GET checks/results/{id}?from&to[&step]: latency and up share per step, and the latest raw results. */
export const checkHistoryQuerySchema = z
  .object({
    from: z.coerce.number().int().min(0),
    to: z.coerce.number().int().min(0),
    step: z.coerce.number().int().min(1).max(86_400).optional(),
  })
  .strict()
  .refine((q) => q.to > q.from, { message: 'to must be after from', path: ['to'] })
  .refine((q) => q.to - q.from <= 92 * 86_400_000, { message: 'The range may span at most 92 days', path: ['from'] });

export const checkHistorySchema = z.object({
  /** Unix seconds. */
  timestamps: z.array(z.number()),
  /** Average latency per step (ms). */
  latency: z.array(z.number().nullable()),
  /** Share of results up per step (percent). */
  uptime: z.array(z.number().nullable()),
  step: z.number(),
});
export type CheckHistory = z.infer<typeof checkHistorySchema>;

export const uptimeDaySchema = z.object({
  /** YYYY-MM-DD (UTC). */
  day: str(),
  /** Percent up; null when nothing ran that day. */
  uptime: z.number().nullable(),
  total: z.number(),
});
export type UptimeDay = z.infer<typeof uptimeDaySchema>;

export const checkUptimeSchema = z.object({
  days: z.array(uptimeDaySchema),
  /** Percent over the days that have results; null without any. */
  uptime24h: z.number().nullable(),
  uptime7d: z.number().nullable(),
  uptime30d: z.number().nullable(),
  uptime90d: z.number().nullable(),
});
export type CheckUptime = z.infer<typeof checkUptimeSchema>;
