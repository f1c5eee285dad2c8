import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { backends, startTestApp, type TestApp } from '../../tests/api/harness';
import { AlertEvaluator } from './evaluator';
import type { SweepResult } from './routing';

/**
 * The router's incremental path (issue 14 performance, routing.ts `scope`): when the silences and
 * windows in force change, a tick reads only the open alerts the change can re-mute — those muted
 * by what left (by mute_ref) and those what joined can match (narrowed by its `=` matchers and
 * servers) — and a change of what matchers read (a server's labels) marks that server's alerts due.
 * Each case checks the mute is right and how many open alerts the sweep read to get there, beside
 * a fleet of other firing alerts that a full re-examination would have read.
 */

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
let octet = 0;
const RECEIVER_TOKEN = 'incremental-receiver-token-0123456789';

describe.each(await backends())('incremental routing on $name', (backend) => {
  let t: TestApp;
  let admin: string;
  let T0 = 0;
  let clock = 0;
  let evaluator: AlertEvaluator;
  /** What each tick's sweep returned. */
  let sweeps: SweepResult[] = [];
  const q = <T = Record<string, any>>(text: string, params?: unknown[]) => t.database.query<T>(text, params);

  /** A scrape and a tick at T0 + seconds; returns that tick's sweep. */
  async function step(seconds: number): Promise<SweepResult> {
    clock = T0 + seconds * 1000;
    await q(`update servers set last_scraped_at = $1 where state = 'up'`, [new Date(clock)]);
    sweeps = [];
    await evaluator.tick();
    expect(sweeps).toHaveLength(1);
    return sweeps[0]!;
  }
  /** An up Linux server whose CPU rule (60 s grace) is over its threshold. */
  async function hot(labels: Record<string, string> = {}) {
    const n = ++octet;
    const res = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname: `inc-${n}`, ipaddress: `10.73.${Math.floor(n / 250)}.${(n % 250) + 1}`, operating_system: 'linux', isAgentConfigured: true, labels } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.result._id as string;
    await q(`update servers set state = 'up', cpu_usage = 95, memory_usage = 10, disk_usage = 10, last_scraped_at = $2 where id = $1`, [id, new Date(clock)]);
    await q(`update alert_rules set time_limit = 60 where server_id = $1 and name = 'high_cpu_usage'`, [id]);
    return { id, hostname: `inc-${n}` };
  }
  const muteOf = async (serverId: string) =>
    (await q<{ mute: string | null; mute_label: string | null; mute_ref: string | null }>(`select mute, mute_label, mute_ref from alerts where server_id = $1 and status <> 'resolved'`, [serverId]))[0];
  const mutedCount = async () => (await q<{ n: number }>(`select count(*)::int as n from alerts where status <> 'resolved' and mute is not null`))[0]!.n;
  const silence = async (matchers: object[], comment = 'test') => {
    const res = await t.call('POST', '/api/silences', { cookie: admin, body: { matchers, durationSeconds: 7200, comment } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.result._id as string;
  };

  /** Ten firing alerts of other servers, then the given ones: all open, none muted, every sweep so far done. */
  async function fleet<T>(make: () => Promise<T>): Promise<T> {
    for (let i = 0; i < 10; i++) await hot({ env: 'prod' });
    const made = await make();
    await step(0);
    await step(60);
    expect((await q<{ n: number }>(`select count(*)::int as n from alerts where status = 'firing'`))[0]!.n).toBeGreaterThanOrEqual(10);
    return made;
  }

  beforeAll(async () => {
    t = await startTestApp(backend, { alertmanager: { urls: [], mirrorSilences: false, resendS: 60, pollMs: 1000, runbookUrl: '{publicUrl}/x', publicUrl: 'http://opsdeck.test', receiverToken: RECEIVER_TOKEN } });
    const a = await t.addUser({ role: 'admin', username: 'inc-admin' });
    admin = await t.signIn(a.email, a.password);
  });
  afterAll(async () => {
    await evaluator?.stop();
    await t.close();
  });
  beforeEach(async () => {
    await evaluator?.stop();
    await q('delete from servers');
    await q('delete from silences');
    await q('delete from maintenance_windows');
    T0 = Math.floor(Date.now() / 60_000) * 60_000;
    clock = T0;
    evaluator = new AlertEvaluator(t.database, { enabled: false, evalIntervalS: 15, autoDefaults: false, staleAfterS: 60 }, quiet, () => clock);
    const sweep = evaluator.router.sweep.bind(evaluator.router);
    evaluator.router.sweep = async (...args: Parameters<typeof sweep>) => {
      const r = await sweep(...args);
      if (!args[2]) sweeps.push(r);
      return r;
    };
  });

  it('reads every open alert on its first sweep only; a tick without a change reads none', async () => {
    await hot();
    await hot();
    const first = await step(0);
    expect(first).toMatchObject({ full: true, scanned: 0 });
    const opened = await step(60);
    expect(opened).toMatchObject({ full: false, scanned: 0, looked: 2 });
    expect(await step(75)).toMatchObject({ full: false, scanned: 0, looked: 0 });
    // A new leader (or this one after a failed tick) trusts nothing it held.
    evaluator.router.reset();
    expect(await step(90)).toMatchObject({ full: true, scanned: 2, looked: 0 });
  });

  it('a silence created, edited and expired: only the alerts it concerns are read, and the mute is right each time', async () => {
    const [a, b] = await fleet(async () => [await hot(), await hot()]);
    const id = await silence([{ name: 'hostname', op: '=', value: a.hostname }, { name: 'alertname', op: '=~', value: 'high_.*' }]);
    // Created: narrowed by its `=` matcher to a's alert.
    expect(await step(120)).toMatchObject({ full: false, scanned: 1, looked: 1, muteChanged: 1 });
    expect(await muteOf(a.id)).toEqual({ mute: 'silenced', mute_label: 'Silenced by inc-admin', mute_ref: id });
    expect(await mutedCount()).toBe(1);
    // Edited to match b instead: a is found by its mute_ref, b by the new matcher.
    const edit = await t.call('PATCH', `/api/silences/${id}`, { cookie: admin, body: { matchers: [{ name: 'hostname', op: '=', value: b.hostname }] } });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(await step(135)).toMatchObject({ full: false, scanned: 2, looked: 2, muteChanged: 2 });
    expect((await muteOf(a.id))!.mute).toBeNull();
    expect(await muteOf(b.id)).toEqual({ mute: 'silenced', mute_label: 'Silenced by inc-admin', mute_ref: id });
    // Expired: b alone, by its mute_ref.
    expect((await t.call('POST', `/api/silences/${id}/expire`, { cookie: admin })).status).toBe(200);
    expect(await step(150)).toMatchObject({ full: false, scanned: 1, looked: 1, muteChanged: 1 });
    expect(await mutedCount()).toBe(0);
  });

  it('a silence that ends hands its alerts to another that still matches them, and one with only regexes is matched against every open alert', async () => {
    const a = await fleet(() => hot({ env: 'staging', team: 'db' }));
    const older = await silence([{ name: 'label.env', op: '=', value: 'staging' }], 'older');
    await step(120);
    expect((await muteOf(a.id))!.mute_ref).toBe(older);
    // A younger silence matching a too: the older one keeps it (the first in force wins).
    const younger = await silence([{ name: 'label.team', op: '=', value: 'db' }], 'younger');
    expect(await step(135)).toMatchObject({ full: false, scanned: 1, looked: 0 });
    expect((await muteOf(a.id))!.mute_ref).toBe(older);
    await t.call('POST', `/api/silences/${older}/expire`, { cookie: admin });
    expect(await step(150)).toMatchObject({ full: false, scanned: 1, looked: 1, muteChanged: 1 });
    expect((await muteOf(a.id))!.mute_ref).toBe(younger);
    const notes = await q<{ note: string }>(`select e.note from alert_events e join alerts a on a.id = e.alert_id where a.server_id = $1 and e.type = 'playbook_action' order by e.at`, [a.id]);
    expect(notes.map((n) => n.note)).toEqual([expect.stringMatching(/\(“older”\): nobody is notified\.$/), expect.stringMatching(/\(“younger”\): nobody is notified\.$/)]);
    // Nothing in SQL can narrow a regex: every open alert is read, and the fleet muted.
    const all = await silence([{ name: 'hostname', op: '=~', value: 'inc-.*' }]);
    const wide = await step(165);
    expect(wide.full).toBe(true);
    expect(wide.scanned).toBeGreaterThanOrEqual(11);
    expect(await mutedCount()).toBe(wide.scanned);
    expect((await muteOf(a.id))!.mute_ref).toBe(younger);
    expect(all).toBeTruthy();
  });

  it('a window starting and ending reads only its servers’ alerts; a recurring one by label only the alerts with that label', async () => {
    const [a, b] = await fleet(async () => [await hot(), await hot({ env: 'staging' })]);
    const one = await t.call('POST', '/api/maintenance-windows', { cookie: admin, body: { name: 'Swap disk', serverIds: [a.id], startsAt: new Date(T0 + 300_000).toISOString(), endsAt: new Date(T0 + 600_000).toISOString() } });
    expect(one.status, JSON.stringify(one.body)).toBe(201);
    // Every day from T0 + 400 s for 100 s, for servers labelled staging.
    const daily = await t.call('POST', '/api/maintenance-windows', {
      cookie: admin,
      body: { name: 'Nightly', matchers: [{ name: 'label.env', op: '=', value: 'staging' }], startsAt: new Date(T0 - 86_400_000 + 400_000).toISOString(), endsAt: new Date(T0 - 86_400_000 + 500_000).toISOString(), rrule: 'FREQ=DAILY' },
    });
    expect(daily.status, JSON.stringify(daily.body)).toBe(201);
    // Created but not in force yet: nothing read.
    expect(await step(120)).toMatchObject({ scanned: 0, looked: 0 });
    expect(await step(300)).toMatchObject({ full: false, scanned: 1, muteChanged: 1 });
    expect(await muteOf(a.id)).toMatchObject({ mute: 'maintenance', mute_label: 'In maintenance: Swap disk' });
    expect(await step(400)).toMatchObject({ full: false, scanned: 1, muteChanged: 1 });
    expect(await muteOf(b.id)).toMatchObject({ mute: 'maintenance', mute_label: 'In maintenance: Nightly' });
    expect(await step(500)).toMatchObject({ full: false, scanned: 1, muteChanged: 1 });
    expect((await muteOf(b.id))!.mute).toBeNull();
    expect(await step(600)).toMatchObject({ full: false, scanned: 1, muteChanged: 1 });
    expect(await mutedCount()).toBe(0);
    // The next day's occurrence mutes b again.
    expect(await step(86_400 + 400)).toMatchObject({ full: false, scanned: 1, muteChanged: 1 });
    expect((await muteOf(b.id))!.mute_label).toBe('In maintenance: Nightly');
  });

  it('an alert whose server labels change is muted or unmuted at the next tick, with no change of the silences and no scan', async () => {
    const a = await fleet(() => hot({ env: 'prod' }));
    await silence([{ name: 'label.env', op: '=', value: 'staging' }]);
    expect(await step(120)).toMatchObject({ full: false, scanned: 0 });
    expect((await muteOf(a.id))!.mute).toBeNull();
    const relabel = (labels: Record<string, string>) => t.call('PATCH', `/api/servers/${a.id}`, { cookie: admin, body: { labels } });
    expect((await relabel({ env: 'staging' })).status).toBe(200);
    expect(await step(135)).toMatchObject({ full: false, scanned: 0, looked: 1, muteChanged: 1 });
    expect((await muteOf(a.id))!.mute).toBe('silenced');
    expect((await relabel({ env: 'prod', team: 'web' })).status).toBe(200);
    expect(await step(150)).toMatchObject({ full: false, scanned: 0, looked: 1, muteChanged: 1 });
    expect((await muteOf(a.id))!.mute).toBeNull();
    // Other edits of the server leave its alerts alone.
    expect((await t.call('PATCH', `/api/servers/${a.id}`, { cookie: admin, body: { hostname: 'renamed' } })).status).toBe(200);
    expect(await step(165)).toMatchObject({ scanned: 0, looked: 0 });
  });

  it('an alert received from Alertmanager is muted by a silence in force when it opens, and follows a change of its name', async () => {
    await fleet(async () => undefined);
    const id = await silence([{ name: 'alertname', op: '=', value: 'DiskWillFill' }]);
    expect(await step(120)).toMatchObject({ full: false, scanned: 0 });
    const receive = (alertname: string) =>
      t.call('POST', '/api/integrations/alertmanager', {
        headers: { 'x-requested-with': '', authorization: `Bearer ${RECEIVER_TOKEN}` },
        body: {
          version: '4', groupKey: '{}', truncatedAlerts: 0, status: 'firing', receiver: 'opsdeck', groupLabels: {}, commonLabels: {}, commonAnnotations: {}, externalURL: 'http://alertmanager:9093',
          alerts: [{ status: 'firing', labels: { alertname, severity: 'warning', instance: 'nowhere:9100' }, annotations: { summary: 'Disk' }, startsAt: '2026-11-25T03:00:00Z', endsAt: '0001-01-01T00:00:00Z', generatorURL: 'http://prometheus:9090/graph', fingerprint: 'incremental-fp' }],
        },
      });
    const received = async () => (await q<{ mute: string | null; mute_ref: string | null }>(`select mute, mute_ref from alerts where fingerprint = 'incremental-fp' and status <> 'resolved'`))[0];
    expect((await receive('DiskWillFill')).status).toBe(200);
    // No change of the silences: the received alert is due, and its look mutes it.
    expect(await step(300)).toMatchObject({ full: false, scanned: 0, muteChanged: 1 });
    expect(await received()).toEqual({ mute: 'silenced', mute_ref: id });
    // Alertmanager renames it: the silence no longer matches.
    expect((await receive('DiskFull')).status).toBe(200);
    expect(await step(400)).toMatchObject({ full: false, scanned: 0, muteChanged: 1 });
    expect((await received())!.mute).toBeNull();
  });
});
