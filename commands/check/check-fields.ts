import { z } from 'zod';
import { severities, severitySchema } from '../../server/contract/alerts';
import { checkKinds, dnsRecordTypes, httpMethods, type Check, type CheckRuleInput, type CreateCheck, type UpdateCheck } from '../../server/contract/checks';
import type { Api } from '../../src/api/client';
import { ApiError } from '../../src/api/client';
import { getCheck, listChecks } from '../../src/api/checks';
import { parseDuration } from '../../server/contract/duration';
import type { ArgSpec } from '../define-command';
import { resolveGroup } from '../group/resolve-group';
import { CommandError } from '../registry';
import { isUuid } from '../../server/contract/ids';

const SHOWN = 5;

/** Seconds as typed: a bare number is seconds here ("30"), or "30s", "2m", "1h". */
const secondsSchema = (what: string) =>
  z.union([z.number(), z.string()], { error: `${what} must be a number of seconds or a duration like 30s, 2m, 1h` }).transform((v, ctx) => {
    const s = typeof v === 'number' ? v : /^\s*\d+\s*$/.test(v) ? Number(v) : parseDuration(v);
    if (s === undefined || !Number.isInteger(s) || s < 0) {
      ctx.addIssue({ code: 'custom', message: `${what} must be a number of seconds or a duration like 30s, 2m, 1h` });
      return z.NEVER;
    }
    return s;
  });

/** How a form shows a header value the API keeps to itself (a credential). */
export const REDACTED = '••••';

/** "Name: value" lines (the form) or one such text (the command line) to headers. */
export function parseHeaders(text: string): { name: string; value: string }[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf(':');
      return at < 0 ? { name: line, value: '' } : { name: line.slice(0, at).trim(), value: line.slice(at + 1).trim() };
    });
}

/**
 * A check's settings as commands take them: short flags that read well on the command line
 * (`--url`, `--interval 30s`, `--contains "Add to cart"`, `--latency-ms`…), mapped onto the API's
 * body by `toCheckBody`. The rules of what is valid stay the server's (a 400 naming the field).
 * The keyword is `contains` or `lacks`, not `keyword`: the history hides fields named like
 * secrets ("key"), and request headers go under `headers`, which it also hides.
 */
export const checkFieldsShape = {
  kind: z.enum(checkKinds, { error: `kind must be one of ${checkKinds.join(', ')}` }),
  url: z.string().trim().min(1),
  host: z.string().trim().min(1),
  port: z.number({ error: 'port must be a number' }).int('port must be a whole number'),
  method: z.enum(httpMethods, { error: `method must be one of ${httpMethods.join(', ')}` }),
  status: z.string().trim().min(1),
  contains: z.string(),
  lacks: z.string(),
  headers: z.string(),
  followRedirects: z.boolean(),
  ignoreTls: z.boolean(),
  record: z.enum(dnsRecordTypes, { error: `record must be one of ${dnsRecordTypes.join(', ')}` }),
  expect: z.string().trim(),
  resolver: z.string().trim(),
  interval: secondsSchema('interval'),
  timeout: secondsSchema('timeout'),
  paused: z.boolean(),
  downGrace: secondsSchema('downGrace'),
  latencyMs: z.number({ error: 'latencyMs must be a number of milliseconds' }).int().min(0),
  certDays: z.number({ error: 'certDays must be a number of days' }).int().min(0),
  group: z.string().trim().min(1),
  downSeverity: severitySchema,
  latencySeverity: severitySchema,
  certSeverity: severitySchema,
};
export type CheckFieldName = keyof typeof checkFieldsShape;
export const checkFieldsSchema = z.object(checkFieldsShape).partial();
export type CheckFields = z.output<typeof checkFieldsSchema>;

export const checkArg = { name: 'check', label: 'Check', kind: 'entity', entity: 'check', positional: true } as const satisfies ArgSpec;

export const checkFieldArgs = {
  kind: { name: 'kind', label: 'Kind', kind: 'enum', optional: true, options: [
    { value: 'http', label: 'HTTP(S)' },
    { value: 'tcp', label: 'TCP port' },
    { value: 'dns', label: 'DNS' },
    { value: 'tls', label: 'TLS certificate' },
  ] },
  url: { name: 'url', label: 'URL', kind: 'text', optional: true, placeholder: 'https://shop.example.com/health' },
  host: { name: 'host', label: 'Host', kind: 'text', optional: true, placeholder: 'Host name or IP address' },
  port: { name: 'port', label: 'Port', kind: 'number', optional: true },
  method: { name: 'method', label: 'Method', kind: 'enum', optional: true, options: httpMethods.map((m) => ({ value: m, label: m })) },
  status: { name: 'status', label: 'Expected status codes', kind: 'text', optional: true, placeholder: '200-299' },
  contains: { name: 'contains', label: 'Text that must appear', kind: 'text', optional: true },
  lacks: { name: 'lacks', label: 'Text that must not appear', kind: 'text', optional: true },
  headers: { name: 'headers', label: 'Headers', kind: 'text', optional: true, placeholder: 'Name: value (one per line)' },
  followRedirects: { name: 'followRedirects', label: 'Follow redirects', kind: 'boolean', optional: true },
  ignoreTls: { name: 'ignoreTls', label: 'Ignore TLS errors', kind: 'boolean', optional: true },
  record: { name: 'record', label: 'DNS record type', kind: 'enum', optional: true, options: dnsRecordTypes.map((r) => ({ value: r, label: r })) },
  expect: { name: 'expect', label: 'Expected DNS answer', kind: 'text', optional: true },
  resolver: { name: 'resolver', label: 'DNS resolver', kind: 'text', optional: true, placeholder: 'IP address[:port]' },
  interval: { name: 'interval', label: 'Interval', kind: 'text', optional: true, placeholder: '60s' },
  timeout: { name: 'timeout', label: 'Timeout', kind: 'text', optional: true, placeholder: '10s' },
  paused: { name: 'paused', label: 'Paused', kind: 'boolean', optional: true },
  downGrace: { name: 'downGrace', label: 'Down for (grace period)', kind: 'text', optional: true, placeholder: '60s' },
  latencyMs: { name: 'latencyMs', label: 'Slow above (ms)', kind: 'number', optional: true },
  certDays: { name: 'certDays', label: 'Certificate expires within (days)', kind: 'number', optional: true },
  group: { name: 'group', label: 'Notification group of its rules', kind: 'text', optional: true, placeholder: 'Group name, or none' },
  downSeverity: { name: 'downSeverity', label: 'Severity when down', kind: 'enum', optional: true, options: severities.map((v) => ({ value: v, label: v })) },
  latencySeverity: { name: 'latencySeverity', label: 'Severity when slow', kind: 'enum', optional: true, options: severities.map((v) => ({ value: v, label: v })) },
  certSeverity: { name: 'certSeverity', label: 'Severity when the certificate expires soon', kind: 'enum', optional: true, options: severities.map((v) => ({ value: v, label: v })) },
} as const satisfies Record<CheckFieldName, ArgSpec>;

/** The settings' arguments, in the order the palette asks (create and edit share them). */
export const checkSettingArgs = [
  checkFieldArgs.url,
  checkFieldArgs.host,
  checkFieldArgs.port,
  checkFieldArgs.interval,
  checkFieldArgs.timeout,
  checkFieldArgs.method,
  checkFieldArgs.status,
  checkFieldArgs.contains,
  checkFieldArgs.lacks,
  checkFieldArgs.headers,
  checkFieldArgs.followRedirects,
  checkFieldArgs.ignoreTls,
  checkFieldArgs.record,
  checkFieldArgs.expect,
  checkFieldArgs.resolver,
] as const;
/** The rules' arguments (grace, thresholds, group, severities). */
export const checkRuleArgs = [
  checkFieldArgs.downGrace,
  checkFieldArgs.latencyMs,
  checkFieldArgs.certDays,
  checkFieldArgs.group,
  checkFieldArgs.downSeverity,
  checkFieldArgs.latencySeverity,
  checkFieldArgs.certSeverity,
] as const;

/** The kind a check is, when not said: a URL is HTTP, a host with a port TCP, a host alone DNS. */
export function inferKind(f: CheckFields, existing?: Check['kind']): Check['kind'] {
  if (f.kind) return f.kind;
  if (existing) return existing;
  if (f.url) return 'http';
  if (f.host && f.port !== undefined) return 'tcp';
  if (f.host) return 'dns';
  throw new CommandError('Say what to check: --url for a website, --host and --port for a TCP port, --host for a DNS name (or --kind).');
}

/** The command's flags as the API's create or update body; `group` is resolved to an id ("none" clears). */
export async function toCheckBody(api: Api, f: CheckFields): Promise<Omit<UpdateCheck, 'name'>> {
  if (f.contains !== undefined && f.lacks !== undefined) throw new CheckFieldError('Give --contains or --lacks, not both', 'contains');
  const body: Record<string, unknown> = {};
  const put = (key: string, value: unknown) => value !== undefined && (body[key] = value);
  put('url', f.url);
  put('host', f.host);
  put('port', f.port);
  put('method', f.method);
  put('expectedStatus', f.status);
  if (f.contains !== undefined) Object.assign(body, { keyword: f.contains || null, keywordMode: 'contains' });
  if (f.lacks !== undefined) Object.assign(body, { keyword: f.lacks || null, keywordMode: 'absent' });
  // A credential the API did not send back (shown as REDACTED) keeps its stored value.
  if (f.headers !== undefined) body.headers = parseHeaders(f.headers).map((h) => (h.value === REDACTED ? { name: h.name } : h));
  put('followRedirects', f.followRedirects);
  put('ignoreTlsErrors', f.ignoreTls);
  put('recordType', f.record);
  if (f.expect !== undefined) body.expectedAnswer = f.expect || null;
  if (f.resolver !== undefined) body.resolver = f.resolver || null;
  put('intervalSeconds', f.interval);
  put('timeoutSeconds', f.timeout);
  put('paused', f.paused);
  const rules: Record<string, CheckRuleInput> = {};
  if (f.downGrace !== undefined) rules.down = { timeLimit: f.downGrace };
  // 0 turns a rule off; a number turns it on with that threshold.
  if (f.latencyMs !== undefined) rules.latency = f.latencyMs === 0 ? { enabled: false } : { enabled: true, threshold: f.latencyMs };
  if (f.certDays !== undefined) rules.cert_expiry = f.certDays === 0 ? { enabled: false } : { enabled: true, threshold: f.certDays };
  for (const [kind, severity] of [['down', f.downSeverity], ['latency', f.latencySeverity], ['cert_expiry', f.certSeverity]] as const) {
    if (severity !== undefined) rules[kind] = { ...rules[kind], severity };
  }
  if (f.group !== undefined) {
    const group = f.group.toLowerCase() === 'none' ? null : (await resolveGroup(api, f.group))._id;
    for (const kind of ['down', 'latency', 'cert_expiry'] as const) rules[kind] = { ...rules[kind], notificationGroup: group };
  }
  if (Object.keys(rules).length) body.rules = rules;
  return body as Omit<UpdateCheck, 'name'>;
}

export type CreateBody = CreateCheck;

/** A refusal that names the offending field (API field names), so a form can show it beside the input. */
export class CheckFieldError extends CommandError {
  constructor(
    message: string,
    readonly field: string | undefined,
  ) {
    super(message, 'error');
    this.name = 'CheckFieldError';
  }
}

/** The server's `{ field, message }` (a 400 or 409) as a CheckFieldError; other errors pass unchanged. */
export function checkFieldError(err: unknown): unknown {
  if (!(err instanceof ApiError) || !err.field) return err;
  const message = err.message.startsWith(`${err.field}: `) ? err.message.slice(err.field.length + 2) : err.message;
  return new CheckFieldError(message, err.field);
}

/**
 * `check` arguments take an id or a name (names are unique, case-insensitively) and forgive a
 * unique part of a name or target; several candidates are listed.
 */
export async function resolveCheck(api: Api, ref: string): Promise<Check> {
  const value = ref.trim();
  if (!value) throw new CommandError('Name a check: its name or id');
  if (isUuid(value)) {
    try {
      return (await getCheck(api, value)).result;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
  }
  const lower = value.toLowerCase();
  const [byName, bySearch] = await Promise.all([
    listChecks(api, { pageNumber: 1, pageSize: 2, filter: { name: { eq: value } } }),
    listChecks(api, { pageNumber: 1, pageSize: 50, search: value, sort: { by: 'name', direction: 'asc' } }),
  ]);
  const exact = [...byName.result.data, ...bySearch.result.data].find((c) => c.name.toLowerCase() === lower);
  if (exact) return exact;
  const { data, count } = bySearch.result;
  if (count === 1 && data[0]) return data[0];
  if (count > 1) {
    const more = count > SHOWN ? ` and ${count - SHOWN} more` : '';
    throw new CommandError(`${count} checks match "${value}": ${data.slice(0, SHOWN).map((c) => c.name).join(', ')}${more}. Use the full name or the id.`);
  }
  throw new CommandError(`No check matches "${value}"`);
}

/** "up · 123 ms · HTTP 200" for messages. */
export function checkSummary(c: Pick<Check, 'state' | 'latencyMs' | 'statusCode' | 'lastError' | 'certDaysLeft'>): string {
  const parts = [c.state];
  if (c.latencyMs !== null) parts.push(`${Math.round(c.latencyMs)} ms`);
  if (c.statusCode !== null) parts.push(`HTTP ${c.statusCode}`);
  if (c.certDaysLeft !== null) parts.push(`certificate: ${Math.floor(c.certDaysLeft)} days left`);
  if (c.state === 'down' && c.lastError) parts.push(c.lastError);
  return parts.join(' · ');
}
