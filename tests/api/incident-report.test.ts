import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertEvents, alerts, commandHistory } from '../../server/db/schema';
import type { Role } from '../../server/contract/permissions';
import { backends, startTestApp, type TestApp } from './harness';

type Who = Role | 'anonymous';
const at = (iso: string) => new Date(iso);
const W = { from: '2026-01-10T09:00:00Z', to: '2026-01-10T12:00:00Z' };

describe.each(await backends())('incident report on $name', (backend) => {
  let t: TestApp;
  const cookies = new Map<Who, string | undefined>();
  let admin: string;
  let web: { _id: string; hostname: string; ipaddress: string };
  let db1: { _id: string; hostname: string; ipaddress: string };
  const ids: Record<string, string> = {};

  const report = (query: Record<string, string>, who: Who = 'admin') => t.call('GET', `/api/incident-report?${new URLSearchParams(query)}`, { cookie: cookies.get(who) });
  const server = async (hostname: string, ipaddress: string) => {
    const res = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname, ipaddress, operating_system: 'linux' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.result as { _id: string; hostname: string; ipaddress: string };
  };
  /** Alerts and their timelines at fixed times: the evaluator only writes "now". */
  const alert = async (key: string, s: { _id: string; hostname: string; ipaddress: string }, a: { alertname: string; createdAt: string; resolvedAt?: string; status?: 'firing' | 'resolved' | 'snoozed' }, events: { type: 'firing' | 'resolved' | 'snoozed' | 'playbook_action'; at: string; note?: string; by?: string }[]) => {
    const [row] = await t.database.db
      .insert(alerts)
      .values({
        serverId: s._id,
        hostname: s.hostname,
        instance: s.ipaddress,
        alertname: a.alertname,
        type: 'resouce_alert',
        severity: 'critical',
        status: a.status ?? (a.resolvedAt ? 'resolved' : 'firing'),
        createdAt: at(a.createdAt),
        updatedAt: at(a.resolvedAt ?? a.createdAt),
        resolvedAt: a.resolvedAt ? at(a.resolvedAt) : null,
      })
      .returning();
    ids[key] = row!.id;
    if (events.length) await t.database.db.insert(alertEvents).values(events.map((e) => ({ alertId: row!.id, type: e.type, at: at(e.at), note: e.note ?? null, username: e.by ?? null })));
  };
  const command = (when: string, username: string, cmd: string, input: unknown, outcome = 'ok', error: string | null = null) =>
    t.database.db.insert(commandHistory).values({ username, command: cmd, input, source: 'cmdline', outcome, error, durationMs: 12, createdAt: at(when) });

  beforeAll(async () => {
    t = await startTestApp(backend);
    for (const who of ['admin', 'sysadmin', 'user', 'anonymous'] as Who[]) {
      if (who === 'anonymous') cookies.set(who, undefined);
      else {
        const u = await t.addUser({ role: who, username: `${who}-report` });
        cookies.set(who, await t.signIn(u.email, u.password));
      }
    }
    admin = cookies.get('admin')!;
    web = await server('web-report', '10.77.0.1');
    db1 = await server('db-report', '10.77.0.2');

    // Open during the window: fired before it, resolved inside it.
    await alert('a1', web, { alertname: 'high_cpu_usage', createdAt: '2026-01-10T08:00:00Z', resolvedAt: '2026-01-10T09:30:00Z' }, [
      { type: 'firing', at: '2026-01-10T08:00:00Z' },
      { type: 'resolved', at: '2026-01-10T09:30:00Z', note: 'Condition cleared' },
    ]);
    // Over before the window, but someone wrote its post-mortem note inside it.
    await alert('a2', web, { alertname: 'instance_down', createdAt: '2026-01-10T06:00:00Z', resolvedAt: '2026-01-10T07:00:00Z' }, [
      { type: 'firing', at: '2026-01-10T06:00:00Z' },
      { type: 'resolved', at: '2026-01-10T07:00:00Z', by: 'ann' },
      { type: 'playbook_action', at: '2026-01-10T10:00:00Z', note: 'Root cause: a | pipe in the config\n## not a heading', by: 'ann' },
    ]);
    // Fired inside, still open.
    await alert('a3', db1, { alertname: 'critical_disk_usage', createdAt: '2026-01-10T11:00:00Z' }, [{ type: 'firing', at: '2026-01-10T11:00:00Z' }]);
    // Outside: after the window, and over before it without anything inside.
    await alert('a4', web, { alertname: 'after_window', createdAt: '2026-01-10T13:00:00Z' }, [{ type: 'firing', at: '2026-01-10T13:00:00Z' }]);
    await alert('a5', db1, { alertname: 'before_window', createdAt: '2026-01-10T05:00:00Z', resolvedAt: '2026-01-10T06:00:00Z' }, [
      { type: 'firing', at: '2026-01-10T05:00:00Z' },
      { type: 'resolved', at: '2026-01-10T06:00:00Z' },
    ]);

    await command('2026-01-10T08:59:00Z', 'ann', 'server.show', { server: web.hostname });
    await command('2026-01-10T10:15:00Z', 'ann', 'server.edit', { server: web.hostname, suppressAlarm: 'yes' });
    await command('2026-01-10T10:20:00Z', 'bob', 'alert.update', { alert: ids.a3, status: 'resolved' }, 'error', 'boom');
    await command('2026-01-10T10:30:00Z', 'ann', 'alert.update', { alert: ids.a2, log: 'filed' });
    await command('2026-01-10T11:00:00Z', 'carol', 'dashboard.refresh', {});
    await command('2026-01-10T12:01:00Z', 'carol', 'server.show', { server: web.hostname });
  });
  afterAll(async () => t.close());

  it('lists the alerts open or touched in the window with their timelines, and the commands run in it, in time order', async () => {
    const res = await report(W);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ alerts: 3, commands: 4 });
    const md: string = res.body.result.markdown;
    expect(md.split('\n')[0]).toBe('# Incident report: all servers, 2026-01-10 09:00:00 to 2026-01-10 12:00:00 UTC');
    expect(md).toContain('- **Alerts:** 3 (1 fired in the window, 1 resolved in the window, 1 still open at its end)');
    expect(md).toContain('- **Hosts involved:** db-report, web-report');
    expect(md).toContain('- **Commands run:** 4 (3 ok, 1 error)');
    expect(md).toContain('- **People involved:** ann, bob, carol');
    expect([...md.matchAll(/^### (.*)$/gm)].map((m) => m[1])).toEqual(['instance\\_down on web-report', 'high\\_cpu\\_usage on web-report', 'critical\\_disk\\_usage on db-report']);
    expect(md).not.toContain('after\\_window');
    expect(md).not.toContain('before\\_window');
    // The note, quoted and escaped, with who wrote it.
    expect(md).toContain('- 2026-01-10 10:00:00 UTC: Note by ann\n  > Root cause: a \\| pipe in the config\\\n  > \\#\\# not a heading');
    const rows = md.split('\n').filter((l) => /^\| 2026/.test(l));
    expect(rows).toEqual([
      '| 2026-01-10 09:30:00 | Opsdeck | Alert high\\_cpu\\_usage on web-report resolved: Condition cleared | Resolved |',
      '| 2026-01-10 10:00:00 | ann | Note on alert instance\\_down on web-report: Root cause: a \\| pipe in the config \\#\\# not a heading | noted |',
      // Rows written before the server kept the trail were the browser's reports, and say so.
      '| 2026-01-10 10:15:00 | ann | server.edit web-report --suppressAlarm yes | ok (client-reported) |',
      `| 2026-01-10 10:20:00 | bob | alert.update --alert ${ids.a3} --status resolved | error: boom (client-reported) |`,
      `| 2026-01-10 10:30:00 | ann | alert.update --log filed --alert ${ids.a2} | ok (client-reported) |`,
      '| 2026-01-10 11:00:00 | Opsdeck | Alert critical\\_disk\\_usage on db-report fired | Active |',
      '| 2026-01-10 11:00:00 | carol | dashboard.refresh | ok (client-reported) |',
    ]);
  });

  it('for one server: only its alerts, and only commands that name it or one of its alerts', async () => {
    const res = await report({ ...W, serverId: web._id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ alerts: 2, commands: 2 });
    const md: string = res.body.result.markdown;
    expect(md.split('\n')[0]).toBe('# Incident report: web-report (10.77.0.1), 2026-01-10 09:00:00 to 2026-01-10 12:00:00 UTC');
    expect(md).toContain('server.edit web-report');
    expect(md).toContain(`alert.update --log filed --alert ${ids.a2}`);
    expect(md).not.toContain('db-report');
    expect(md).not.toContain('dashboard.refresh');

    const other = await report({ ...W, serverId: db1._id });
    expect(other.body.result).toMatchObject({ alerts: 1, commands: 1 });
    expect(other.body.result.markdown).toContain(`alert.update --alert ${ids.a3} --status resolved | error: boom (client-reported)`);
  });

  it('reads notes and commands written through the API just now, with who wrote them and what they touched', async () => {
    const note = await t.call('PATCH', `/api/alerts/${ids.a3}`, {
      cookie: cookies.get('user'),
      body: { status: 'resolved', log: 'Freed **space** on /var' },
      headers: { 'x-opsdeck-command': 'alert.resolve', 'x-opsdeck-source': 'palette', 'x-opsdeck-command-line': encodeURIComponent(`alert.resolve --alert ${ids.a3} --note "Freed **space** on /var"`) },
    });
    expect(note.status, JSON.stringify(note.body)).toBe(200);
    // A sysadmin's run through the API: the server's record names the server by its hostname.
    const maintenance = await t.call('PATCH', `/api/servers/${db1._id}`, {
      cookie: cookies.get('sysadmin'),
      body: { suppressAlarm: 'yes' },
      headers: { 'x-opsdeck-command': 'server.toggle-maintenance', 'x-opsdeck-source': 'palette', 'x-opsdeck-command-line': encodeURIComponent(`server.toggle-maintenance --server ${db1._id} --mode on`) },
    });
    expect(maintenance.status, JSON.stringify(maintenance.body)).toBe(200);
    const res = await report({ from: new Date(Date.now() - 3_600_000).toISOString(), to: String(Date.now() + 60_000) }, 'user');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const md: string = res.body.result.markdown;
    expect(md).toContain('Resolved by user-report\n  > Freed \\*\\*space\\*\\* on /var');
    expect(md).toContain('| sysadmin-report | server.toggle-maintenance db-report on | ok |');
    // The server's own record of the change: the line the browser ran, its alert by name (a ref in
    // a code span: GFM would link it as an address), one row with the resolution it made.
    expect(md).toContain('| user-report | alert.resolve `critical_disk_usage@db-report` --note "Freed \\*\\*space\\*\\* on /var" | ok |');
    expect(md).not.toContain('Alert critical\\_disk\\_usage on db-report resolved');
    // Calls made without a command are named by their route, with what they touched.
    expect(md).toContain('| admin-report | POST /api/servers (server web-report) | ok |');
    expect(md).toContain('- **People involved:** admin-report, sysadmin-report, user-report');
  });

  it('lists at most 500 alerts and says how many it left out', async () => {
    const values = Array.from({ length: 501 }, (_, i) => ({
      serverId: db1._id,
      hostname: db1.hostname,
      instance: db1.ipaddress,
      alertname: `bulk_${i}`,
      type: 'resouce_alert',
      severity: 'info' as const,
      status: 'resolved' as const,
      createdAt: new Date(Date.UTC(2025, 5, 1, 10, 0, i % 60, i)),
      resolvedAt: new Date(Date.UTC(2025, 5, 1, 10, 30)),
    }));
    await t.database.db.insert(alerts).values(values);
    const res = await report({ from: '2025-06-01T09:00:00Z', to: '2025-06-01T12:00:00Z' });
    expect(res.status).toBe(200);
    expect(res.body.result.alerts).toBe(500);
    expect(res.body.result.markdown).toContain('_Only the first 500 of 501 alerts are listed;');
  });

  it('refuses a bad window with a 400 that says what is wrong', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ to: W.to }, /^from: from is required/],
      [{ from: W.from }, /^to: to is required/],
      [{ from: 'yesterday', to: W.to }, /^from: Cannot read "yesterday"/],
      [{ from: '2026-01-10T09:00', to: W.to }, /^from: Cannot read "2026-01-10T09:00" as a date-time; use ISO 8601 with a zone/],
      [{ from: W.to, to: W.from }, /^to: The end of the window \(to\) must be after its start \(from\)$/],
      [{ from: W.from, to: W.from }, /must be after its start/],
      [{ from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:01Z' }, /^to: A report covers at most 31 days$/],
      [{ ...W, serverId: 'web-report' }, /^serverId: serverId must be a server id$/],
      [{ ...W, server: web._id }, /^Unknown field "server"/],
    ];
    for (const [query, message] of cases) {
      const res = await report(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.message, JSON.stringify(query)).toMatch(message);
    }
    expect((await report({ from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' })).status).toBe(200);
    const missing = await report({ ...W, serverId: '00000000-0000-4000-8000-000000000000' });
    expect(missing.status).toBe(404);
  });

  it('is for signed-in people of every role', async () => {
    for (const who of ['admin', 'sysadmin', 'user'] as Who[]) expect((await report(W, who)).status, who).toBe(200);
    expect((await report(W, 'anonymous')).status).toBe(401);
  });
});
