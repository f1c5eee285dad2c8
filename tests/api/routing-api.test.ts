import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type TestApp } from './harness';

/**
 * Issue 14 API: silences, maintenance windows, escalation policies, rule routing settings and
 * server labels over real HTTP on both databases. Bad input (§7) is a 400 naming the field and
 * changes nothing; nothing here may answer a 5xx.
 */
describe.each(await backends())('routing API on $name', (backend) => {
  let t: TestApp;
  let admin: string;
  let user: string;
  let web: { _id: string; hostname: string };
  const snapshot = async () => ({
    silences: await t.database.query('select * from silences order by id'),
    windows: await t.database.query('select * from maintenance_windows order by id'),
    groups: await t.database.query('select * from notification_groups order by id'),
    rules: await t.database.query('select * from alert_rules order by id'),
    servers: await t.database.query('select id, labels from servers order by id'),
  });
  const refused = async (method: 'POST' | 'PATCH', url: string, cases: [unknown, number, string | undefined, RegExp?][], cookie = admin) => {
    const before = await snapshot();
    for (const [body, status, field, message] of cases) {
      const res = await t.call(method, url, { cookie, body });
      expect(res.status, `${url} ${JSON.stringify(body)} → ${JSON.stringify(res.body)}`).toBe(status);
      if (field) expect(res.body.field, JSON.stringify(body)).toBe(field);
      if (message) expect(res.body.message).toMatch(message);
    }
    expect(await snapshot()).toEqual(before);
  };

  beforeAll(async () => {
    t = await startTestApp(backend);
    const a = await t.addUser({ role: 'admin' });
    admin = await t.signIn(a.email, a.password);
    const u = await t.addUser({ role: 'user' });
    user = await t.signIn(u.email, u.password);
    const res = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname: 'web-01', ipaddress: '10.73.0.1', operating_system: 'linux', isAgentConfigured: true, labels: { env: 'prod', team: 'web' } } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    web = res.body.result;
    await t.call('POST', '/api/servers', { cookie: admin, body: { hostname: 'db-01', ipaddress: '10.73.0.2', operating_system: 'linux', labels: { env: 'staging' } } });
    // One open alert on web-01.
    await t.database.query(`insert into alerts (server_id, hostname, instance, alertname, type, severity, status, rule_id) select $1, 'web-01', '10.73.0.1', 'high_cpu_usage', 'resouce_alert', 'warning', 'firing', id from alert_rules where server_id = $1 and name = 'high_cpu_usage'`, [web._id]);
  });
  afterAll(async () => t.close());

  it('server labels: set on create, replaced on update, refused when malformed', async () => {
    expect(web).toMatchObject({ labels: { env: 'prod', team: 'web' } });
    const up = await t.call('PATCH', `/api/servers/${web._id}`, { cookie: admin, body: { labels: { env: 'prod', team: 'web', rack: 'r1' } } });
    expect(up.body.result.labels).toEqual({ env: 'prod', team: 'web', rack: 'r1' });
    await refused('PATCH', `/api/servers/${web._id}`, [
      [{ labels: { '1bad': 'x' } }, 400, 'labels.1bad'],
      [{ labels: { env: 'x'.repeat(201) } }, 400, 'labels.env'],
      [{ labels: ['env'] }, 400, 'labels'],
    ]);
  });

  it('silences: create (any role), read, list active, edit, expire; an expired one is history', async () => {
    const res = await t.call('POST', '/api/silences', { cookie: user, body: { matchers: [{ name: 'label.env', op: '=', value: 'prod' }], durationSeconds: 3600, comment: 'Deploy' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const s = res.body.result;
    expect(s).toMatchObject({ state: 'active', comment: 'Deploy', matchers: [{ name: 'label.env', op: '=', value: 'prod' }] });
    expect(Date.parse(s.endsAt) - Date.parse(s.startsAt)).toBe(3_600_000);
    const later = await t.call('POST', '/api/silences', { cookie: admin, body: { matchers: [{ name: 'alertname', op: '!=', value: 'x' }], startsAt: new Date(Date.now() + 3_600_000).toISOString(), endsAt: new Date(Date.now() + 7_200_000).toISOString(), comment: 'Later' } });
    expect(later.body.result.state).toBe('pending');
    const now = new Date().toISOString();
    const active = await t.call('POST', '/api/silences/all', { cookie: user, body: { filter: { endsAt: { between: [now, '9999-01-01T00:00:00Z'] } }, sort: { by: 'endsAt', direction: 'asc' } } });
    expect(active.body.result.data.map((x: { comment: string }) => x.comment)).toEqual(['Deploy', 'Later']);
    const edited = await t.call('PATCH', `/api/silences/${s._id}`, { cookie: user, body: { comment: 'Deploy v2' } });
    expect(edited.body.result).toMatchObject({ comment: 'Deploy v2', startsAt: s.startsAt });
    const expired = await t.call('POST', `/api/silences/${s._id}/expire`, { cookie: user });
    expect(expired.body.result.state).toBe('expired');
    expect((await t.call('POST', `/api/silences/${s._id}/expire`, { cookie: user })).status).toBe(409);
    expect((await t.call('PATCH', `/api/silences/${s._id}`, { cookie: user, body: { comment: 'again' } })).status).toBe(409);
    expect((await t.call('POST', `/api/silences/00000000-0000-4000-8000-000000000000/expire`, { cookie: user })).status).toBe(404);
  });

  it('silences refuse bad input with a 400 naming the field (§7): no matcher, a regex that does not compile or is too long, end before start', async () => {
    const ok = { matchers: [{ name: 'hostname', op: '=', value: 'web-01' }], durationSeconds: 600, comment: 'c' };
    const past = new Date(Date.now() - 60_000).toISOString();
    await refused('POST', '/api/silences', [
      [{ ...ok, matchers: [] }, 400, 'matchers', /at least one matcher/],
      [{ ...ok, matchers: undefined }, 400, 'matchers'],
      [{ ...ok, matchers: [{ name: 'hostname', op: '=~', value: '(web' }] }, 400, 'matchers.0.value', /regex does not compile/],
      [{ ...ok, matchers: [{ name: 'hostname', op: '=', value: 'a' }, { name: 'service', op: '!~', value: 'a{2,1}' }] }, 400, 'matchers.1.value'],
      // Lookbehind and backreferences are not RE2: refused, never run.
      [{ ...ok, matchers: [{ name: 'hostname', op: '=~', value: '(a)\\1' }] }, 400, 'matchers.0.value'],
      [{ ...ok, matchers: [{ name: 'hostname', op: '=~', value: 'a'.repeat(257) }] }, 400, 'matchers.0.value', /at most 256/],
      [{ ...ok, matchers: [{ name: 'colour', op: '=', value: 'x' }] }, 400, 'matchers.0.name'],
      [{ ...ok, matchers: [{ name: 'label.9', op: '=', value: 'x' }] }, 400, 'matchers.0.name'],
      [{ ...ok, matchers: [{ name: 'hostname', op: '~', value: 'x' }] }, 400, 'matchers.0.op'],
      [{ ...ok, durationSeconds: undefined, endsAt: past }, 400, 'endsAt', /after the start/],
      [{ ...ok, durationSeconds: undefined, startsAt: new Date(Date.now() + 7_200_000).toISOString(), endsAt: new Date(Date.now() + 3_600_000).toISOString() }, 400, 'endsAt'],
      [{ ...ok, durationSeconds: undefined, endsAt: 'tomorrow' }, 400, 'endsAt'],
      [{ ...ok, durationSeconds: undefined }, 400, 'endsAt', /endsAt or durationSeconds/],
      [{ ...ok, durationSeconds: 10 }, 400, 'durationSeconds'],
      [{ ...ok, comment: '' }, 400, 'comment'],
      [{ ...ok, comment: 'a\u0000b' }, 400, 'comment'],
      [{ ...ok, extra: 1 }, 400, 'extra'],
    ]);
    expect((await t.call('POST', '/api/silences', { body: ok })).status).toBe(401);
  });

  it('a pathological regex is matched in linear time (RE2): the preview of (a+)+$ against long label values answers at once', async () => {
    await t.call('PATCH', `/api/servers/${web._id}`, { cookie: admin, body: { labels: { env: 'prod', team: 'web', blob: `${'a'.repeat(199)}b` } } });
    const started = performance.now();
    const res = await t.call('POST', '/api/silences/preview', { cookie: user, body: { matchers: [{ name: 'label.blob', op: '=~', value: '(a+)+$' }] } });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ alertCount: 0, serverCount: 0, warning: expect.stringContaining('matches nothing') });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('the silence preview lists the open alerts and servers matched now, and warns when nothing or no rule name matches', async () => {
    const p = await t.call('POST', '/api/silences/preview', { cookie: user, body: { matchers: [{ name: 'hostname', op: '=~', value: 'web-.*' }] } });
    expect(p.body.result).toMatchObject({ alertCount: 1, serverCount: 1, warning: null, alerts: [{ alertname: 'high_cpu_usage', hostname: 'web-01', status: 'firing' }], servers: [{ hostname: 'web-01' }] });
    const labels = await t.call('POST', '/api/silences/preview', { cookie: user, body: { matchers: [{ name: 'label.env', op: '=~', value: 'prod|staging' }] } });
    expect(labels.body.result.servers.map((s: { hostname: string }) => s.hostname)).toEqual(['db-01', 'web-01']);
    const typo = await t.call('POST', '/api/silences/preview', { cookie: user, body: { matchers: [{ name: 'alertname', op: '=', value: 'high_cpu_usge' }] } });
    expect(typo.body.result).toMatchObject({ alertCount: 0, serverCount: 2, warning: 'No rule is named “high_cpu_usge”: this matches no alert.' });
    const bad = await t.call('POST', '/api/silences/preview', { cookie: user, body: { matchers: [{ name: 'hostname', op: '=~', value: '[' }] } });
    expect(bad).toMatchObject({ status: 400, body: { field: 'matchers.0.value' } });
  });

  it('maintenance windows: create one-off and recurring ones (admin and sysadmin only), read their next occurrence, list occurrences for the calendar, delete', async () => {
    const start = new Date(Date.now() + 86_400_000);
    const body = { name: 'Sunday patching', serverIds: [web._id], startsAt: start.toISOString(), endsAt: new Date(start.getTime() + 7_200_000).toISOString(), timezone: 'Europe/Berlin', rrule: 'FREQ=WEEKLY' };
    expect((await t.call('POST', '/api/maintenance-windows', { cookie: user, body })).status).toBe(403);
    const res = await t.call('POST', '/api/maintenance-windows', { cookie: admin, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.result).toMatchObject({ state: 'scheduled', rrule: 'FREQ=WEEKLY', next: { start: start.toISOString() }, marked: 0, createdBy: { username: expect.any(String) } });
    const from = new Date(start.getTime() - 3_600_000);
    const occ = await t.call('GET', `/api/maintenance-windows/occurrences?from=${from.toISOString()}&to=${new Date(from.getTime() + 20 * 86_400_000).toISOString()}`, { cookie: user });
    expect(occ.body.result.filter((o: { name: string }) => o.name === 'Sunday patching')).toHaveLength(3);
    expect((await t.call('GET', `/api/maintenance-windows/occurrences?from=${from.toISOString()}&to=${new Date(from.getTime() + 70 * 86_400_000).toISOString()}`, { cookie: user })).body).toMatchObject({ field: 'to' });
    expect((await t.call('GET', `/api/maintenance-windows/occurrences?from=soon&to=later`, { cookie: user })).body).toMatchObject({ field: 'from' });
    const edited = await t.call('PATCH', `/api/maintenance-windows/${res.body.result._id}`, { cookie: admin, body: { rrule: null, comment: 'once only' } });
    expect(edited.body.result).toMatchObject({ rrule: null, comment: 'once only' });
    expect((await t.call('DELETE', `/api/maintenance-windows/${res.body.result._id}`, { cookie: admin })).status).toBe(200);
  });

  it('windows refuse bad input with a 400 naming the field (§7): end before start, an RRULE that never occurs, an unknown zone, covering nothing', async () => {
    const start = new Date(Date.now() + 86_400_000);
    const ok = { name: 'w', serverIds: [web._id], startsAt: start.toISOString(), endsAt: new Date(start.getTime() + 3_600_000).toISOString() };
    await refused('POST', '/api/maintenance-windows', [
      [{ ...ok, endsAt: ok.startsAt }, 400, 'endsAt', /after the start/],
      [{ ...ok, endsAt: new Date(start.getTime() - 1000).toISOString() }, 400, 'endsAt'],
      [{ ...ok, rrule: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30' }, 400, 'rrule', /never occurs/],
      [{ ...ok, rrule: 'FREQ=DAILY;UNTIL=20200101T000000Z' }, 400, 'rrule', /never occurs/],
      [{ ...ok, rrule: 'FREQ=MINUTELY' }, 400, 'rrule', /at most daily/],
      [{ ...ok, rrule: 'every sunday' }, 400, 'rrule'],
      [{ ...ok, rrule: 'DTSTART:20260101T000000Z\nFREQ=DAILY' }, 400, 'rrule'],
      [{ ...ok, timezone: 'Mars/Olympus' }, 400, 'timezone'],
      [{ ...ok, serverIds: [] }, 400, 'serverIds', /covers servers/],
      [{ ...ok, serverIds: ['00000000-0000-4000-8000-000000000000'] }, 400, 'serverIds.0'],
      [{ ...ok, serverIds: ['nope'] }, 400, 'serverIds.0'],
      [{ ...ok, serverIds: [], matchers: [{ name: 'hostname', op: '=~', value: '*' }] }, 400, 'matchers.0.value'],
      [{ ...ok, name: ' ' }, 400, 'name'],
      [{ ...ok, endsAt: new Date(start.getTime() + 40 * 86_400_000).toISOString() }, 400, 'endsAt', /31 days/],
    ]);
  });

  it('a window over the past marks the alerts that opened inside it as planned downtime', async () => {
    const [alert] = await t.database.query<{ id: string; created_at: Date }>(`select id, created_at from alerts where hostname = 'web-01'`);
    const res = await t.call('POST', '/api/maintenance-windows', {
      cookie: admin,
      body: { name: 'Yesterday’s upgrade', serverIds: [web._id], startsAt: new Date(new Date(alert!.created_at).getTime() - 60_000).toISOString(), endsAt: new Date(Date.now() + 1000).toISOString() },
    });
    expect(res.body.result.marked).toBe(1);
    const detail = await t.call('GET', `/api/alerts/${alert!.id}`, { cookie: admin });
    expect(detail.body.result.timeline.at(-1).note).toMatch(/^Marked as planned downtime: window “Yesterday’s upgrade” \(/);
    // Editing it does not mark twice.
    expect((await t.call('PATCH', `/api/maintenance-windows/${res.body.result._id}`, { cookie: admin, body: { comment: 'done' } })).body.result.marked).toBe(0);

    // The incident report marks planned downtime: the window, the alert inside it, and the
    // counts; db-01's alert, which no window covers, stays an incident.
    const [other] = await t.database.query<{ id: string }>(
      `insert into alerts (server_id, hostname, instance, alertname, type, severity, status) select id, 'db-01', '10.73.0.2', 'instance_down', 'resouce_alert', 'critical', 'firing' from servers where hostname = 'db-01' returning id`,
    );
    try {
      const from = new Date(new Date(alert!.created_at).getTime() - 120_000).toISOString();
      const to = new Date(Date.now() + 60_000).toISOString();
      const report = await t.call('GET', `/api/incident-report?from=${from}&to=${to}`, { cookie: admin });
      expect(report.status, JSON.stringify(report.body)).toBe(200);
      const md: string = report.body.result.markdown;
      expect(md).toContain('- **Planned downtime:** 1 maintenance window; 1 alert opened during planned downtime (not counted as incidents)\n- **Unplanned alerts:** 1\n');
      expect(md).toMatch(/\n## Planned downtime\n\n- \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC to \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC: maintenance window “Yesterday’s upgrade” \([^;]+; web-01\)\n\n## Alerts\n/);
      expect(md).toMatch(/### high\\_cpu\\_usage on web-01 \(planned downtime\)\n\n- \*\*Host:\*\* web-01 \(10\.73\.0\.1\)\n- \*\*Planned downtime:\*\* opened inside maintenance window “Yesterday’s upgrade” \(/);
      expect(md).toContain('### instance\\_down on db-01\n');
      // One server's report lists only the windows that can cover it.
      const dbId = (await t.database.query<{ id: string }>(`select id from servers where hostname = 'db-01'`))[0]!.id;
      const dbReport = (await t.call('GET', `/api/incident-report?from=${from}&to=${to}&serverId=${dbId}`, { cookie: admin })).body.result.markdown as string;
      expect(dbReport).toContain('### instance\\_down on db-01\n');
      expect(dbReport).not.toContain('Planned downtime');
      const webReport = (await t.call('GET', `/api/incident-report?from=${from}&to=${to}&serverId=${web._id}`, { cookie: admin })).body.result.markdown as string;
      expect(webReport).toContain('- **Unplanned alerts:** 0\n');
    } finally {
      await t.database.query('delete from alerts where id = $1', [other!.id]);
    }
  });

  it('escalation policies and rule routing settings: stored, returned, and refused when they name nothing or contradict themselves', async () => {
    const dba = (await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: 'DBA' } })).body.result;
    const [someone] = await t.database.query<{ id: string }>(`select id from users limit 1`);
    const res = await t.call('POST', '/api/notification-groups', {
      cookie: admin,
      body: { name: 'Ops', escalationSteps: [{ afterSeconds: 900, groupId: dba._id }, { afterSeconds: 1800, userIds: [someone!.id] }], repeatIntervalSeconds: 3600, ackReminderSeconds: 14_400 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.result).toMatchObject({ escalationSteps: [{ afterSeconds: 900, groupId: dba._id, userIds: [] }, { afterSeconds: 1800, groupId: null, userIds: [someone!.id] }], repeatIntervalSeconds: 3600, ackReminderSeconds: 14_400 });
    await refused('PATCH', `/api/notification-groups/${res.body.result._id}`, [
      [{ escalationSteps: [{ afterSeconds: 900 }] }, 400, 'escalationSteps.0.groupId', /a group or at least one user/],
      [{ escalationSteps: [{ afterSeconds: 30, groupId: dba._id }] }, 400, 'escalationSteps.0.afterSeconds'],
      [{ escalationSteps: [{ afterSeconds: 900, groupId: res.body.result._id }] }, 400, 'escalationSteps.0.groupId', /another group/],
      [{ escalationSteps: [{ afterSeconds: 900, groupId: '00000000-0000-4000-8000-000000000000' }] }, 400, 'escalationSteps.0.groupId'],
      [{ escalationSteps: [{ afterSeconds: 900, userIds: ['00000000-0000-4000-8000-000000000000'] }] }, 400, 'escalationSteps.0.userIds.0'],
      [{ repeatIntervalSeconds: 0 }, 400, 'repeatIntervalSeconds'],
      [{ ackReminderSeconds: 'often' }, 400, 'ackReminderSeconds'],
    ]);
    const [config] = (await t.call('POST', '/api/alert-config/get-alert-config/all', { cookie: admin, body: { filter: { serverId: web._id } } })).body.result.data;
    const rules = config.rules.map((r: Record<string, unknown>) => (r.name === 'high_cpu_usage' ? { ...r, suppressOnHostDown: false, minNotifyIntervalSeconds: 1800, flapTransitions: 4, flapWindowSeconds: 1800 } : r));
    const saved = await t.call('PATCH', `/api/alert-config/update-alert-config/${config._id}`, { cookie: admin, body: { ...config, rules } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.result.rules.find((r: { name: string }) => r.name === 'high_cpu_usage')).toMatchObject({ suppressOnHostDown: false, minNotifyIntervalSeconds: 1800, flapTransitions: 4, flapWindowSeconds: 1800 });
    const bad = config.rules.map((r: Record<string, unknown>) => (r.name === 'high_cpu_usage' ? { ...r, flapTransitions: 4, flapWindowSeconds: null } : r));
    await refused('PATCH', `/api/alert-config/update-alert-config/${config._id}`, [[{ ...config, rules: bad }, 400, 'rules.0.flapWindowSeconds']]);
    // Reset takes the routing defaults too.
    const reset = await t.call('PATCH', `/api/alert-config/reset-alert-rules/${config._id}`, { cookie: admin });
    expect(reset.body.result.rules.find((r: { name: string }) => r.name === 'high_cpu_usage')).toMatchObject({ suppressOnHostDown: true, minNotifyIntervalSeconds: null, flapTransitions: null, flapWindowSeconds: null });
  });
});
