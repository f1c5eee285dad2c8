import { inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { checkRuleKinds, checkRuleNames, type Check, type CheckRuleKind } from '../contract/checks';
import { can } from '../contract/permissions';
import type { Db } from '../db/client';
import { checkRules, checks } from '../db/schema';
import { pct, uptime24hSince, type CheckStore } from '../monitoring/checks/check-store';
import { withoutDnsAnswers } from '../monitoring/checks/probe';

export type CheckRow = typeof checks.$inferSelect;
export type RuleRow = typeof checkRules.$inferSelect;
/** What the API shows of a check's row (not who made it, nor the lower-cased copies). */
type CheckFields = Omit<CheckRow, 'createdBy' | 'nameLc' | 'targetLc' | 'up24Hour' | 'up24Total' | 'up24Up'>;
type RuleFields = Omit<RuleRow, 'checkId' | 'updatedAt'>;

export const iso = (d: Date | null) => (d ? d.toISOString() : null);
const DAY_MS = 86_400_000;

export function checkToApi(row: CheckFields): Check {
  return {
    _id: row.id,
    name: row.name,
    kind: row.kind,
    target: row.target,
    url: row.url,
    host: row.host,
    port: row.port,
    method: row.method as Check['method'],
    expectedStatus: row.expectedStatus,
    keyword: row.keyword,
    keywordMode: row.keywordMode,
    // Every value, whatever the header is called and whoever asks: a name tells nothing about
    // what a custom header carries (issue 25 §4). Values are sealed at rest and only sent.
    headers: row.headers.map((h) => ({ name: h.name, value: null, redacted: true })),
    followRedirects: row.followRedirects,
    ignoreTlsErrors: row.ignoreTlsErrors,
    recordType: row.recordType as Check['recordType'],
    expectedAnswer: row.expectedAnswer,
    resolver: row.resolver,
    intervalSeconds: row.intervalS,
    timeoutSeconds: row.timeoutS,
    paused: row.paused,
    state: row.state,
    stateChangedAt: iso(row.stateChangedAt),
    lastCheckedAt: iso(row.lastCheckedAt),
    lastError: row.lastError,
    latencyMs: row.latencyMs,
    statusCode: row.statusCode,
    certExpiresAt: iso(row.certExpiresAt),
    certDaysLeft: row.certExpiresAt ? Math.round(((row.certExpiresAt.getTime() - Date.now()) / DAY_MS) * 10) / 10 : null,
    certProblem: row.certProblem,
    rules: [],
    uptime24h: null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export const ruleToApi = (r: RuleFields) => ({
  _id: r.id,
  kind: r.kind,
  name: checkRuleNames[r.kind],
  enabled: r.enabled,
  timeLimit: r.timeLimit,
  threshold: r.threshold,
  severity: r.severity,
  notificationGroup: r.notificationGroupId,
});

/** Adds what lives outside a check's row to each: its rules, in their fixed order, and its uptime24h. */
export async function enrichChecks(db: Db, store: CheckStore, items: Check[]): Promise<Check[]> {
  const ids = items.map((c) => c._id);
  const [rules, uptime] = await Promise.all([db.select().from(checkRules).where(inArray(checkRules.checkId, ids)), store.uptime24h(ids, Date.now())]);
  return items.map((c) => ({
    ...c,
    rules: rules
      .filter((r) => r.checkId === c._id)
      .sort((a, b) => checkRuleKinds.indexOf(a.kind) - checkRuleKinds.indexOf(b.kind))
      .map(ruleToApi),
    uptime24h: uptime.get(c._id) ?? null,
  }));
}

/** One check as every answer shows it: its row, its rules and its uptime24h. */
export const presentCheck = async (db: Db, store: CheckStore, row: CheckRow): Promise<Check> => (await enrichChecks(db, store, [checkToApi(row)]))[0]!;

/**
 * A list page: the checks, their rules and their uptime24h as one JSON text from one statement,
 * then the same checkToApi and ruleToApi as one check (toApi + enrich). Each check is looked up
 * by its id (OFFSET 0 keeps the lookup a nested index probe: joined, the planner read all checks
 * into a hash). Timestamps travel as JSON's ISO text, which a Date reads as it reads the row's.
 * uptime24h comes from the sums the result writer keeps on the row (checks.up24_*) while they
 * are this hour's, else from check_hourly (a check not written this hour yet).
 */
export async function listCheckItems(db: Db, ids: string[]): Promise<Check[]> {
  const sinceMs = uptime24hSince(Date.now()).getTime();
  const since = new Date(sinceMs).toISOString();
  // uptime24h's sums as the result writer kept them on the row while they are this hour's; else summed.
  const hour = sql`${new Date(sinceMs + 24 * 3_600_000).toISOString()}::timestamptz`;
  const res = (await db.execute(sql`
    select json_agg(json_build_array(c.id, c.name, c.kind, c.target, c.url, c.host, c.port, c.method, c.expected_status, c.keyword,
      c.keyword_mode, c.headers, c.follow_redirects, c.ignore_tls_errors, c.record_type, c.expected_answer, c.resolver, c.interval_s,
      c.timeout_s, c.paused, c.state, c.state_changed_at, c.last_checked_at, c.last_error, c.latency_ms, c.status_code,
      c.cert_expires_at, c.cert_problem, c.created_at, c.updated_at, r.rules,
      case when c.up24_hour = ${hour} then c.up24_total else s.total end, case when c.up24_hour = ${hour} then c.up24_up else s.up end) order by u.n)::text as items
    from unnest(${sql.param(ids)}::uuid[]) with ordinality as u(id, n)
    cross join lateral (select * from checks c where c.id = u.id offset 0) c
    left join lateral (
      select json_agg(json_build_array(r.id, r.kind, r.enabled, r.time_limit, r.threshold, r.severity, r.notification_group_id)
        order by array_position(${sql.param([...checkRuleKinds])}::text[], r.kind)) as rules
      from check_rules r where r.check_id = c.id) r on true
    left join lateral (
      select sum(h.total)::float8 as total, sum(h.up)::float8 as up
      from check_hourly h where h.check_id = c.id and h.bucket >= ${since}::timestamptz and c.up24_hour is distinct from ${hour}) s on true`)) as unknown as { rows: { items: string | null }[] };
  const items = JSON.parse(res.rows[0]?.items ?? '[]') as unknown[][];
  const date = (v: unknown) => (v === null ? null : new Date(v as string));
  return items.map((v) => ({
    ...checkToApi({
      id: v[0] as string,
      name: v[1] as string,
      kind: v[2] as CheckRow['kind'],
      target: v[3] as string,
      url: v[4] as string | null,
      host: v[5] as string | null,
      port: v[6] as number | null,
      method: v[7] as string,
      expectedStatus: v[8] as string,
      keyword: v[9] as string | null,
      keywordMode: v[10] as CheckRow['keywordMode'],
      headers: v[11] as CheckRow['headers'],
      followRedirects: v[12] as boolean,
      ignoreTlsErrors: v[13] as boolean,
      recordType: v[14] as string | null,
      expectedAnswer: v[15] as string | null,
      resolver: v[16] as string | null,
      intervalS: v[17] as number,
      timeoutS: v[18] as number,
      paused: v[19] as boolean,
      state: v[20] as string,
      stateChangedAt: date(v[21]),
      lastCheckedAt: date(v[22]),
      lastError: v[23] as string | null,
      latencyMs: v[24] as number | null,
      statusCode: v[25] as number | null,
      certExpiresAt: date(v[26]),
      certProblem: v[27] as string | null,
      createdAt: date(v[28])!,
      updatedAt: date(v[29])!,
    }),
    rules: ((v[30] ?? []) as unknown[][]).map((r) =>
      ruleToApi({
        id: r[0] as string,
        kind: r[1] as CheckRuleKind,
        enabled: r[2] as boolean,
        timeLimit: r[3] as number,
        threshold: r[4] as number | null,
        severity: r[5] as RuleRow['severity'],
        notificationGroupId: r[6] as string | null,
      }),
    ),
    uptime24h: v[31] === null ? null : pct(v[32] as number, v[31] as number),
  }));
}

/** How the audit trail names a check: by its name. */
export const checkAuditTarget = (row: { id: string; name: string }) => ({ kind: 'check', id: row.id, name: row.name });

/**
 * A DNS check's error lists the records it got (TXT values included): shown to the roles that may
 * edit the check, which can point it anywhere anyway; others read that the answer was not the
 * expected one (issue 25 §4).
 */
export const seesDnsAnswers = (request: FastifyRequest) => !!request.user && can(request.user.role, 'checks.write') && request.apiToken?.scope !== 'read';
export const hideDnsAnswers = (c: Check): Check => (c.kind === 'dns' ? { ...c, lastError: withoutDnsAnswers(c.lastError) } : c);
