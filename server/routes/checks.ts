import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { defaultGroupId } from '../alerting/reach';
import { z } from 'zod';
import {
  checkHistoryQuerySchema,
  checkInputProblem,
  checkRuleKinds,
  checkRuleNames,
  checkTarget,
  createCheckSchema,
  updateCheckSchema,
  type Check,
  type CheckHeaderInput,
  type CheckRuleInput,
  type CheckRuleKind,
  type CheckSettings,
} from '../contract/checks';
import type { Db } from '../db/client';
import { checkRules, checks, notificationGroups } from '../db/schema';
import { badRequest, conflict, fromZod, HttpError, notFound } from '../http/errors';
import { requirePermission } from '../http/session';
import type { Monitoring } from '../monitoring/monitoring';
import { audited, auditTarget } from '../audit/trail';
import { registerResource } from './resource';
import { isUuid } from '../contract/ids';
import { pct, uptime24hSince } from '../monitoring/checks/check-store';
import { resolverAddress, withoutDnsAnswers } from '../monitoring/checks/probe';
import { can } from '../contract/permissions';
import { rowCount } from '../db/row-counts';
import { randomUUID } from 'node:crypto';
import { openHeaders, sealHeaders, type PlainHeader, type StoredHeader } from '../monitoring/checks/check-headers';

type CheckRow = typeof checks.$inferSelect;
type RuleRow = typeof checkRules.$inferSelect;
/** What the API shows of a check's row (not who made it, nor the lower-cased copies). */
type CheckFields = Omit<CheckRow, 'createdBy' | 'nameLc' | 'targetLc' | 'up24Hour' | 'up24Total' | 'up24Up'>;
type RuleFields = Omit<RuleRow, 'checkId' | 'updatedAt'>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const DAY_MS = 86_400_000;

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

const ruleToApi = (r: RuleFields) => ({
  _id: r.id,
  kind: r.kind,
  name: checkRuleNames[r.kind],
  enabled: r.enabled,
  timeLimit: r.timeLimit,
  threshold: r.threshold,
  severity: r.severity,
  notificationGroup: r.notificationGroupId,
});

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

async function nameTaken(db: Db, name: string, exceptId?: string): Promise<boolean> {
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

/**
 * SPEC-style resource `checks` (issue 16): list, many, one, create, update, delete on the shared
 * resource machinery, plus run-now, results history and uptime. docs/checks.md.
 */
export function registerChecks(app: FastifyInstance, db: Db, monitoring: Monitoring): void {
  const runner = monitoring.checks;
  const minInterval = monitoring.settings.checks.minIntervalS;
  const box = app.secretBox;

  /** Kind rules, the minimum interval and the outbound policy: a 400 naming the field. */
  async function validate(s: CheckSettings): Promise<void> {
    const problem = checkInputProblem(s);
    if (problem) throw badRequest(problem[1], problem[0]);
    if (s.intervalSeconds < minInterval) throw badRequest(`intervalSeconds: a check runs at most every ${minInterval} seconds`, 'intervalSeconds');
    // The outbound policy, where the address is known now (a name is decided again at each run).
    const outbound = runner.outbound;
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

  /** Group ids of rule input must name groups; returns them checked. */
  async function checkGroups(rules: Partial<Record<CheckRuleKind, CheckRuleInput>> | undefined): Promise<void> {
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
  async function writeRules(tx: Db, checkId: string, rules: Partial<Record<CheckRuleKind, CheckRuleInput>>, defaults: ReturnType<typeof defaultCheckRules> | null): Promise<void> {
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

  async function enrich(items: Check[]): Promise<Check[]> {
    const ids = items.map((c) => c._id);
    const [rules, uptime] = await Promise.all([db.select().from(checkRules).where(inArray(checkRules.checkId, ids)), runner.store.uptime24h(ids, Date.now())]);
    return items.map((c) => ({
      ...c,
      rules: rules
        .filter((r) => r.checkId === c._id)
        .sort((a, b) => checkRuleKinds.indexOf(a.kind) - checkRuleKinds.indexOf(b.kind))
        .map(ruleToApi),
      uptime24h: uptime.get(c._id) ?? null,
    }));
  }

  /**
   * A list page: the checks, their rules and their uptime24h as one JSON text from one statement,
   * then the same checkToApi and ruleToApi as one check (toApi + enrich). Each check is looked up
   * by its id (OFFSET 0 keeps the lookup a nested index probe: joined, the planner read all checks
   * into a hash). Timestamps travel as JSON's ISO text, which a Date reads as it reads the row's.
   * uptime24h comes from the sums the result writer keeps on the row (checks.up24_*) while they
   * are this hour's, else from check_hourly (a check not written this hour yet).
   */
  async function listItems(ids: string[]): Promise<Check[]> {
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

  registerResource<CheckRow, Check>(app, db, {
    name: 'checks',
    table: checks,
    id: checks.id,
    toApi: checkToApi,
    enrich,
    listItems,
    forCaller: (items, request) => (mayEdit(request) ? items : items.map(hideDnsAnswers)),
    total: (d) => rowCount(d, 'checks'),
    read: 'read',
    target: (row) => ({ kind: 'check', id: row.id, name: row.name }),
    conflicts: { checks_name_lc_idx: { field: 'name', message: 'A check with this name already exists' } },
    sortable: {
      createdAt: checks.createdAt,
      name: checks.nameLc as never,
      kind: checks.kind,
      state: checks.state,
      latencyMs: checks.latencyMs,
      lastCheckedAt: checks.lastCheckedAt,
      certExpiresAt: checks.certExpiresAt,
    },
    filterable: {
      name: { column: checks.name, lower: checks.nameLc as never, ops: ['contains', 'eq'] },
      target: { column: checks.target, lower: checks.targetLc as never, ops: ['contains', 'eq'] },
      kind: { column: checks.kind, ops: ['eq', 'in'] },
      state: { column: checks.state, ops: ['eq', 'in'] },
      paused: { column: checks.paused, ops: ['eq'], kind: 'boolean' },
      createdAt: { column: checks.createdAt, ops: ['between'], kind: 'date' },
    },
    search: [{ lower: checks.nameLc as never }, { lower: checks.targetLc as never }],
    defaultSort: { by: 'createdAt', direction: 'desc' },
    create: {
      permission: 'checks.write',
      schema: createCheckSchema,
      // Checked before the change's transaction opens: the guard may resolve a hostname.
      async prepare(input: z.output<typeof createCheckSchema>) {
        const headers = mergeHeaders(input.headers ?? [], () => []);
        // The id is chosen here: the header values are sealed bound to it.
        const id = randomUUID();
        const s: CheckSettings = {
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
        await validate(s);
        await checkGroups(input.rules);
        return { input, s, id, sealed: sealHeaders(box, id, headers) };
      },
      async toRow({ input, s, id, sealed }: { input: z.output<typeof createCheckSchema>; s: CheckSettings; id: string; sealed: StoredHeader[] }, { db: tx, user }) {
        if (await nameTaken(tx, input.name)) throw conflict(`A check named "${input.name}" already exists`, 'name');
        return {
          id,
          name: input.name,
          ...rowFields(s),
          headers: sealed,
          paused: input.paused ?? false,
          createdBy: user._id,
        };
      },
      async after(created, { db: tx, request, afterCommit }) {
        const input = (request.body ?? {}) as { rules?: Partial<Record<CheckRuleKind, CheckRuleInput>> };
        await writeRules(tx, created.id, input.rules ?? {}, defaultCheckRules(created.kind, created.url));
        afterCommit(() => void runner.reload());
      },
    },
    update: {
      permission: 'checks.write',
      schema: updateCheckSchema,
      async prepare(input: z.output<typeof updateCheckSchema>, existing: CheckRow) {
        // Header values are opened only to keep one an edit does not send again.
        const old = settingsOf(existing, []);
        const s: CheckSettings = {
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
        // A field of another kind (a port on an HTTP check) is refused rather than stored unused.
        const foreign = (['url', 'host', 'port', 'recordType', 'expectedAnswer', 'resolver'] as const).find((f) => input[f] !== undefined && !appliesTo(f, s.kind));
        if (foreign) throw badRequest(`${foreign}: does not apply to a ${s.kind} check`, foreign);
        await validate(s);
        await checkGroups(input.rules);
        return { input, s, sealed: input.headers !== undefined ? sealHeaders(box, existing.id, s.headers) : existing.headers };
      },
      async toRow({ input, s, sealed }: { input: z.output<typeof updateCheckSchema>; s: CheckSettings; sealed: StoredHeader[] }, existing, { db: tx }) {
        if (input.name !== undefined && (await nameTaken(tx, input.name, existing.id))) throw conflict(`A check named "${input.name}" already exists`, 'name');
        const targetChanged = checkTarget(s) !== existing.target;
        return {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...rowFields(s),
          headers: sealed,
          ...(input.paused !== undefined ? { paused: input.paused } : {}),
          // Another target: the last result (and certificate) were about the old one.
          ...(targetChanged ? { state: 'unknown', stateChangedAt: null, lastError: null, latencyMs: null, statusCode: null, certExpiresAt: null, certProblem: null } : {}),
          updatedAt: new Date(),
        };
      },
      async after(updated, { input }: { input: z.output<typeof updateCheckSchema> }, { db: tx, afterCommit }) {
        if (input.rules) await writeRules(tx, updated.id, input.rules, null);
        afterCommit(() => void runner.reload());
      },
    },
    remove: {
      permission: 'checks.write',
      async after(removed, { afterCommit }) {
        // Results, rollups, rules and alerts go by cascade.
        afterCommit(() => runner.forget(removed.id));
      },
    },
  });

  const findCheck = async (id: string): Promise<CheckRow> => {
    const row = isUuid(id) ? (await db.select().from(checks).where(eq(checks.id, id)).limit(1))[0] : undefined;
    if (!row) throw notFound(`No check with id "${id}"`);
    return row;
  };
  const one = async (row: CheckRow) => (await enrich([checkToApi(row)]))[0]!;

  /** check.run-now: run at once (also a paused check) and answer the result with the updated check; 429 past the per-check limit. */
  app.post<{ Params: { id: string } }>('/api/checks/run-now/:id', { preHandler: requirePermission('checks.write') }, async (request, reply) => {
    const row = await findCheck(request.params.id);
    auditTarget(request, { kind: 'check', id: row.id, name: row.name });
    // What a run answers says something about the target (a keyword is there or not): asking
    // again and again is limited per check (CHECK_RUN_NOW_PER_MINUTE).
    const refused = await runner.takeRunOnDemand(row.id);
    if (refused) {
      void reply.header('retry-after', String(refused.waitS));
      const what = refused.acrossChecks ? `Checks ran on request ${runner.runNowAcrossChecksPerMinute} times` : `"${row.name}" ran on request ${runner.runNowPerMinute} times`;
      throw new HttpError(429, `${what} in the last minute: try again in ${refused.waitS} s`);
    }
    const result = await runner.runNow(row.id);
    if (!result) throw notFound(`No check with id "${request.params.id}"`);
    // The runner writes its result itself; the record of who ran it follows in its own transaction.
    await audited(request, db, async () => undefined);
    const after = await findCheck(row.id);
    return {
      result: await one(after),
      run: { up: result.up, latencyMs: result.latencyMs, statusCode: result.statusCode, error: result.error, certExpiresAt: iso(result.certExpiresAt), certProblem: result.certProblem },
    };
  });

  app.get<{ Params: { id: string }; Querystring: Record<string, string> }>('/api/checks/history/:id', { preHandler: requirePermission('read') }, async (request) => {
    const parsed = checkHistoryQuerySchema.safeParse(request.query);
    if (!parsed.success) throw fromZod(parsed.error);
    const q = parsed.data;
    const row = await findCheck(request.params.id);
    const spanS = (q.to - q.from) / 1000;
    // About 300 points; beyond the raw retention (or from 12 h up) whole hours from the hourly sums.
    let step = q.step ?? Math.max(row.intervalS, Math.ceil(spanS / 300));
    const rawSince = Date.now() - monitoring.settings.checks.retentionHours * 3_600_000;
    if (q.from < rawSince || step >= 3600) step = Math.max(3600, Math.ceil(step / 3600) * 3600);
    if (spanS / step > 11_000) throw badRequest('Too many points: use a larger step (at most 11,000 points)', 'step');
    return { result: await runner.store.history(row.id, q.from, q.to, step) };
  });

  app.get<{ Params: { id: string }; Querystring: Record<string, string> }>('/api/checks/results/:id', { preHandler: requirePermission('read') }, async (request) => {
    const parsed = z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) }).strict().safeParse(request.query);
    if (!parsed.success) throw fromZod(parsed.error);
    const row = await findCheck(request.params.id);
    const results = await runner.store.recent(row.id, parsed.data.limit);
    return { result: row.kind === 'dns' && !mayEdit(request) ? results.map((r) => ({ ...r, error: withoutDnsAnswers(r.error) })) : results };
  });

  app.get<{ Params: { id: string } }>('/api/checks/uptime/:id', { preHandler: requirePermission('read') }, async (request) => {
    const row = await findCheck(request.params.id);
    return { result: (await runner.store.uptime([row.id], Date.now())).get(row.id)! };
  });
}

/**
 * A DNS check's error lists the records it got (TXT values included): shown to the roles that may
 * edit the check, which can point it anywhere anyway; others read that the answer was not the
 * expected one (issue 25 §4).
 */
const mayEdit = (request: FastifyRequest) => !!request.user && can(request.user.role, 'checks.write') && request.apiToken?.scope !== 'read';
const hideDnsAnswers = (c: Check): Check => (c.kind === 'dns' ? { ...c, lastError: withoutDnsAnswers(c.lastError) } : c);

const appliesTo = (field: 'url' | 'host' | 'port' | 'recordType' | 'expectedAnswer' | 'resolver', kind: CheckSettings['kind']) =>
  field === 'url' ? kind === 'http' : field === 'host' ? kind !== 'http' : field === 'port' ? kind === 'tcp' || kind === 'tls' : kind === 'dns';

/** The columns a check's settings are stored in. */
function rowFields(s: CheckSettings) {
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
