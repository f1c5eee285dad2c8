import { and, eq, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { defaultGroupId } from '../alerting/reach';
import type { SecretBox } from '../channels/secret-box';
import {
  checkInputProblem,
  checkRuleKinds,
  checkTarget,
  type CheckHeaderInput,
  type CheckRuleInput,
  type CheckRuleKind,
  type CheckSettings,
  type createCheckSchema,
  type updateCheckSchema,
} from '../contract/checks';
import { isUuid } from '../contract/ids';
import type { Db } from '../db/client';
import { checkRules, checks, notificationGroups } from '../db/schema';
import { badRequest } from '../http/errors';
import { openHeaders, type PlainHeader } from '../monitoring/checks/check-headers';
import { resolverAddress } from '../monitoring/checks/probe';
import type { OutboundPolicy } from '../outbound/policy';
import type { CheckRow } from './present';

/**
 * How a form or a client sends a masked header back unchanged (`REDACTED` in commands/check): read
 * as "keep the stored value", like a header given without one.
 */
const MASK = '••••';

/** The rules a new check starts with; cert_expiry is on for checks that see a certificate. */
export function defaultCheckRules(kind: CheckSettings['kind'], url: string | null): Record<CheckRuleKind, Required<Omit<CheckRuleInput, 'notificationGroup'>> & { notificationGroup: string | null }> {
  const tls = kind === 'tls' || (kind === 'http' && !!url?.toLowerCase().startsWith('https:'));
  return {
    down: { enabled: true, timeLimit: 60, threshold: null, severity: 'critical', notificationGroup: null },
    latency: { enabled: false, timeLimit: 300, threshold: 2000, severity: 'warning', notificationGroup: null },
    cert_expiry: { enabled: tls, timeLimit: 0, threshold: 14, severity: 'warning', notificationGroup: null },
  };
}

function settingsOf(row: CheckRow, headers: PlainHeader[]): CheckSettings {
  return {
    kind: row.kind,
    url: row.url,
    host: row.host,
    port: row.port,
    method: row.method as CheckSettings['method'],
    expectedStatus: row.expectedStatus,
    keyword: row.keyword,
    keywordMode: row.keywordMode,
    headers,
    followRedirects: row.followRedirects,
    ignoreTlsErrors: row.ignoreTlsErrors,
    recordType: row.recordType as CheckSettings['recordType'],
    expectedAnswer: row.expectedAnswer,
    resolver: row.resolver,
    intervalSeconds: row.intervalS,
    timeoutSeconds: row.timeoutS,
  };
}

export async function checkNameTaken(db: Db, name: string, exceptId?: string): Promise<boolean> {
  const where = and(sql`${checks.nameLc} = ${name.toLowerCase()}`, exceptId ? ne(checks.id, exceptId) : undefined);
  return (await db.select({ id: checks.id }).from(checks).where(where).limit(1)).length > 0;
}

/**
 * Headers of an update: a header given without a value (or with the mask the API shows) keeps the
 * stored value of that name; the stored values are opened only when one is kept.
 */
function mergeHeaders(input: CheckHeaderInput[], storedOf: () => PlainHeader[]): PlainHeader[] {
  const names = new Set<string>();
  let stored: PlainHeader[] | undefined;
  return input.map((h, i) => {
    const lower = h.name.toLowerCase();
    if (names.has(lower)) throw badRequest(`headers.${i}.name: the header ${h.name} is given twice`, `headers.${i}.name`);
    names.add(lower);
    if (h.value !== undefined && h.value !== MASK) return { name: h.name, value: h.value };
    try {
      stored ??= storedOf();
    } catch {
      throw badRequest(`headers.${i}.value: the stored value cannot be read (OPSDECK_SECRET_KEY is not the key it was stored with): enter it again`, `headers.${i}.value`);
    }
    const old = stored.find((s) => s.name.toLowerCase() === lower);
    if (!old) throw badRequest(`headers.${i}.value: is required`, `headers.${i}.value`);
    return { name: h.name, value: old.value };
  });
}

/** A new check's settings: its input over the defaults, the header values as given. */
export function newCheckSettings(input: z.output<typeof createCheckSchema>): CheckSettings {
  const headers = mergeHeaders(input.headers ?? [], () => []);
  return {
    kind: input.kind,
    url: input.kind === 'http' ? (input.url ?? null) : null,
    host: input.kind === 'http' ? null : (input.host ?? null),
    port: input.kind === 'tcp' || input.kind === 'tls' ? (input.port ?? null) : null,
    method: input.method ?? 'GET',
    expectedStatus: input.expectedStatus?.replace(/\s+/g, '') ?? '200-299',
    keyword: input.keyword || null,
    keywordMode: input.keywordMode ?? 'contains',
    headers,
    followRedirects: input.followRedirects ?? true,
    ignoreTlsErrors: input.ignoreTlsErrors ?? false,
    recordType: input.kind === 'dns' ? (input.recordType ?? 'A') : null,
    expectedAnswer: input.kind === 'dns' ? input.expectedAnswer || null : null,
    resolver: input.kind === 'dns' ? input.resolver || null : null,
    intervalSeconds: input.intervalSeconds ?? 60,
    timeoutSeconds: input.timeoutSeconds ?? Math.min(10, input.intervalSeconds ?? 60),
  };
}

/**
 * A changed check's settings: the input over the stored row. Header values are opened only to keep
 * one an edit does not send again.
 */
export function changedCheckSettings(input: z.output<typeof updateCheckSchema>, existing: CheckRow, box: SecretBox): CheckSettings {
  const old = settingsOf(existing, []);
  return {
    ...old,
    ...(input.url !== undefined ? { url: input.url } : {}),
    ...(input.host !== undefined ? { host: input.host } : {}),
    ...(input.port !== undefined ? { port: input.port } : {}),
    ...(input.method !== undefined ? { method: input.method } : {}),
    ...(input.expectedStatus !== undefined ? { expectedStatus: input.expectedStatus.replace(/\s+/g, '') } : {}),
    ...(input.keyword !== undefined ? { keyword: input.keyword || null } : {}),
    ...(input.keywordMode !== undefined ? { keywordMode: input.keywordMode } : {}),
    ...(input.headers !== undefined ? { headers: mergeHeaders(input.headers, () => openHeaders(box, existing.id, existing.headers)) } : {}),
    ...(input.followRedirects !== undefined ? { followRedirects: input.followRedirects } : {}),
    ...(input.ignoreTlsErrors !== undefined ? { ignoreTlsErrors: input.ignoreTlsErrors } : {}),
    ...(input.recordType !== undefined ? { recordType: input.recordType } : {}),
    ...(input.expectedAnswer !== undefined ? { expectedAnswer: input.expectedAnswer || null } : {}),
    ...(input.resolver !== undefined ? { resolver: input.resolver || null } : {}),
    ...(input.intervalSeconds !== undefined ? { intervalSeconds: input.intervalSeconds } : {}),
    ...(input.timeoutSeconds !== undefined ? { timeoutSeconds: input.timeoutSeconds } : {}),
  };
}

/** Kind rules, the minimum interval and the outbound policy: a 400 naming the field. */
export async function validateCheckSettings(s: CheckSettings, minInterval: number, outbound: OutboundPolicy | undefined): Promise<void> {
  const problem = checkInputProblem(s);
  if (problem) throw badRequest(problem[1], problem[0]);
  if (s.intervalSeconds < minInterval) throw badRequest(`intervalSeconds: a check runs at most every ${minInterval} seconds`, 'intervalSeconds');
  // The outbound policy, where the address is known now (a name is decided again at each run).
  if (!outbound) return;
  if (s.kind === 'http') {
    const refused = await outbound.urlRefusal(s.url!, 'check');
    if (refused) throw badRequest(`url: ${refused}`, 'url');
  } else if (s.kind !== 'dns') {
    const refused = await outbound.refusal(s.host!, s.port!, 'check');
    if (refused) throw badRequest(`host: ${refused}`, 'host');
  } else if (s.resolver) {
    const { host, port } = resolverAddress(s.resolver);
    const refused = outbound.decide(host, port, 'check');
    if (refused) throw badRequest(`resolver: ${refused}`, 'resolver');
  }
}

/** Rule input: group ids must name groups, thresholds must be there where a rule needs one; a 400 naming the field. */
export async function checkRuleInput(db: Db, rules: Partial<Record<CheckRuleKind, CheckRuleInput>> | undefined): Promise<void> {
  for (const kind of checkRuleKinds) {
    const g = rules?.[kind]?.notificationGroup;
    if (g === undefined || g === null) continue;
    const found = isUuid(g) ? await db.select({ id: notificationGroups.id }).from(notificationGroups).where(eq(notificationGroups.id, g)).limit(1) : [];
    if (!found.length) throw badRequest(`rules.${kind}.notificationGroup: no notification group with id "${g}"`, `rules.${kind}.notificationGroup`);
  }
  const latency = rules?.latency;
  if (latency && latency.threshold === null) throw badRequest('rules.latency.threshold: a latency rule needs a threshold in milliseconds', 'rules.latency.threshold');
  const cert = rules?.cert_expiry;
  if (cert && cert.threshold === null) throw badRequest('rules.cert_expiry.threshold: a certificate rule needs a number of days', 'rules.cert_expiry.threshold');
  if (cert?.threshold != null && cert.threshold > 365) throw badRequest('rules.cert_expiry.threshold: at most 365 days', 'rules.cert_expiry.threshold');
}

/** Writes the rule changes (insert or update per kind); groups deleted meanwhile fall back to none. */
export async function writeRules(tx: Db, checkId: string, rules: Partial<Record<CheckRuleKind, CheckRuleInput>>, defaults: ReturnType<typeof defaultCheckRules> | null): Promise<void> {
  const existing = await tx.select().from(checkRules).where(eq(checkRules.checkId, checkId));
  for (const kind of checkRuleKinds) {
    const given = rules[kind];
    const old = existing.find((r) => r.kind === kind);
    if (!given && old) continue;
    const base = old
      ? { enabled: old.enabled, timeLimit: old.timeLimit, threshold: old.threshold, severity: old.severity, notificationGroup: old.notificationGroupId }
      : (defaults ?? defaultCheckRules('http', null))[kind];
    const v = { ...base, ...given };
    const threshold = kind === 'down' ? null : v.threshold;
    // A new rule not told its group notifies the default group (none unless one is set).
    const group = v.notificationGroup ? sql`(select id from notification_groups where id = ${v.notificationGroup}::uuid)` : !old && given?.notificationGroup === undefined ? defaultGroupId : sql`null`;
    await tx.execute(sql`
      insert into check_rules (check_id, kind, enabled, time_limit, threshold, severity, notification_group_id, updated_at)
      values (${checkId}::uuid, ${kind}, ${v.enabled}, ${v.timeLimit}, ${threshold}, ${v.severity}, ${group}, now())
      on conflict (check_id, kind) do update set enabled = excluded.enabled, time_limit = excluded.time_limit, threshold = excluded.threshold,
        severity = excluded.severity, notification_group_id = excluded.notification_group_id, updated_at = now()`);
  }
}

/** A field of another kind (a port on an HTTP check) is refused rather than stored unused. */
export function foreignField(input: z.output<typeof updateCheckSchema>, kind: CheckSettings['kind']): void {
  const foreign = (['url', 'host', 'port', 'recordType', 'expectedAnswer', 'resolver'] as const).find((f) => input[f] !== undefined && !appliesTo(f, kind));
  if (foreign) throw badRequest(`${foreign}: does not apply to a ${kind} check`, foreign);
}

const appliesTo = (field: 'url' | 'host' | 'port' | 'recordType' | 'expectedAnswer' | 'resolver', kind: CheckSettings['kind']) =>
  field === 'url' ? kind === 'http' : field === 'host' ? kind !== 'http' : field === 'port' ? kind === 'tcp' || kind === 'tls' : kind === 'dns';

/** The columns a check's settings are stored in. */
export function rowFields(s: CheckSettings) {
  return {
    kind: s.kind,
    target: checkTarget(s),
    url: s.url,
    host: s.host,
    port: s.port,
    method: s.method,
    expectedStatus: s.expectedStatus,
    keyword: s.keyword,
    keywordMode: s.keywordMode,
    followRedirects: s.followRedirects,
    ignoreTlsErrors: s.ignoreTlsErrors,
    recordType: s.recordType,
    expectedAnswer: s.expectedAnswer,
    resolver: s.resolver,
    intervalS: s.intervalSeconds,
    timeoutS: s.timeoutSeconds,
  };
}
