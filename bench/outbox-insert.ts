/**
 * The tick's outbox and timeline-event inserts as drizzle's multi-row VALUES (before) and as one
 * `insert … select from unnest(arrays)` (server/alerting/lifecycle.ts insertOutbox/insertEvents, which
 * keep the VALUES below 4 rows, so their 1-row figure is the VALUES one), on PGlite,
 * alternated in one process so machine load falls on both alike. CPU of this process per insert
 * (PGlite runs in it), rolled back each time. Rows as the router queues repeats: an alert, a group,
 * a reason.
 *
 *   npx tsx bench/outbox-insert.ts
 */
import { randomUUID } from 'node:crypto';
import { alertEvents, alertOutbox } from '../server/db/schema';
import { insertEvents, insertOutbox } from '../server/alerting/lifecycle';
import type { Db } from '../server/db/client';
import { backends } from '../tests/api/harness';
import { machineLoad } from './lib/options';

const REPS = 40;
const backend = (await backends()).find((b) => b.name === 'pglite')!;
const { database, drop } = await backend.open();
try {
  await database.query(`insert into servers (hostname, ipaddress, operating_system) select 'ob-' || g, '10.70.0.' || g, 'linux' from generate_series(1, 200) g`);
  await database.query(
    `insert into alerts (server_id, subject, hostname, instance, alertname, type, severity, status, summary) select id, '', hostname, ipaddress, 'high_cpu_usage', 'resouce_alert', 'warning', 'firing', 'x' from servers`,
  );
  const [group] = await database.query<{ id: string }>(`insert into notification_groups (name, email_list) values ('ob', '{ob@example.com}') returning id`);
  const ids = (await database.query<{ id: string }>('select id from alerts')).map((r) => r.id);
  const at = new Date();
  const cpu = async (fn: (tx: Db) => Promise<unknown>) => {
    let used = 0;
    await database.db
      .transaction(async (tx) => {
        const c = process.cpuUsage();
        await fn(tx as unknown as Db);
        const u = process.cpuUsage(c);
        used = (u.user + u.system) / 1000;
        throw new Error('rollback');
      })
      .catch((e: Error) => {
        if (e.message !== 'rollback') throw e;
      });
    return used;
  };
  console.log(`Outbox insert on PGlite, ${REPS} alternated runs each, CPU ms per insert (median / p90); ${machineLoad()}`);
  const med = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(2);
  const p90 = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!.toFixed(2);
  for (const n of [1, 5, 20, 50, 100]) {
    const rows = ids.slice(0, n).map((alertId) => ({ alertId, transition: 'repeat' as const, groupId: group!.id, reason: 'Still firing after 1h, and nobody has acknowledged it.' }));
    const values: number[] = [];
    const unnest: number[] = [];
    for (let i = 0; i < REPS + 5; i++) {
      const v = await cpu((tx) => tx.insert(alertOutbox).values(rows.map((q) => ({ alertId: q.alertId, eventId: null, transition: q.transition, notificationGroupId: q.groupId, userIds: [], step: null, reason: q.reason, createdAt: at }))));
      const u = await cpu((tx) => insertOutbox(tx, at, rows));
      if (i >= 5) {
        values.push(v);
        unnest.push(u);
      }
    }
    console.log(`  outbox ${String(n).padStart(3)} rows: VALUES ${med(values)} / ${p90(values)} ms; unnest ${med(unnest)} / ${p90(unnest)} ms`);
  }
  // Timeline events (transitions' and the router's mute notes): usually a few a tick.
  for (const n of [1, 5, 20, 50]) {
    const rows = () => ids.slice(0, n).map((alertId) => ({ id: randomUUID(), alertId, type: 'playbook_action' as const, note: 'Silenced by bench until 2026-06-02 00:00 UTC (“bench silence”): nobody is notified.' }));
    const values: number[] = [];
    const unnest: number[] = [];
    for (let i = 0; i < REPS + 5; i++) {
      const v = await cpu((tx) => tx.insert(alertEvents).values(rows().map((e) => ({ ...e, at }))));
      const u = await cpu((tx) => insertEvents(tx, at, rows()));
      if (i >= 5) {
        values.push(v);
        unnest.push(u);
      }
    }
    console.log(`  events ${String(n).padStart(3)} rows: VALUES ${med(values)} / ${p90(values)} ms; unnest ${med(unnest)} / ${p90(unnest)} ms`);
  }
} finally {
  await drop();
}
