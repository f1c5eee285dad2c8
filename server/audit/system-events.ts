import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/**
 * What Opsdeck itself did to an alert, in History beside people's runs (issue 24 §4): an alert
 * fired or resolved by the evaluator, a notification delivered, escalated, skipped or failed.
 * One server record each (`actorKind: system`, "Opsdeck"), naming the alert as it was then and
 * found by its server or check too (the one-server report), written in the transaction of the
 * change. A person's change of an alert is their run's record: it is not written again here, so a
 * command and the alert event it caused are one entry.
 */
export type SystemEventCommand = 'alert.fired' | 'alert.resolved' | 'alert.delivered' | 'alert.escalated' | 'alert.delivery-failed' | 'alert.delivery-skipped';
export const systemEventCommands: readonly SystemEventCommand[] = ['alert.fired', 'alert.resolved', 'alert.delivered', 'alert.escalated', 'alert.delivery-failed', 'alert.delivery-skipped'];

export interface SystemEvent {
  alertId: string;
  command: SystemEventCommand;
  /** What a person reads after the alert's name: "via email to ops@example.com (firing notification)". */
  detail?: string | null;
  error?: string | null;
}

export async function appendSystemEvents(tx: Db, at: Date, events: readonly SystemEvent[]): Promise<void> {
  if (!events.length) return;
  await tx.execute(sql`
    insert into command_history (origin, actor_kind, username, command, input, source, outcome, error, duration_ms, targets, target_ids, created_at)
    select 'server', 'system', 'Opsdeck', x.command, case when x.detail is null then null else jsonb_build_object('detail', x.detail) end, 'system',
      case when x.command = 'alert.delivery-failed' then 'error' else 'ok' end, x.error, 0,
      jsonb_build_array(jsonb_build_object('kind', 'alert', 'id', a.id::text, 'name', a.alertname || ' @ ' || a.hostname)),
      array_remove(array[a.id, a.server_id, a.check_id], null), ${at.toISOString()}::timestamptz
    from unnest(
      ${sql.param(events.map((e) => e.alertId))}::uuid[], ${sql.param(events.map((e) => e.command))}::text[],
      ${sql.param(events.map((e) => e.detail ?? null))}::text[], ${sql.param(events.map((e) => e.error ?? null))}::text[]
    ) with ordinality as x(alert_id, command, detail, error, n)
    join alerts a on a.id = x.alert_id
    order by x.n`);
}
