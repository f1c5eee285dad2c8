import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { alertEvents } from '../db/schema';
import type { Transition } from './lifecycle';
import { queueOutbox, shortDuration } from './routing';

/**
 * The flap detector (issue 14 §5): for rules that have one (N transitions within M seconds), each
 * firing or resolved transition of a rule and subject is remembered for M seconds. The transition
 * that makes N starts "flapping": one `flapping` message instead of its own, then quiet (the
 * router mutes the rule and subject's alerts) until no transition came for M seconds.
 *
 * Returns the alerts whose transition happened while flapping (the caller sends none of them).
 */
export async function recordFlaps(tx: Db, at: Date, transitions: readonly Transition[]): Promise<Set<string>> {
  const moved = transitions.filter((t) => t.type === 'firing' || t.type === 'resolved');
  const flapping = new Set<string>();
  if (!moved.length) return flapping;
  const rows = (
    await tx.execute<{ alert_id: string; rule_id: string; subject: string; server_id: string; n: number; w: number; transitions: (string | Date)[] | string | null; flapping_since: string | Date | null; group_id: string | null }>(sql`
      select a.id as alert_id, a.rule_id, a.subject, a.server_id, r.flap_transitions as n, r.flap_window_seconds as w, r.notification_group_id as group_id,
             f.transitions, f.flapping_since
      from alerts a
      join alert_rules r on r.id = a.rule_id
      left join alert_flaps f on f.rule_id = a.rule_id and f.subject = a.subject
      where a.id = any(${sql.param(moved.map((t) => t.alertId))}::uuid[]) and r.flap_transitions is not null and r.flap_window_seconds is not null`)
  ).rows;
  if (!rows.length) return flapping;
  const t = at.getTime();
  const upserts: { ruleId: string; subject: string; serverId: string; times: string[]; since: string | null }[] = [];
  const tipped: { alertId: string; groupId: string | null; n: number; w: number }[] = [];
  for (const r of rows) {
    const list = typeof r.transitions === 'string' ? r.transitions.replace(/[{}"]/g, '').split(',').filter(Boolean) : (r.transitions ?? []);
    const kept = list.map((x) => new Date(x).getTime()).filter((x) => x > t - r.w * 1000);
    const wasFlapping = r.flapping_since !== null && kept.length > 0;
    kept.push(t);
    let since = wasFlapping ? new Date(r.flapping_since!).toISOString() : null;
    if (wasFlapping) flapping.add(r.alert_id);
    else if (kept.length >= r.n) {
      since = at.toISOString();
      flapping.add(r.alert_id);
      tipped.push({ alertId: r.alert_id, groupId: r.group_id, n: kept.length, w: r.w });
    }
    upserts.push({ ruleId: r.rule_id, subject: r.subject, serverId: r.server_id, times: kept.map((x) => new Date(x).toISOString()), since });
  }
  await tx.execute(sql`
    insert into alert_flaps (rule_id, subject, server_id, transitions, flapping_since)
    select u.rule_id, u.subject, u.server_id, array(select jsonb_array_elements_text(u.times)::timestamptz), u.since
    from unnest(${sql.param(upserts.map((u) => u.ruleId))}::uuid[], ${sql.param(upserts.map((u) => u.subject))}::text[], ${sql.param(upserts.map((u) => u.serverId))}::uuid[],
                ${sql.param(upserts.map((u) => JSON.stringify(u.times)))}::jsonb[], ${sql.param(upserts.map((u) => u.since))}::timestamptz[]) as u(rule_id, subject, server_id, times, since)
    on conflict (rule_id, subject) do update set transitions = excluded.transitions, flapping_since = excluded.flapping_since, server_id = excluded.server_id`);
  if (tipped.length) {
    await tx.insert(alertEvents).values(
      tipped.map((f) => ({ id: randomUUID(), alertId: f.alertId, type: 'playbook_action' as const, at, note: `Flapping: ${f.n} changes within ${shortDuration(f.w)}. One message now; then quiet until it is stable for ${shortDuration(f.w)}.` })),
    );
    await queueOutbox(tx, at, tipped.map((f) => ({ alertId: f.alertId, transition: 'flapping' as const, groupId: f.groupId, reason: `${f.n} changes within ${shortDuration(f.w)}: notifications pause until it is stable for ${shortDuration(f.w)}.` })));
    // Its open alert (if the change was a firing) is muted by the router in the same transaction.
    await tx.execute(sql`update alerts set next_action_at = ${at.toISOString()}::timestamptz where id = any(${sql.param(tipped.map((f) => f.alertId))}::uuid[]) and status <> 'resolved'`);
  }
  return flapping;
}
