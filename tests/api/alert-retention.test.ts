import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertDeliveries, alertEvents, alertOutbox, alerts } from '../../server/db/schema';
import { pruneAlerts } from '../../server/alerting/retention';
import { backends, startTestApp, type TestApp } from './harness';

const DAY = 86_400_000;
const NOW = Date.now();
const ago = (days: number) => new Date(NOW - days * DAY);

/**
 * Issue 17 §5: resolved alerts older than ALERT_RETENTION_DAYS go, with their timelines, outbox
 * and delivery rows, a few per statement; the list's counts (alert_counts, kept by triggers)
 * stay exact; open alerts stay however old; the incident report says when a window reaches back
 * past the limit.
 */
describe.each(await backends())('alert retention on $name', (backend) => {
  let t: TestApp;
  let admin: string;
  let web: { _id: string; hostname: string; ipaddress: string };
  let db1: { _id: string; hostname: string; ipaddress: string };
  const ids: Record<string, string> = {};

  const server = async (hostname: string, ipaddress: string) => {
    const res = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname, ipaddress, operating_system: 'linux' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.result as { _id: string; hostname: string; ipaddress: string };
  };
  const alert = async (key: string, s: typeof web, alertname: string, createdDaysAgo: number, resolvedDaysAgo: number | null, status?: 'firing' | 'snoozed') => {
    const [row] = await t.database.db
      .insert(alerts)
      .values({
        serverId: s._id,
        hostname: s.hostname,
        instance: s.ipaddress,
        alertname,
        summary: `${alertname} on ${s.hostname}`,
        type: 'resouce_alert',
        severity: 'critical',
        status: status ?? (resolvedDaysAgo === null ? 'firing' : 'resolved'),
        createdAt: ago(createdDaysAgo),
        updatedAt: ago(resolvedDaysAgo ?? createdDaysAgo),
        resolvedAt: resolvedDaysAgo === null ? null : ago(resolvedDaysAgo),
      })
      .returning();
    ids[key] = row!.id;
    const events = await t.database.db
      .insert(alertEvents)
      .values([{ alertId: row!.id, type: 'firing' as const, at: ago(createdDaysAgo) }, ...(resolvedDaysAgo === null ? [] : [{ alertId: row!.id, type: 'resolved' as const, at: ago(resolvedDaysAgo) }])])
      .returning();
    const [outbox] = await t.database.db.insert(alertOutbox).values({ alertId: row!.id, eventId: events[0]!.id, transition: 'firing', processedAt: ago(createdDaysAgo) }).returning();
    await t.database.db.insert(alertDeliveries).values({ outboxId: outbox!.id, alertId: row!.id, transition: 'firing', channel: 'email', target: 'ops@example.com', attempt: 1, outcome: 'sent', at: ago(createdDaysAgo) });
  };
  const list = (filter: Record<string, unknown>) => {
    const { search, ...rest } = filter;
    return t.call('POST', '/api/alerts/all', { cookie: admin, body: { filter: rest, ...(search ? { search } : {}) } });
  };
  const exact = async (where: string) => Number((await t.database.query<{ n: number }>(`select count(*)::int as n from alerts where ${where}`))[0]!.n);
  /** Every total the counts table answers, checked against counting the alerts themselves. */
  const checkCounts = async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'true'],
      [{ status: 'resolved' }, `status = 'resolved'`],
      [{ status: ['firing', 'snoozed'] }, `status in ('firing', 'snoozed')`],
      [{ hostname: 'ret-web-01' }, `hostname = 'ret-web-01'`],
      [{ hostname: { contains: 'RET-' }, status: 'resolved' }, `hostname_lc like '%ret-%' and status = 'resolved'`],
      [{ search: 'disk_full' }, `search_lc like '%disk_full%'`],
      [{ search: 'cpu', status: 'resolved' }, `search_lc like '%cpu%' and status = 'resolved'`],
    ];
    for (const [filter, where] of cases) expect((await list(filter)).body.result.count, JSON.stringify(filter)).toBe(await exact(where));
    // And key by key: what alert_counts holds is exactly what the alerts are.
    const held = await t.database.query<{ hostname: string; status: string; search_lc: string; n: number }>(
      `select hostname, status, search_lc, sum(n)::int as n from alert_counts group by 1, 2, 3 having sum(n) <> 0 order by 1, 2, 3`,
    );
    const real = await t.database.query<{ hostname: string; status: string; search_lc: string; n: number }>(
      `select hostname, status, search_lc, count(*)::int as n from alerts group by 1, 2, 3 order by 1, 2, 3`,
    );
    expect(held).toEqual(real);
  };

  beforeAll(async () => {
    t = await startTestApp(backend, { alertRetention: { days: 400, batchSize: 2, pauseMs: 0, everyMinutes: 60 } });
    const u = await t.addUser({ role: 'admin', username: 'admin-retention' });
    admin = await t.signIn(u.email, u.password);
    web = await server('ret-web-01', '10.78.0.1');
    db1 = await server('ret-db-01', '10.78.0.2');
    // Old and resolved: deleted (five, so batches of two take three statements).
    await alert('old1', web, 'disk_full', 520, 519);
    await alert('old2', web, 'disk_full', 480, 470);
    await alert('old3', web, 'high_cpu_usage', 450, 449);
    await alert('old4', db1, 'high_cpu_usage', 700, 401);
    await alert('old5', db1, 'disk_full', 900, 899);
    // Kept: fired long ago but resolved inside the limit; open however old; recent.
    await alert('lateResolve', web, 'disk_full', 500, 399);
    await alert('oldFiring', web, 'disk_full', 600, null);
    await alert('oldSnoozed', db1, 'high_cpu_usage', 600, null, 'snoozed');
    await alert('recent', db1, 'high_cpu_usage', 3, 2);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('deletes resolved alerts older than the limit in batches, with their events, outbox and deliveries; the counts stay exact', async () => {
    await checkCounts();
    expect(await t.count('alerts')).toBe(9);

    const vacuums = async () =>
      Object.fromEntries(
        (await t.database.query<{ relname: string; n: number }>(`select relname, vacuum_count::int as n from pg_stat_user_tables where relname in ('alerts', 'alert_events', 'alert_outbox', 'alert_deliveries')`)).map((r) => [r.relname, Number(r.n)]),
      );
    const before = await vacuums();
    const outcome = await t.app.alertRetention.runOnce();
    expect(outcome).toMatchObject({ removed: 5, batches: 3 });
    // PGlite has no autovacuum: the pass vacuums the tables it deleted from, so their space is
    // reused; PostgreSQL's autovacuum does that there.
    const after = await vacuums();
    for (const table of ['alerts', 'alert_events', 'alert_outbox', 'alert_deliveries']) {
      expect(after[table]! - before[table]!, table).toBe(backend.name === 'pglite' ? 1 : 0);
    }
    expect(outcome.vacuumMs !== undefined).toBe(backend.name === 'pglite');

    const left = (await t.database.query<{ id: string }>('select id from alerts')).map((r) => r.id).sort();
    expect(left).toEqual([ids.lateResolve, ids.oldFiring, ids.oldSnoozed, ids.recent].sort());
    const gone = ['old1', 'old2', 'old3', 'old4', 'old5'].map((k) => `'${ids[k]}'`).join(', ');
    for (const table of ['alert_events', 'alert_outbox', 'alert_deliveries']) {
      expect(Number((await t.database.query<{ n: number }>(`select count(*)::int as n from ${table} where alert_id in (${gone})`))[0]!.n), table).toBe(0);
    }
    // The kept alerts' timelines are whole (the old firing alert's 600-day-old event too).
    expect(await t.count('alert_events')).toBe(2 + 1 + 1 + 2);
    expect(await t.count('alert_outbox')).toBe(4);
    expect(await t.count('alert_deliveries')).toBe(4);
    await checkCounts();

    // The API shows what is left: the list's total and one search.
    expect((await list({})).body.result.count).toBe(4);
    expect((await list({ search: 'disk_full', status: 'resolved' })).body.result.count).toBe(1);

    // A second pass finds nothing; the counts survive the evaluator's compaction too.
    expect((await t.app.alertRetention.runOnce()).removed).toBe(0);
    await t.database.query(`
      with keys as (select hostname, status, search_lc from alert_counts group by 1, 2, 3 having count(*) > 1),
      gone as (delete from alert_counts c using keys k where c.hostname = k.hostname and c.status = k.status and c.search_lc = k.search_lc returning c.hostname, c.status, c.search_lc, c.n)
      insert into alert_counts (hostname, status, search_lc, n) select hostname, status, search_lc, sum(n) from gone group by 1, 2, 3 having sum(n) <> 0`);
    await checkCounts();
  });

  it('keeps everything when the setting is 0, and stops between batches when asked', async () => {
    await alert('old6', web, 'disk_full', 800, 800);
    await alert('old7', web, 'disk_full', 800, 800);
    await alert('old8', web, 'disk_full', 800, 800);
    expect(await pruneAlerts(t.database, { days: 0, batchSize: 2, pauseMs: 0 })).toMatchObject({ removed: 0 });
    let asked = 0;
    const stopped = await pruneAlerts(t.database, { days: 400, batchSize: 1, pauseMs: 0 }, { shouldStop: () => ++asked > 1 });
    expect(stopped).toMatchObject({ removed: 1, batches: 1 });
    // The rest goes on the next pass.
    expect(await pruneAlerts(t.database, { days: 400, batchSize: 100, pauseMs: 0 })).toMatchObject({ removed: 2, batches: 1 });
    await checkCounts();
  });

  it('the incident report says when its window reaches back past the limit', async () => {
    const report = (fromDays: number, toDays: number) =>
      t.call('GET', `/api/incident-report?${new URLSearchParams({ from: ago(fromDays).toISOString(), to: ago(toDays).toISOString() })}`, { cookie: admin });
    const old = await report(410, 405);
    expect(old.status).toBe(200);
    expect(old.body.result.markdown).toContain('_Alerts are kept for 400 days after they resolve: alerts resolved before ');
    expect(old.body.result.markdown).toContain('have been deleted, so this window may miss some._');
    // What is left of that window: the alert that resolved inside the limit and the open ones
    // (the one resolved 401 days ago, open during the window too, is gone).
    expect(old.body.result.alerts).toBe(3);
    const recent = await report(4, 1);
    expect(recent.status).toBe(200);
    expect(recent.body.result.markdown).not.toContain('Alerts are kept for');
    // The recent alert and the two still open.
    expect(recent.body.result.alerts).toBe(3);
  });
});
