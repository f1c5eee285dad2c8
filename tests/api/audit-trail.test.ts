import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneHistory } from '../../server/audit/retention';
import { alerts, commandHistory } from '../../server/db/schema';
import type { CommandHistoryEntry } from '../../server/contract/command-history';
import { keyFromText, SecretBox } from '../../server/channels/secret-box';
import { testConfig } from '../../server/config';
import { PageActionSigner } from '../../server/page-actions/token';
import { backends, startTestApp, type TestApp } from './harness';

/**
 * The server-written audit trail (issue 11 §2): every mutating call leaves exactly one record,
 * with who, what (targets by name as they were), outcome, request id and the browser's run
 * headers; refused calls too; the browser cannot forge one; the table is append-only.
 */
describe.each(await backends())('audit trail on $name', (backend) => {
  let t: TestApp;
  let admin: { _id: string; cookie: string; username: string };
  let sysadmin: { _id: string; cookie: string; username: string };
  let user: { _id: string; cookie: string; username: string };
  const covered = new Set<string>();
  let ip = 0;

  const serverCount = async () => Number((await t.database.query<{ n: number }>(`select count(*)::int as n from command_history where origin = 'server'`))[0]!.n);

  /**
   * Makes one call and returns the one server record it left (read back through the API by the
   * id the response names), after checking it left exactly one.
   */
  async function recorded(route: string, method: string, url: string, options: Parameters<TestApp['call']>[2] = {}) {
    covered.add(`${method} ${route}`);
    const before = await serverCount();
    const res = await t.call(method as never, url, options);
    expect(await serverCount(), `${method} ${url} → ${res.status} ${JSON.stringify(res.body)}`).toBe(before + 1);
    const id = res.headers['x-opsdeck-record'] as string;
    expect(id, `${method} ${url} names its record`).toMatch(/^[0-9a-f-]{36}$/);
    const rec = await t.call('GET', `/api/command-history/${id}`, { cookie: admin.cookie });
    return { res, rec: rec.body.result as CommandHistoryEntry };
  }
  const person = async (role: 'admin' | 'sysadmin' | 'user', username: string) => {
    const u = await t.addUser({ role, username });
    return { _id: u._id, username, cookie: await t.signIn(u.email, u.password) };
  };
  const newServer = async (hostname: string, extra: Record<string, unknown> = {}) => {
    const res = await t.call('POST', '/api/servers', { cookie: admin.cookie, body: { hostname, ipaddress: `10.91.0.${++ip}`, operating_system: 'linux', ...extra } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.result as { _id: string; hostname: string };
  };
  const run = (command: string, line: string, source = 'palette') => ({ 'x-opsdeck-command': command, 'x-opsdeck-command-line': encodeURIComponent(line), 'x-opsdeck-source': source, 'x-opsdeck-run': '6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f' });

  beforeAll(async () => {
    t = await startTestApp(backend, { delivery: { ...testConfig().delivery, slackSigningSecret: 'audit-slack-signing-secret' } });
    admin = await person('admin', 'audit-admin');
    sysadmin = await person('sysadmin', 'audit-sys');
    user = await person('user', 'audit-user');
  });
  afterAll(async () => t.close());

  it('records a change with who, what by name, the run headers, the request id, in the same transaction', async () => {
    const s = await newServer('web-audit-1');
    const { res, rec } = await recorded('/api/servers/:id', 'PATCH', `/api/servers/${s._id}`, {
      cookie: sysadmin.cookie,
      body: { suppressAlarm: 'yes' },
      headers: run('server.toggle-maintenance', 'server.toggle-maintenance --server web-audit-1 --mode on'),
    });
    expect(res.status).toBe(200);
    expect(rec).toMatchObject({
      origin: 'server',
      actorKind: 'user',
      userId: sysadmin._id,
      username: 'audit-sys',
      role: 'sysadmin',
      command: 'server.toggle-maintenance',
      commandLine: 'server.toggle-maintenance --server web-audit-1 --mode on',
      source: 'palette',
      outcome: 'ok',
      error: null,
      method: 'PATCH',
      route: '/api/servers/:id',
      targets: [{ kind: 'server', id: s._id, name: 'web-audit-1' }],
      requestBody: { suppressAlarm: 'yes' },
      runId: '6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f',
    });
    expect(rec.requestId).toMatch(/^[0-9a-f-]{36}$/);

    // Same transaction: when the record cannot be written, the change is not made either.
    await t.database.query(`create function refuse_record() returns trigger language plpgsql as $$ begin if new.command = 'test.fail-record' and new.outcome = 'ok' then raise exception 'no'; end if; return new; end $$`);
    await t.database.query(`create trigger refuse_record before insert on command_history for each row execute function refuse_record()`);
    try {
      const failed = await t.call('PATCH', `/api/servers/${s._id}`, { cookie: sysadmin.cookie, body: { hostname: 'renamed' }, headers: { 'x-opsdeck-command': 'test.fail-record' } });
      expect(failed.status).toBe(500);
      expect((await t.call('GET', `/api/servers/${s._id}`, { cookie: admin.cookie })).body.result.hostname).toBe('web-audit-1');
      const [last] = await t.database.query<{ outcome: string; status: number }>(`select outcome, status from command_history where command = 'test.fail-record'`);
      expect(last).toMatchObject({ outcome: 'error', status: 500 });
    } finally {
      await t.database.query(`drop trigger refuse_record on command_history`);
    }
  });

  it('records refused and failed calls with their outcome, and without the change', async () => {
    const s = await newServer('web-audit-2');
    const refused = await recorded('/api/servers/:id', 'DELETE', `/api/servers/${s._id}`, { cookie: user.cookie });
    expect(refused.res.status).toBe(403);
    expect(refused.rec).toMatchObject({ username: 'audit-user', role: 'user', outcome: 'refused', status: 403, route: '/api/servers/:id', error: expect.stringMatching(/Only Admin or sysadmin/) });
    const bad = await recorded('/api/servers/:id', 'PATCH', `/api/servers/${s._id}`, { cookie: admin.cookie, body: { suppressAlarm: 'maybe' } });
    expect(bad.res.status).toBe(400);
    expect(bad.rec).toMatchObject({ outcome: 'error', status: 400, targets: [{ kind: 'server', id: s._id, name: 'web-audit-2' }] });
    const missing = await recorded('/api/servers/:id', 'DELETE', '/api/servers/00000000-0000-4000-8000-000000000000', { cookie: admin.cookie });
    expect(missing.rec).toMatchObject({ outcome: 'error', status: 404 });
    expect((await t.call('GET', `/api/servers/${s._id}`, { cookie: admin.cookie })).body.result.suppressAlarm).toBe('no');
    // A bad run header is a 400 naming it, recorded as such.
    const header = await recorded('/api/servers/:id', 'PATCH', `/api/servers/${s._id}`, { cookie: admin.cookie, body: { suppressAlarm: 'yes' }, headers: { 'x-opsdeck-source': 'fax' } });
    expect(header.res.body).toMatchObject({ statusCode: 400, field: 'x-opsdeck-source' });
    expect((await t.call('GET', `/api/servers/${s._id}`, { cookie: admin.cookie })).body.result.suppressAlarm).toBe('no');
    // Nobody to name (no session): nothing changed and nothing recorded.
    const before = await serverCount();
    expect((await t.call('DELETE', `/api/servers/${s._id}`)).status).toBe(401);
    expect(await serverCount()).toBe(before);
  });

  it('every mutating route family leaves one record naming its targets as they were', async () => {
    // Users: create, rename (named as before the change), delete.
    const created = await recorded('/api/users', 'POST', '/api/users', { cookie: admin.cookie, body: { username: 'ann-audit', email: 'ann-audit@example.com', phonenumber: '1', password: 'secret-pw', role: 'user' } });
    const ann = created.res.body.result._id as string;
    expect(created.rec).toMatchObject({ outcome: 'ok', targets: [{ kind: 'user', id: ann, name: 'ann-audit' }], requestBody: { username: 'ann-audit', password: '••••' } });
    expect(JSON.stringify(created.rec)).not.toContain('secret-pw');
    const renamed = await recorded('/api/users/:id', 'PATCH', `/api/users/${ann}`, { cookie: admin.cookie, body: { username: 'anna-audit' } });
    expect(renamed.rec).toMatchObject({ targets: [{ kind: 'user', id: ann, name: 'ann-audit' }], requestBody: { username: 'anna-audit' } });
    const removed = await recorded('/api/users/:id', 'DELETE', `/api/users/${ann}`, { cookie: admin.cookie });
    expect(removed.rec).toMatchObject({ outcome: 'ok', targets: [{ kind: 'user', id: ann, name: 'anna-audit' }] });

    // Servers: create, delete (update is above).
    const s = await recorded('/api/servers', 'POST', '/api/servers', { cookie: admin.cookie, body: { hostname: 'db-audit', ipaddress: '10.91.1.1', operating_system: 'linux' } });
    const sid = s.res.body.result._id as string;
    expect(s.rec.targets).toEqual([{ kind: 'server', id: sid, name: 'db-audit' }]);

    // Notification groups: create, edit, delete.
    const g = await recorded('/api/notification-groups', 'POST', '/api/notification-groups', { cookie: admin.cookie, body: { name: 'ops-audit', emailList: ['ops@example.com'] } });
    const gid = g.res.body.result._id as string;
    expect(g.rec.targets).toEqual([{ kind: 'group', id: gid, name: 'ops-audit' }]);
    expect((await recorded('/api/notification-groups/:id', 'PATCH', `/api/notification-groups/${gid}`, { cookie: admin.cookie, body: { description: 'x' } })).rec.targets[0]!.name).toBe('ops-audit');
    // Channel targets (issue 15): add (secrets kept out of the record), test, remove; named by the group.
    const ch = await recorded('/api/notification-groups/:id/channels', 'POST', `/api/notification-groups/${gid}/channels`, { cookie: admin.cookie, body: { type: 'ntfy', name: 'phone', secrets: { topic: 'audit-topic-secret', token: 'tk_audit_token_secret' } } });
    expect(ch.rec).toMatchObject({ outcome: 'ok', targets: [{ kind: 'group', id: gid, name: 'ops-audit' }], requestBody: { type: 'ntfy', name: 'phone', secrets: '••••' } });
    expect(JSON.stringify(ch.rec)).not.toContain('audit-topic-secret');
    const edited = await recorded('/api/notification-groups/:id/channels/:channel', 'PATCH', `/api/notification-groups/${gid}/channels/phone`, { cookie: admin.cookie, body: { secrets: { token: 'tk_audit_token_secret_2' } } });
    expect(edited.rec).toMatchObject({ outcome: 'ok', targets: [{ kind: 'group', id: gid, name: 'ops-audit' }], requestBody: { secrets: '••••' } });
    expect(JSON.stringify(edited.rec)).not.toContain('tk_audit_token_secret_2');
    // No SMTP server here: the test notification fails, and the record says so with the reason.
    expect((await recorded('/api/notification-groups/:id/test', 'POST', `/api/notification-groups/${gid}/test`, { cookie: admin.cookie, body: { channel: 'email' } })).rec).toMatchObject({ outcome: 'error', error: expect.stringMatching(/^1 of 1 channel failed the test: /) });
    expect((await recorded('/api/notification-groups/:id/channels/:channel', 'DELETE', `/api/notification-groups/${gid}/channels/phone`, { cookie: admin.cookie })).rec.targets[0]!.name).toBe('ops-audit');
    expect((await recorded('/api/notification-groups/:id', 'DELETE', `/api/notification-groups/${gid}`, { cookie: admin.cookie })).rec.outcome).toBe('ok');

    // Alert rules: create defaults, update, reset; named by the server.
    const cfg = await recorded('/api/alert-config/create-default-alert-rules/:serverId', 'POST', `/api/alert-config/create-default-alert-rules/${sid}`, { cookie: admin.cookie });
    expect(cfg.rec.targets).toEqual([{ kind: 'server', id: sid, name: 'db-audit' }]);
    const config = cfg.res.body.result as { _id: string; rules: Record<string, unknown>[] };
    const rules = config.rules.map((r) => ({ ...r, enabled: false }));
    expect((await recorded('/api/alert-config/update-alert-config/:id', 'PATCH', `/api/alert-config/update-alert-config/${config._id}`, { cookie: admin.cookie, body: { rules } })).rec.targets).toEqual([{ kind: 'server', id: sid, name: 'db-audit' }]);
    expect((await recorded('/api/alert-config/reset-alert-rules/:id', 'PATCH', `/api/alert-config/reset-alert-rules/${config._id}`, { cookie: admin.cookie })).rec.outcome).toBe('ok');

    // Alerts: triage (any role) and delete; named "alertname @ host", also found by the server.
    const [a] = await t.database.db.insert(alerts).values({ serverId: sid, hostname: 'db-audit', instance: '10.91.1.1:9100', alertname: 'high_cpu_usage', type: 'resouce_alert', severity: 'warning' }).returning();
    const ack = await recorded('/api/alerts/:id/ack', 'POST', `/api/alerts/${a!.id}/ack`, { cookie: user.cookie, body: { note: 'on it' } });
    expect(ack.rec).toMatchObject({ outcome: 'ok', targets: [{ kind: 'alert', id: a!.id, name: 'high_cpu_usage @ db-audit' }] });
    expect((await recorded('/api/alerts/:id/unack', 'POST', `/api/alerts/${a!.id}/unack`, { cookie: user.cookie, body: {} })).rec.outcome).toBe('ok');
    const triage = await recorded('/api/alerts/:id', 'PATCH', `/api/alerts/${a!.id}`, { cookie: user.cookie, body: { status: 'resolved', log: 'done' }, headers: run('alert.resolve', `alert.resolve --alert ${a!.id} --note done`, 'cmdline') });
    expect(triage.rec).toMatchObject({ username: 'audit-user', command: 'alert.resolve', source: 'cmdline', targets: [{ kind: 'alert', id: a!.id, name: 'high_cpu_usage @ db-audit' }] });
    const byServer = await t.call('POST', '/api/command-history/all', { cookie: user.cookie, body: { filter: { targetId: sid, command: 'alert.resolve' } } });
    expect(byServer.body.result.count).toBe(1);
    expect((await recorded('/api/alerts/:id', 'DELETE', `/api/alerts/${a!.id}`, { cookie: admin.cookie })).rec.targets[0]!.name).toBe('high_cpu_usage @ db-audit');

    // Agent onboarding: key, the installer's report (who = the key), configure, revoke.
    const key = await recorded('/api/cli/create_api_key', 'POST', '/api/cli/create_api_key', { cookie: admin.cookie, body: { privilages: ['READ', 'UPDATE'], serverId: sid } });
    const k = key.res.body.data as { key: string; id: string; prefix: string };
    expect(key.rec.targets).toEqual([{ kind: 'server', id: sid, name: 'db-audit' }, { kind: 'api-key', id: k.id, name: `${k.prefix}…` }]);
    expect(JSON.stringify(key.rec)).not.toContain(k.key);
    const installed = await recorded('/api/cli/agent-installed', 'POST', '/api/cli/agent-installed', { body: {}, headers: { authorization: `Bearer ${k.key}` } });
    expect(installed.rec).toMatchObject({ actorKind: 'agent', userId: null, username: `agent key ${k.prefix}…`, actorKeyId: k.id, actorLabel: k.prefix, targets: [{ kind: 'server', id: sid, name: 'db-audit' }] });
    expect((await recorded('/api/servers/update-agent-configure-status/:id', 'PATCH', `/api/servers/update-agent-configure-status/${sid}`, { cookie: admin.cookie })).rec.outcome).toBe('ok');
    expect((await recorded('/api/cli/api_keys/:id', 'DELETE', `/api/cli/api_keys/${k.id}`, { cookie: admin.cookie })).rec.targets[0]).toEqual({ kind: 'api-key', id: k.id, name: `${k.prefix}…` });
    expect((await recorded('/api/servers/:id', 'DELETE', `/api/servers/${sid}`, { cookie: admin.cookie })).rec.targets).toEqual([{ kind: 'server', id: sid, name: 'db-audit' }]);

    // Website/TCP checks (issue 16): create, edit, run now, delete; the meta alert's groups setting.
    const check = await recorded('/api/checks', 'POST', '/api/checks', { cookie: admin.cookie, body: { name: 'tcp-audit', kind: 'tcp', host: '127.0.0.1', port: 9, intervalSeconds: 3600 } });
    const cid = check.res.body.result._id as string;
    expect(check.rec.targets).toEqual([{ kind: 'check', id: cid, name: 'tcp-audit' }]);
    expect((await recorded('/api/checks/:id', 'PATCH', `/api/checks/${cid}`, { cookie: admin.cookie, body: { name: 'tcp-audit-2' } })).rec.targets[0]!.name).toBe('tcp-audit');
    expect((await recorded('/api/checks/run-now/:id', 'POST', `/api/checks/run-now/${cid}`, { cookie: admin.cookie })).rec).toMatchObject({ outcome: 'ok', targets: [{ kind: 'check', id: cid, name: 'tcp-audit-2' }] });
    expect((await recorded('/api/checks/:id', 'DELETE', `/api/checks/${cid}`, { cookie: admin.cookie })).rec.outcome).toBe('ok');
    expect((await recorded('/api/settings/monitoring-alert-groups', 'PATCH', '/api/settings/monitoring-alert-groups', { cookie: admin.cookie, body: { groupIds: null } })).rec.outcome).toBe('ok');
    expect((await recorded('/api/settings/default-notification-group', 'PATCH', '/api/settings/default-notification-group', { cookie: admin.cookie, body: { groupId: null } })).rec).toMatchObject({ outcome: 'ok', targets: [{ kind: 'setting', id: 'default_notification_group', name: 'Default notification group' }] });

    // Status pages (issue 16 §3): composed by an admin, named by slug; incident posts carry their markdown.
    const sp = await recorded('/api/status-pages', 'POST', '/api/status-pages', { cookie: admin.cookie, body: { slug: 'audit-status', title: 'Audit' } });
    const spid = sp.res.body.result._id as string;
    expect(sp.rec.targets).toEqual([{ kind: 'status_page', id: spid, name: 'audit-status' }]);
    expect((await recorded('/api/status-pages/:id', 'PATCH', `/api/status-pages/${spid}`, { cookie: admin.cookie, body: { title: 'Audit 2' } })).rec.outcome).toBe('ok');
    const post = await recorded('/api/status-pages/post/:id', 'POST', `/api/status-pages/post/${spid}`, { cookie: sysadmin.cookie, body: { body: 'Investigating **errors**' } });
    expect(post.rec).toMatchObject({ outcome: 'ok', targets: [{ kind: 'status_page', id: spid, name: 'audit-status' }], requestBody: { body: 'Investigating **errors**' } });
    expect((await recorded('/api/status-pages/resolve/:id', 'POST', `/api/status-pages/resolve/${spid}`, { cookie: sysadmin.cookie, body: {} })).rec.outcome).toBe('ok');
    expect((await recorded('/api/status-pages/:id', 'DELETE', `/api/status-pages/${spid}`, { cookie: admin.cookie })).rec.targets[0]!.name).toBe('audit-status');

    // Silences and maintenance windows (issue 14): named by their matchers and their name.
    const silence = await recorded('/api/silences', 'POST', '/api/silences', { cookie: user.cookie, body: { matchers: [{ name: 'hostname', op: '=~', value: 'web-.*' }], durationSeconds: 3600, comment: 'deploy' } });
    const slid = silence.res.body.result._id as string;
    expect(silence.rec.targets).toEqual([{ kind: 'silence', id: slid, name: 'hostname=~web-.*' }]);
    expect((await recorded('/api/silences/:id', 'PATCH', `/api/silences/${slid}`, { cookie: user.cookie, body: { comment: 'deploy 2' } })).rec.outcome).toBe('ok');
    expect((await recorded('/api/silences/:id/expire', 'POST', `/api/silences/${slid}/expire`, { cookie: user.cookie })).rec.targets[0]!.id).toBe(slid);
    const now = Date.now();
    const mw = await recorded('/api/maintenance-windows', 'POST', '/api/maintenance-windows', {
      cookie: admin.cookie,
      body: { name: 'patch night', matchers: [{ name: 'severity', op: '=', value: 'info' }], startsAt: new Date(now + 86_400_000).toISOString(), endsAt: new Date(now + 90_000_000).toISOString() },
    });
    const mwid = mw.res.body.result._id as string;
    expect(mw.rec.targets).toEqual([{ kind: 'maintenance-window', id: mwid, name: 'patch night' }]);
    expect((await recorded('/api/maintenance-windows/:id', 'PATCH', `/api/maintenance-windows/${mwid}`, { cookie: admin.cookie, body: { comment: 'kernel' } })).rec.outcome).toBe('ok');
    expect((await recorded('/api/maintenance-windows/:id', 'DELETE', `/api/maintenance-windows/${mwid}`, { cookie: admin.cookie })).rec.outcome).toBe('ok');

    // On-call schedules (issue 27): named by the schedule; feed secrets kept out of the record.
    const oc = await recorded('/api/oncall-schedules', 'POST', '/api/oncall-schedules', { cookie: sysadmin.cookie, body: { name: 'audit rota', timeZone: 'Europe/London', layers: [{ name: 'primary', participants: [user._id, sysadmin._id], shift: { length: 1, unit: 'days' }, start: '2026-03-27', handoff: '09:00' }] } });
    const ocid = oc.res.body.result._id as string;
    expect(oc.rec.targets).toEqual([
      { kind: 'oncall-schedule', id: ocid, name: 'audit rota' },
      { kind: 'user', id: user._id, name: 'audit-user' },
      { kind: 'user', id: sysadmin._id, name: 'audit-sys' },
    ]);
    const ocTarget = [{ kind: 'oncall-schedule', id: ocid, name: 'audit rota' }];
    expect((await recorded('/api/oncall-schedules/:id', 'PATCH', `/api/oncall-schedules/${ocid}`, { cookie: sysadmin.cookie, body: { description: 'x' } })).rec.targets).toEqual(ocTarget);
    expect((await recorded('/api/oncall-schedules/:id/layers', 'POST', `/api/oncall-schedules/${ocid}/layers`, { cookie: sysadmin.cookie, body: { name: 'second', participants: [user._id], shift: { length: 1, unit: 'weeks' }, start: '2026-03-30', handoff: '00:00' } })).rec.targets).toEqual([...ocTarget, { kind: 'user', id: user._id, name: 'audit-user' }]);
    expect((await recorded('/api/oncall-schedules/:id/layers/:layer', 'PATCH', `/api/oncall-schedules/${ocid}/layers/second`, { cookie: sysadmin.cookie, body: { handoff: '08:00' } })).rec.outcome).toBe('ok');
    expect((await recorded('/api/oncall-schedules/:id/layers/:layer', 'DELETE', `/api/oncall-schedules/${ocid}/layers/second`, { cookie: sysadmin.cookie })).rec.outcome).toBe('ok');
    const ov = await recorded('/api/oncall-schedules/:id/overrides', 'POST', `/api/oncall-schedules/${ocid}/overrides`, { cookie: sysadmin.cookie, body: { user: user._id, start: '2026-04-01T10:00:00Z', end: '2026-04-01T12:00:00Z' } });
    expect(ov.rec).toMatchObject({ outcome: 'ok', targets: [...ocTarget, { kind: 'user', id: user._id, name: 'audit-user' }] });
    expect((await recorded('/api/oncall-schedules/:id/overrides/:override', 'DELETE', `/api/oncall-schedules/${ocid}/overrides/${ov.res.body.result.overrides[0]._id}`, { cookie: sysadmin.cookie })).rec.outcome).toBe('ok');
    expect((await recorded('/api/oncall-schedules/:id/swaps', 'POST', `/api/oncall-schedules/${ocid}/swaps`, { cookie: sysadmin.cookie, body: { first: { layer: 'primary', start: '2026-04-01T08:00:00Z' }, second: { layer: 'primary', start: '2026-04-02T08:00:00Z' } } })).rec.outcome).toBe('ok');
    const feed = await recorded('/api/oncall-schedules/:id/feed', 'POST', `/api/oncall-schedules/${ocid}/feed`, { cookie: sysadmin.cookie });
    expect(feed.rec).toMatchObject({ outcome: 'ok', targets: ocTarget });
    expect(JSON.stringify(feed.rec)).not.toContain(feed.res.body.result.token);
    expect((await recorded('/api/oncall-schedules/:id/feed', 'DELETE', `/api/oncall-schedules/${ocid}/feed`, { cookie: sysadmin.cookie })).rec.outcome).toBe('ok');
    const myFeed = await recorded('/api/oncall/my-feed', 'POST', '/api/oncall/my-feed', { cookie: user.cookie });
    expect(myFeed.rec).toMatchObject({ outcome: 'ok', targets: [{ kind: 'user', id: user._id, name: 'audit-user' }] });
    expect(JSON.stringify(myFeed.rec)).not.toContain(myFeed.res.body.result.token);
    expect((await recorded('/api/oncall/my-feed', 'DELETE', '/api/oncall/my-feed', { cookie: user.cookie })).rec.outcome).toBe('ok');
    const calendar = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260401T090000Z\r\nDTEND:20260401T170000Z\r\nSUMMARY:audit-user\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';
    const imported = await recorded('/api/oncall-schedules/import', 'POST', '/api/oncall-schedules/import', { cookie: sysadmin.cookie, body: { name: 'audit import', calendar, from: '2026-03-30T00:00:00Z' } });
    expect(imported.rec).toMatchObject({ outcome: 'ok', targets: [{ kind: 'oncall-schedule', id: imported.res.body.result.schedule._id, name: 'audit import' }] });
    expect((await recorded('/api/oncall-schedules/:id', 'DELETE', `/api/oncall-schedules/${ocid}`, { cookie: sysadmin.cookie })).rec.targets).toEqual(ocTarget);

    // Alertmanager's receiver (issue 15): the token an admin creates, a notification (who = Alertmanager), removal.
    const amToken = await recorded('/api/integrations/alertmanager/token', 'POST', '/api/integrations/alertmanager/token', { cookie: admin.cookie });
    expect(amToken.rec).toMatchObject({ outcome: 'ok', targets: [{ kind: 'setting', name: 'Alertmanager receiver token' }] });
    expect(JSON.stringify(amToken.rec)).not.toContain(amToken.res.body.result.token);
    const notified = await recorded('/api/integrations/alertmanager', 'POST', '/api/integrations/alertmanager', {
      headers: { authorization: `Bearer ${amToken.res.body.result.token}` },
      body: { version: '4', alerts: [{ status: 'firing', labels: { alertname: 'AuditProbe' }, annotations: {}, startsAt: new Date().toISOString(), fingerprint: 'audit-fp' }] },
    });
    expect(notified.rec).toMatchObject({ actorKind: 'system', username: 'Alertmanager', outcome: 'ok', targets: [{ kind: 'alert', id: notified.res.body.result.alertIds[0] }] });
    expect((await recorded('/api/integrations/alertmanager/token', 'DELETE', '/api/integrations/alertmanager/token', { cookie: admin.cookie })).rec.outcome).toBe('ok');

    // One's command aliases (issue 13).
    const alias = await recorded('/api/aliases/:name', 'PUT', '/api/aliases/ack1h', { cookie: user.cookie, body: { line: 'alert.snooze --for 1h' } });
    expect(alias.rec.targets).toMatchObject([{ kind: 'alias', name: 'ack1h' }]);
    expect((await recorded('/api/aliases/:name', 'DELETE', '/api/aliases/ack1h', { cookie: user.cookie })).rec.targets).toMatchObject([{ kind: 'alias', name: 'ack1h' }]);

    // Personal API tokens: made and revoked from a session.
    const pt = await recorded('/api/auth/tokens', 'POST', '/api/auth/tokens', { cookie: user.cookie, body: { name: 'audit-ci' } });
    expect(pt.rec.targets).toMatchObject([{ kind: 'token', name: 'audit-ci' }]);
    expect(JSON.stringify(pt.rec)).not.toContain(pt.res.body.result.token);
    expect((await recorded('/api/auth/tokens/:id', 'DELETE', `/api/auth/tokens/${pt.res.body.result._id}`, { cookie: user.cookie })).rec.outcome).toBe('ok');

    // One's contact methods (issue 27 §2): named by the person and the method's label.
    const cm = await recorded('/api/users/:id/contact-methods', 'POST', `/api/users/${user._id}/contact-methods`, { cookie: user.cookie, body: { kind: 'sms', label: 'audit phone', settings: { phone: '+15550100777' } } });
    expect(cm.rec.targets).toMatchObject([{ kind: 'user', id: user._id }, { kind: 'contact-method', name: 'audit phone' }]);
    // Twilio is not set up here: the test is recorded as failed, with the reason.
    expect((await recorded('/api/users/:id/contact-methods/:method/test', 'POST', `/api/users/${user._id}/contact-methods/audit%20phone/test`, { cookie: user.cookie })).rec).toMatchObject({ outcome: 'error', targets: [{ kind: 'user' }, { kind: 'contact-method', name: 'audit phone' }] });
    expect((await recorded('/api/users/:id/contact-methods/:method/verify', 'POST', `/api/users/${user._id}/contact-methods/audit%20phone/verify`, { cookie: user.cookie, body: { code: '123456' } })).rec).toMatchObject({ outcome: 'error', status: 400, targets: [{ kind: 'user' }, { kind: 'contact-method', name: 'audit phone' }] });
    // Notification rules (issue 27 §2): a step on an unverified method is refused and recorded as such; one on a verified method is named by it.
    expect((await recorded('/api/users/:id/notification-rules', 'POST', `/api/users/${user._id}/notification-rules`, { cookie: user.cookie, body: { method: 'audit phone', afterMinutes: 5 } })).rec).toMatchObject({ outcome: 'error', status: 400, targets: [{ kind: 'user', id: user._id }] });
    await t.database.query(`update contact_methods set verified_at = now() where user_id = $1 and label = 'audit phone'`, [user._id]);
    const rule = await recorded('/api/users/:id/notification-rules', 'POST', `/api/users/${user._id}/notification-rules`, { cookie: user.cookie, body: { method: 'audit phone', afterMinutes: 5 } });
    expect(rule.res.status, JSON.stringify(rule.res.body)).toBe(201);
    expect(rule.rec.outcome).toBe('ok');
    expect(rule.rec.targets).toMatchObject([{ kind: 'user', id: user._id }, { kind: 'notification-rule', name: 'audit phone after 5 min' }]);
    const ruleId = (rule.res.body.result as { _id: string })._id;
    expect((await recorded('/api/users/:id/notification-rules/:rule', 'DELETE', `/api/users/${user._id}/notification-rules/${ruleId}`, { cookie: admin.cookie })).rec).toMatchObject({ outcome: 'ok', targets: [{ kind: 'user', id: user._id }, { kind: 'notification-rule', id: ruleId, name: 'audit phone after 5 min' }] });
    expect((await recorded('/api/users/:id/contact-methods/:method', 'DELETE', `/api/users/${user._id}/contact-methods/audit%20phone`, { cookie: admin.cookie })).rec.targets).toMatchObject([{ kind: 'user', id: user._id }, { kind: 'contact-method', name: 'audit phone' }]);

    // A notification's signed link (issue 27 §4): the console's command, as the person it was for, from where it came.
    const [paged] = await t.database.db.insert(alerts).values({ hostname: 'page-audit', instance: '10.91.1.2:9100', alertname: 'high_cpu_usage', type: 'resouce_alert', severity: 'critical' }).returning();
    const link = new PageActionSigner(new SecretBox(keyFromText(testConfig().secretKey!)).derive('page-actions')).sign({ alertId: paged!.id, userId: user._id, action: 'ack', via: 'email', expiresAt: new Date(Date.now() + 60_000) });
    const pageAck = await recorded('/api/page-actions/:token', 'POST', `/api/page-actions/${link}`, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, raw: 'confirm=1' });
    expect(pageAck.rec).toMatchObject({ actorKind: 'user', username: 'audit-user', command: 'alert.ack', commandLine: `alert.ack ${paged!.id}`, source: 'email', outcome: 'ok', targets: [{ kind: 'alert', id: paged!.id, name: 'high_cpu_usage @ page-audit' }] });

    // A Slack button press (issue 27 §4) by a member no user has linked: Slack gets its 200, History the refusal under the member.
    const pressBody = `payload=${encodeURIComponent(JSON.stringify({ type: 'block_actions', user: { id: 'U0AUDIT01' }, actions: [{ action_id: 'opsdeck_alert_ack', value: paged!.id, type: 'button' }] }))}`;
    const ts = String(Math.floor(Date.now() / 1000));
    const slackSig = `v0=${createHmac('sha256', 'audit-slack-signing-secret').update(`v0:${ts}:${pressBody}`).digest('hex')}`;
    const slackPress = await recorded('/api/integrations/slack/interactions', 'POST', '/api/integrations/slack/interactions', { headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': ts, 'x-slack-signature': slackSig }, raw: pressBody });
    expect(slackPress.rec).toMatchObject({ actorKind: 'anonymous', username: 'Slack member U0AUDIT01', command: 'alert.ack', source: 'slack', outcome: 'error' });

    // Sessions and one's own account.
    const u = await t.addUser({ role: 'user', username: 'bob-audit' });
    const signin = await recorded('/api/auth/signin', 'POST', '/api/auth/signin', { body: { email: u.email, password: u.password } });
    expect(signin.rec).toMatchObject({ actorKind: 'user', userId: u._id, username: 'bob-audit', role: 'user', outcome: 'ok' });
    const failed = await recorded('/api/auth/signin', 'POST', '/api/auth/signin', { body: { email: u.email, password: 'wrong' } });
    expect(failed.rec).toMatchObject({ actorKind: 'anonymous', userId: null, username: u.email, outcome: 'refused', status: 401 });
    expect(JSON.stringify(failed.rec)).not.toContain('wrong');
    const bob = `opsdeck_session=${String(signin.res.headers['set-cookie']).split(';')[0]!.split('=')[1]}`;
    const self = await recorded('/api/auth/users/:id', 'PATCH', `/api/auth/users/${u._id}`, { cookie: bob, body: { username: 'robert-audit' } });
    expect(self.rec).toMatchObject({ username: 'bob-audit', targets: [{ kind: 'user', id: u._id, name: 'bob-audit' }], requestBody: { username: 'robert-audit' } });
    expect((await recorded('/api/auth/signout', 'POST', '/api/auth/signout', { cookie: bob })).rec).toMatchObject({ username: 'robert-audit', outcome: 'ok' });

    expect(t.app.auditFallbacks).toBe(0);
  });

  it('a browser cannot write a record: no call creates one, whatever it claims (History is server-written)', async () => {
    const before = await t.count('command_history');
    for (const cookie of [user.cookie, admin.cookie]) {
      const forged = await t.call('POST', '/api/command-history', {
        cookie,
        body: { command: 'user.delete', commandLine: 'user.delete audit-admin', input: { user: 'audit-admin' }, source: 'ui', outcome: 'ok', durationMs: 1 },
      });
      expect(forged.status).toBe(404);
      expect(forged.headers['x-opsdeck-record']).toBeUndefined();
    }
    expect(await t.count('command_history')).toBe(before);
    const claimed = await t.call('POST', '/api/command-history/all', { cookie: admin.cookie, body: { filter: { command: 'user.delete' } } });
    expect(claimed.body.result.data.map((r: CommandHistoryEntry) => r.username)).not.toContain('audit-user');
    // A user renamed to look like the admin is refused: usernames are unique case-insensitively.
    const clash = await t.call('PATCH', `/api/auth/users/${user._id}`, { cookie: user.cookie, body: { username: 'AUDIT-admin' } });
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({ field: 'username', message: 'A user with this username already exists' });
    const create = await t.call('POST', '/api/users', { cookie: admin.cookie, body: { username: 'Audit-Sys', email: 'x-audit@example.com', phonenumber: '1', password: 'p', role: 'user' } });
    expect(create.body).toMatchObject({ statusCode: 409, field: 'username' });
    const update = await t.call('PATCH', `/api/users/${user._id}`, { cookie: admin.cookie, body: { username: 'audit-SYS' } });
    expect(update.body).toMatchObject({ statusCode: 409, field: 'username' });
  });

  it('covers every mutating route the app registers', () => {
    // A new mutating route must get a record test here (its family above), or opt out with a reason.
    const missing = t.app.auditedRoutes.filter((r) => !covered.has(r));
    expect(missing).toEqual([]);
  });

  it('is append-only in the database; only the retention prune deletes, and only what is old enough', async () => {
    const [row] = await t.database.query<{ id: string }>(`select id from command_history order by created_at limit 1`);
    await expect(t.database.query(`update command_history set outcome = 'ok' where id = $1`, [row!.id])).rejects.toThrow(/append-only/);
    await expect(t.database.query(`delete from command_history where id = $1`, [row!.id])).rejects.toThrow(/append-only/);
    await expect(t.database.query(`truncate command_history`)).rejects.toThrow(/append-only/);
    // Deleting a user keeps who did what (no foreign key to rewrite).
    expect((await t.database.query(`select count(*)::int as n from command_history where id = $1`, [row!.id]))[0]).toEqual({ n: 1 });

    const day = 86_400_000;
    const old = (days: number) => ({ username: 'old', command: 'x.old', source: 'ui', outcome: 'ok', durationMs: 1, createdAt: new Date(Date.now() - days * day) });
    await t.database.db.insert(commandHistory).values([old(400), old(380), old(10)]);
    // The bypass is the prune's own: a transaction that sets it may still not delete the last day.
    const recent = t.database.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('opsdeck.history_prune_before', '2999-01-01', true)`);
      await tx.execute(sql`delete from command_history where created_at > now() - interval '1 day'`);
    });
    await expect(recent).rejects.toThrow();
    const before = Number((await t.database.query<{ n: number }>(`select count(*)::int as n from command_history`))[0]!.n);
    expect(await pruneHistory(t.database.db, 365)).toBe(2);
    expect((await t.database.query<{ n: number }>(`select count(*)::int as n from command_history where command = 'x.old'`))[0]!.n).toBe(1);
    const [note] = await t.database.query<{ username: string; actor_kind: string; request_body: { removed: number } }>(`select username, actor_kind, request_body from command_history where command = 'history.prune'`);
    expect(note).toMatchObject({ username: 'Opsdeck', actor_kind: 'system', request_body: { removed: 2 } });
    expect(Number((await t.database.query<{ n: number }>(`select count(*)::int as n from command_history`))[0]!.n)).toBe(before - 2 + 1);
    expect(await pruneHistory(t.database.db, 0)).toBe(0);
    // Outside the prune's transaction the bypass is gone.
    await expect(t.database.query(`delete from command_history where command = 'x.old'`)).rejects.toThrow(/append-only/);
  });

  it('exports a window as JSON Lines, also for one server', async () => {
    const s = await newServer('exp-audit');
    await t.call('PATCH', `/api/servers/${s._id}`, { cookie: admin.cookie, body: { suppressAlarm: 'yes' } });
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const res = await t.app.inject({ method: 'GET', url: `/api/command-history/export?from=${from}&to=${to}`, headers: { cookie: user.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="history-\d{8}T\d{6}Z-\d{8}T\d{6}Z\.jsonl"$/);
    const lines = res.body.trimEnd().split('\n').map((l) => JSON.parse(l) as CommandHistoryEntry);
    const listed = await t.call('POST', '/api/command-history/all', { cookie: user.cookie, body: { pageSize: 100, filter: { createdAt: { between: [from, to] } } } });
    expect(lines.length).toBe(listed.body.result.count);
    expect(lines.map((l) => l.createdAt)).toEqual([...lines.map((l) => l.createdAt)].sort());
    const one = await t.app.inject({ method: 'GET', url: `/api/command-history/export?from=${from}&to=${to}&serverId=${s._id}`, headers: { cookie: user.cookie } });
    const mine = one.body.trimEnd().split('\n').map((l) => JSON.parse(l) as CommandHistoryEntry);
    expect(mine.map((l) => `${l.method} ${l.route}`)).toEqual(['POST /api/servers', 'PATCH /api/servers/:id']);
    expect((await t.call('GET', `/api/command-history/export?from=${to}&to=${from}`, { cookie: user.cookie })).body).toMatchObject({ statusCode: 400, field: 'to' });
    expect((await t.call('GET', `/api/command-history/export?from=${from}&to=${to}`)).status).toBe(401);
  });
});
