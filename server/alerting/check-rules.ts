import { sql } from 'drizzle-orm';
import { withoutDnsAnswers } from '../monitoring/checks/probe';
import { checkRuleNames, type CheckRuleKind } from '../contract/checks';
import type { Db } from '../db/client';
import { alerts } from '../db/schema';
import { oneLine, toMarkdown, type AlertTextDoc, type TextRun } from '../contract/alert-text';
import { chunked, type Transition } from './lifecycle';

/**
 * website_alert rules of checks (issue 16): a check down for its grace period, slower than its
 * threshold for its grace period, or a certificate that expires within N days. The same states as
 * server rules (pending grace periods in the database, one open alert per rule, the same
 * timeline, outbox and delivery), evaluated inside the alert evaluator's tick and transaction
 * (AlertEvaluator.evaluate calls this), so leadership, restarts and wake-ups work alike.
 *
 * A result counts only while fresh: a check that has not run for three intervals (plus its
 * timeout) neither opens nor resolves anything. A paused check opens nothing, and its open alerts
 * resolve ("The check was paused."): nothing would ever clear them.
 */
export interface CheckTickOutcome {
  transitions: Transition[];
  fired: string[];
  resolved: string[];
  /** When the earliest running grace period ends (ms), or null. */
  nextDueMs: number | null;
}

const fresh = (now: Date) => sql`c.last_checked_at >= ${now}::timestamptz - make_interval(secs => c.interval_s * 3 + c.timeout_s)`;

/** Whether rule r of check c holds now (SQL over the aliases c and r). */
const holds = (now: Date) => sql`case r.kind
  when 'down' then c.state = 'down'
  when 'latency' then c.state = 'up' and c.latency_ms > r.threshold
  when 'cert_expiry' then c.cert_expires_at is not null and c.cert_expires_at < ${now}::timestamptz + make_interval(days => r.threshold)
  else false end`;

/** Whether what rule r watches is known to be fine now. */
const clears = (now: Date) => sql`case r.kind
  when 'down' then c.state = 'up'
  when 'latency' then c.state = 'up' and c.latency_ms <= r.threshold
  when 'cert_expiry' then c.cert_expires_at is null or c.cert_expires_at >= ${now}::timestamptz + make_interval(days => r.threshold)
  else false end`;

const held = (s: number) => (s === 0 ? 'at the first result' : s % 60 === 0 ? `for ${s / 60} minute${s === 60 ? '' : 's'}` : `for ${s} seconds`);

type DueCheck = {
  rule_id: string;
  check_id: string;
  kind: CheckRuleKind;
  threshold: number | null;
  time_limit: number;
  severity: 'critical' | 'warning' | 'normal' | 'info';
  notification_group_id: string | null;
  name: string;
  target: string;
  last_error: string | null;
  check_kind: 'http' | 'tcp' | 'dns' | 'tls';
  latency_ms: number | null;
  cert_expires_at: string | Date | null;
  cert_problem: string | null;
};

/**
 * Summary (plain text) and description of the alert a due check rule opens, built as runs like
 * the server rules' (server/contract/alert-text.ts): the operator's name and target and whatever
 * the target answered (errors, certificate problems) are literal text, never markup.
 */
export function describeCheck(c: DueCheck, nowMs: number): { summary: string; description: string; value: number | null } {
  const name = oneLine(c.name);
  const target: TextRun = { text: c.target, code: true };
  switch (c.kind) {
    case 'down': {
      const doc: AlertTextDoc = [[{ text: 'The check of ' }, target, { text: ` has failed ${held(c.time_limit)}.` }]];
      // Every role reads alerts (and channels carry them): a DNS check's records stay on its page.
      const error = c.check_kind === 'dns' ? withoutDnsAnswers(c.last_error) : c.last_error;
      if (error) doc.push([{ text: 'Last error: ' }, { text: error, code: true }]);
      return { value: null, summary: `${name} is down`, description: toMarkdown(doc) };
    }
    case 'latency':
      return {
        value: c.latency_ms,
        summary: `${name} responds slowly`,
        description: toMarkdown([[{ text: 'Response time is ' }, { text: `${Math.round(c.latency_ms ?? 0)} ms`, strong: true }, { text: `, above the ${c.threshold} ms threshold ${held(c.time_limit)}.` }]]),
      };
    case 'cert_expiry': {
      const expires = c.cert_expires_at ? new Date(c.cert_expires_at) : null;
      const days = expires ? (expires.getTime() - nowMs) / 86_400_000 : null;
      const when = expires ? `${expires.toISOString().slice(0, 16).replace('T', ' ')} UTC` : 'an unknown date';
      const doc: AlertTextDoc = [
        [
          { text: 'The TLS certificate of ' },
          target,
          { text: ' expires on ' },
          { text: when, strong: true },
          { text: days !== null && days < 0 ? ' (it has expired).' : `, within the ${c.threshold}-day threshold.` },
        ],
      ];
      if (c.cert_problem) doc.push([{ text: 'Certificate problem: ' }, { text: c.cert_problem, code: true }]);
      return { value: days === null ? null : Math.round(days * 10) / 10, summary: `The certificate of ${name} expires in ${days === null ? '?' : Math.max(0, Math.floor(days))} days`, description: toMarkdown(doc) };
    }
  }
}

/** One pass over the check rules, in the evaluator's transaction (tx) at `at`. */
export async function evaluateCheckRules(tx: Db, at: Date): Promise<CheckTickOutcome> {
  const out: CheckTickOutcome = { transitions: [], fired: [], resolved: [], nextDueMs: null };
  const now = at;

  // 1. Open check alerts whose condition is known to have cleared, or that nothing can clear any more.
  const clearing = await tx.execute<{ id: string; group_id: string | null; reason: string }>(sql`
    select a.id, r.notification_group_id as group_id,
           case when r.id is null then 'The rule was removed.' when not r.enabled then 'The rule was disabled.'
                when c.paused then 'The check was paused.' else 'The condition cleared.' end as reason
    from alerts a
    join checks c on c.id = a.check_id
    left join check_rules r on r.id = a.check_rule_id
    where a.check_id is not null and a.status in ('firing', 'snoozed')
      and (r.id is null or not r.enabled or c.paused or (${fresh(now)} and ${clears(now)}))`);
  if (clearing.rows.length) {
    const byId = new Map(clearing.rows.map((r) => [r.id, r]));
    const resolved = await tx.execute<{ id: string }>(sql`
      update alerts set status = 'resolved', resolved_at = ${now}, updated_at = ${now}, snoozed_until = null
      where id = any(${sql.param(clearing.rows.map((r) => r.id))}::uuid[]) and status in ('firing', 'snoozed')
      returning id`);
    for (const { id } of resolved.rows) {
      const r = byId.get(id)!;
      out.resolved.push(id);
      out.transitions.push({ alertId: id, type: 'resolved', note: r.reason, notify: true, groupId: r.group_id });
    }
  }

  // 2. Grace periods: what holds now, without an open alert, is pending since it was first seen.
  const holding = await tx.execute<{ rule_id: string; check_id: string; time_limit: number }>(sql`
    select r.id as rule_id, r.check_id, r.time_limit
    from check_rules r join checks c on c.id = r.check_id
    where r.enabled and not c.paused and ${fresh(now)} and ${holds(now)}
      and not exists (select 1 from alerts a where a.check_rule_id = r.id and a.status in ('firing', 'snoozed'))`);
  const ids = holding.rows.map((h) => h.rule_id);
  await tx.execute(sql`delete from check_pending where not (rule_id = any(${sql.param(ids)}::uuid[]))`);
  if (!ids.length) return out;
  const pending = await tx.execute<{ rule_id: string; since: string | Date }>(sql`
    with started as (
      insert into check_pending (rule_id, check_id, since)
      select h.rule_id, h.check_id, ${now} from unnest(${sql.param(ids)}::uuid[], ${sql.param(holding.rows.map((h) => h.check_id))}::uuid[]) as h(rule_id, check_id)
      on conflict (rule_id) do nothing
      returning rule_id, since
    )
    select rule_id, since from started
    union all
    select p.rule_id, p.since from check_pending p where p.rule_id = any(${sql.param(ids)}::uuid[])`);
  const limitOf = new Map(holding.rows.map((h) => [h.rule_id, Number(h.time_limit)]));
  const dueIds: string[] = [];
  for (const p of pending.rows) {
    const end = new Date(p.since).getTime() + limitOf.get(p.rule_id)! * 1000;
    if (end <= now.getTime()) dueIds.push(p.rule_id);
    else out.nextDueMs = Math.min(out.nextDueMs ?? Infinity, end);
  }
  if (!dueIds.length) return out;

  // 3. Held for the whole grace period: open the alert.
  const due = await tx.execute<DueCheck>(sql`
    select r.id as rule_id, r.check_id, r.kind, r.threshold, r.time_limit, r.severity, r.notification_group_id,
           c.name, c.target, c.last_error, c.kind as check_kind, c.latency_ms, c.cert_expires_at, c.cert_problem
    from check_rules r join checks c on c.id = r.check_id
    where r.id = any(${sql.param(dueIds)}::uuid[])`);
  for (const part of chunked(due.rows, 500)) {
    const opened = await tx
      .insert(alerts)
      .values(
        part.map((c) => {
          const text = describeCheck(c, now.getTime());
          return {
            checkId: c.check_id,
            checkRuleId: c.rule_id,
            subject: '',
            hostname: c.name,
            instance: c.target,
            alertname: checkRuleNames[c.kind],
            type: 'website_alert',
            severity: c.severity,
            status: 'firing' as const,
            summary: text.summary,
            description: text.description,
            value: text.value,
            createdAt: now,
            updatedAt: now,
          };
        }),
      )
      .onConflictDoNothing()
      .returning({ id: alerts.id, ruleId: alerts.checkRuleId });
    const byRule = new Map(part.map((c) => [c.rule_id, c]));
    for (const o of opened) {
      out.fired.push(o.id);
      out.transitions.push({ alertId: o.id, type: 'firing', note: null, notify: true, groupId: byRule.get(o.ruleId!)!.notification_group_id });
    }
  }
  await tx.execute(sql`delete from check_pending where rule_id = any(${sql.param(due.rows.map((d) => d.rule_id))}::uuid[])`);
  return out;
}
