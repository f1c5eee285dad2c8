import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allCommands, createAppRegistry } from '../../commands';
import { expandAlias } from '../../commands/aliases';
import { argNamed, parseCommandLine, tokenize } from '../../server/contract/parse-command-line';
import { PRINT_API_FLAG } from '../../commands/print-api';
import { backends, startTestApp, type TestApp } from '../api/harness';
import { appContext } from './app-context';

/**
 * Issue 24 §5: the forms a command's own description documents work as it says. First, for
 * every command, each `--name` its description mentions is one the command line takes, and each
 * example line it quotes parses into an input its schema accepts; then each documented form runs
 * against the real API (PGlite), and what it did is read back.
 */
const find = (id: string) => allCommands.find((c) => c.id === id);

describe('every description documents forms the command line takes', () => {
  it.each(allCommands.filter((c) => /--[a-z]/i.test(c.description ?? '')).map((c) => [c.id]))('%s: its --names', (id) => {
    const def = find(id)!;
    // Names inside a quoted example belong to its line (alias.set quotes alert.snooze's): those lines are parsed below.
    const names = [...def.description!.replace(/`[^`]*`/g, '').matchAll(/--([a-zA-Z][\w-]*)/g)].map((m) => m[1]!).filter((n) => `--${n}` !== PRINT_API_FLAG);
    for (const name of names) expect(argNamed(def.args ?? [], name), `${id} --${name}`).toBeDefined();
  });

  const examples = allCommands.flatMap((c) => [...(c.description ?? '').matchAll(/`([a-z]+\.[a-z-]+(?: [^`]*)?)`/g)].map((m) => [c.id, m[1]!] as const)).filter(([, line]) => find(line.split(' ')[0]!));
  it.each(examples)('%s: `%s`', (_id, line) => {
    const { id, input } = parseCommandLine(line, find);
    const parsed = find(id)!.input.safeParse(input);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });

  it('finds the examples it checks', () => {
    expect(examples.map(([, line]) => line.split(' ')[0])).toEqual(expect.arrayContaining(['rules.enable', 'rules.set-threshold', 'silence.create', 'alias.set']));
  });
});

describe('documented forms against the real API', () => {
  let t: TestApp;
  let admin: { _id: string; username: string; role: 'admin'; cookie: string };
  const registry = createAppRegistry();
  let location = { pathname: '/', search: {} as Record<string, unknown> };
  const asked: string[] = [];
  const aliases: { name: string; line: string }[] = [];

  const line = async (text: string) => {
    const ctx = appContext(t, registry, admin, 'cmdline', () => true);
    ctx.location = () => location;
    (ctx.confirm as unknown as { mockImplementation: (f: (r: { message: string }) => Promise<boolean>) => void }).mockImplementation(async (r) => {
      asked.push(r.message);
      return true;
    });
    const { id, input } = parseCommandLine(expandAlias(text, aliases), registry.get);
    const result = await registry.dispatch(id, input, { source: 'cmdline', ctx });
    return { result, ctx, data: result.data as any };
  };
  const api = async (method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown) => {
    const res = await t.call(method, `/api/${path}`, { cookie: admin.cookie, body });
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body.result;
  };
  const alertsOf = async (hostname: string) => (await api('POST', 'alerts/all', { pageNumber: 1, pageSize: 100, filter: { hostname: { contains: hostname } } })).data as any[];
  let server: { _id: string };
  const addAlert = async (hostname: string, alertname: string, severity: string, status = 'firing', minutesAgo = 1, service: string | null = null) => {
    const [row] = await t.database.query<{ id: string }>(
      `insert into alerts (server_id, subject, hostname, instance, alertname, type, severity, status, summary, service, created_at)
       values ($1, $2, $3, '10.88.0.1', $4, 'resouce_alert', $5, $6, $7, $8, now() - make_interval(mins => $9)) returning id`,
      [server._id, `${alertname}-${hostname}-${service ?? ''}-${minutesAgo}`, hostname, alertname, severity, status, `${alertname} on ${hostname}`, service, minutesAgo],
    );
    return row!.id;
  };

  beforeAll(async () => {
    const [pglite] = await backends();
    t = await startTestApp(pglite!);
    const a = await t.addUser({ role: 'admin', username: 'forms-admin' });
    admin = { _id: a._id, username: 'forms-admin', role: 'admin', cookie: await t.signIn(a.email, a.password) };
    server = await api('POST', 'servers', { hostname: 'web-01', ipaddress: '10.88.0.1', operating_system: 'linux', isAgentConfigured: true });
    await api('POST', 'notification-groups', { name: 'On call' });
    await api('POST', 'notification-groups', { name: 'DBA' });
    for (const username of ['ann', 'bob']) await t.addUser({ role: 'sysadmin', username });
  }, 60_000);
  afterAll(async () => t?.close());

  it('alert.ack and alert.unack take the filter their descriptions name (--host, --name, --severity, --status)', async () => {
    await addAlert('ack-web-1', 'high_cpu_usage', 'critical');
    await addAlert('ack-web-2', 'high_disk_usage', 'critical');
    await addAlert('ack-web-3', 'high_cpu_usage', 'warning');
    await addAlert('ack-web-4', 'high_cpu_usage', 'critical', 'resolved');
    const owned = (alerts: any[]) => alerts.map((x) => `${x.hostname}:${x.acknowledgement ? x.acknowledgement.by.username : '-'}`).sort();

    const bySeverity = await line('alert.ack --severity critical');
    expect(asked.at(-1)).toBe('Acknowledge 2 alerts? (severity critical; until it resolves)');
    expect(bySeverity.result.message).toBe('Acknowledged 2 alerts matching severity critical.');
    expect(owned(await alertsOf('ack-web-'))).toEqual(['ack-web-1:forms-admin', 'ack-web-2:forms-admin', 'ack-web-3:-', 'ack-web-4:-']);

    await line('alert.unack --host ack-web --name cpu');
    expect(owned(await alertsOf('ack-web-'))).toEqual(['ack-web-1:-', 'ack-web-2:forms-admin', 'ack-web-3:-', 'ack-web-4:-']);

    await line('alert.ack --host ack-web-3 --status firing --note "on it" --for 2h');
    const third = (await alertsOf('ack-web-3'))[0];
    expect(third.acknowledgement).toMatchObject({ note: 'on it', by: { username: 'forms-admin' } });
    expect(Date.parse(third.acknowledgement.until) - Date.parse(third.acknowledgement.at)).toBe(2 * 3600_000);

    // One alert or a filter: both at once is refused before anything changes.
    await expect(line('alert.ack high_cpu_usage@ack-web-1 --severity critical')).rejects.toThrow('Name an alert or a filter (--host, --name, --severity, --status), not both');
    expect((await alertsOf('ack-web-1'))[0].acknowledgement).toBeNull();
    await expect(line('alert.unack')).rejects.toThrow('Name an alert, or a filter: --host, --name, --severity or --status');
  });

  it('alert.ack --for and alert.snooze --for take 30m, 2h and 1d, on an alert named as name@host', async () => {
    await addAlert('for-db-1', 'high_cpu_usage', 'critical');
    const acked = await line('alert.ack high_cpu_usage@for-db-1 --for 30m');
    expect(Date.parse(acked.data.acknowledgement.until) - Date.parse(acked.data.acknowledgement.at)).toBe(30 * 60_000);
    const snoozed = await line('alert.snooze high_cpu_usage@for-db-1 --note "after the deploy" --for 1d');
    expect(snoozed.data.status).toBe('snoozed');
    expect(Math.round((Date.parse(snoozed.data.snoozedUntil) - Date.now()) / 3600_000)).toBe(24);
    expect(snoozed.result.message).toBe('Snoozed **high cpu usage on for-db-1** for 1d.');
  });

  it('token.create --name ci [--read-only]', async () => {
    expect((await line('token.create --name ci --read-only')).data).toMatchObject({ name: 'ci', scope: 'read' });
    expect((await line('token.create --name deploy')).data).toMatchObject({ name: 'deploy', scope: 'role' });
    expect((await line('token.create ci-2 --readOnly')).data).toMatchObject({ scope: 'read' });
  });

  it('history.export and incident.report: --from -6h --to now [--server web-1]', async () => {
    const exported = await line('history.export --from -6h --to now --server web-01');
    expect(exported.data.url).toMatch(new RegExp(`^/api/command-history/export\\?from=.+&to=.+&serverId=${server._id}$`));
    const report = await line('incident.report --from -6h --to now --server web-01');
    expect(report.data).toMatchObject({ serverId: server._id });
    expect(report.data.to - report.data.from).toBe(6 * 3600_000);
  });

  it('server.time-range --from … --to … on the open server detail', async () => {
    location = { pathname: `/servers/show/${server._id}`, search: { tab: 'cpu' } };
    const { ctx } = await line('server.time-range --from 2026-11-23T09:00 --to 2026-11-23T12:00');
    expect(ctx.navigate).toHaveBeenCalledWith(expect.stringMatching(new RegExp(`^/servers/show/${server._id}\\?.*range=custom`)));
    const url = new URL((ctx.navigate as any).mock.calls[0][0], 'http://x');
    expect([Number(url.searchParams.get('from')), Number(url.searchParams.get('to'))]).toEqual([Date.parse('2026-11-23T09:00Z'), Date.parse('2026-11-23T12:00Z')]);
    location = { pathname: '/', search: {} };
  });

  it('check.create: --url, --host --port, --host, --kind tls, --interval; check.edit --latencyMs --certDays --downGrace --group', async () => {
    expect((await line('check.create "Shop front" --url http://127.0.0.1:9/health --interval 30s')).data).toMatchObject({ kind: 'http', intervalSeconds: 30 });
    expect((await line('check.create db-port --host 127.0.0.1 --port 5432')).data).toMatchObject({ kind: 'tcp' });
    expect((await line('check.create svc-dns --host svc.opsdeck.test')).data).toMatchObject({ kind: 'dns', intervalSeconds: 60 });
    expect((await line('check.create shop-cert --kind tls --host shop.opsdeck.test --port 443')).data).toMatchObject({ kind: 'tls' });
    const edited = (await line('check.edit "Shop front" --latencyMs 800 --certDays 21 --downGrace 2m --group "On call"')).data;
    const rule = (kind: string) => edited.rules.find((r: any) => r.kind === kind);
    expect([rule('latency').threshold, rule('cert_expiry').threshold, rule('down').timeLimit, rule('down').notificationGroup !== null]).toEqual([800, 21, 120, true]);
  });

  it('group.set-escalation --steps --repeat --ackReminder, and "off"/"none" clear them', async () => {
    const set = (await line('group.set-escalation "On call" --steps "15m: DBA; 30m: @ann, @bob" --repeat 1h --ackReminder 4h')).data;
    const [dba] = (await api('POST', 'notification-groups/all', { pageNumber: 1, pageSize: 5, filter: { name: { eq: 'DBA' } } })).data;
    const people = (await api('POST', 'users/all', { pageNumber: 1, pageSize: 50 })).data.filter((u: any) => ['ann', 'bob'].includes(u.username)).map((u: any) => u._id).sort();
    expect(set.escalationSteps.map((s: any) => [s.afterSeconds, s.groupId, [...s.userIds].sort()])).toEqual([
      [900, dba._id, []],
      [1800, null, people],
    ]);
    expect([set.repeatIntervalSeconds, set.ackReminderSeconds]).toEqual([3600, 14400]);
    const cleared = (await line('group.set-escalation "On call" --steps none --repeat off --ackReminder off')).data;
    expect([cleared.escalationSteps, cleared.repeatIntervalSeconds, cleared.ackReminderSeconds]).toEqual([[], null, null]);
  });

  it('group.edit-channel --clear signingSecret', async () => {
    await line('group.add-channel DBA webhook hook --webhook https://hooks.opsdeck.test/a --signingSecret s3cret');
    const cleared = (await line('group.edit-channel DBA hook --clear signingSecret')).data;
    expect(Object.keys(cleared.secrets)).toEqual(['url']);
  });

  it('rules.*: the examples with "high cpu usage" and --server web-01', async () => {
    
    const rule = async () => (await api('POST', 'alert-config/get-alert-config/all', { pageSize: 100, filter: { serverId: { eq: server._id } } })).data[0].rules.find((r: any) => r.name === 'high_cpu_usage');
    await line('rules.disable "high cpu usage" --server web-01');
    expect((await rule()).enabled).toBe(false);
    await line('rules.enable "high cpu usage" --server web-01');
    await line('rules.set-threshold "high cpu usage" 80 --server web-01');
    await line('rules.set-grace "high cpu usage" 2m --server web-01');
    await line('rules.set-severity "high cpu usage" critical --server web-01');
    await line('rules.set-group "high cpu usage" "On call" --server web-01');
    expect(await rule()).toMatchObject({ enabled: true, threshold: 80, timeLimit: 120, severity: 'critical', notificationGroup: expect.any(String) });
    await line('rules.set-group "high cpu usage" none --server web-01');
    expect((await rule()).notificationGroup).toBeNull();
    await line('rules.set-routing "high cpu usage" --server web-01 --hostDown off --minInterval 30m --flap 4/30m');
    expect(await rule()).toMatchObject({ suppressOnHostDown: false, minNotifyIntervalSeconds: 1800, flapTransitions: 4, flapWindowSeconds: 1800 });
    await line('rules.set-routing "high cpu usage" --server web-01 --hostDown on --minInterval off --flap off');
    expect(await rule()).toMatchObject({ suppressOnHostDown: true, minNotifyIntervalSeconds: null, flapTransitions: null, flapWindowSeconds: null });
  });

  it('widget.move --x --y and widget.resize --w --h', async () => {
    const { ctx } = await line('widget.pin web-01 memory "RAM Used" --title "Web memory"');
    const again = async (text: string) => {
      const { id, input } = parseCommandLine(text, registry.get);
      return (await registry.dispatch(id, input, { source: 'cmdline', ctx })).data as any;
    };
    expect(await again('widget.move "Web memory" --x 5 --y 0')).toMatchObject({ x: 5, y: 0 });
    expect(await again('widget.resize "Web memory" --w 6 --h 4')).toMatchObject({ w: 6, h: 4 });
  });

  it('alias.set ack1h "alert.snooze --for 1h"; then ack1h <alert> --note … runs it', async () => {
    await addAlert('alias-db-1', 'high_cpu_usage', 'warning');
    const saved = (await line('alias.set ack1h "alert.snooze --for 1h"')).data;
    aliases.push({ name: saved.name, line: saved.line });
    const snoozed = (await line('ack1h high_cpu_usage@alias-db-1 --note "known"')).data;
    expect(snoozed.status).toBe('snoozed');
    expect(Math.round((Date.parse(snoozed.snoozedUntil) - Date.now()) / 60_000)).toBe(60);
  });

  it('monitoring.set-alert-groups "On call", or --default', async () => {
    expect((await line('monitoring.set-alert-groups "On call"')).data.effective.map((g: any) => g.name)).toEqual(['On call']);
    const byDefault = (await line('monitoring.set-alert-groups --default')).data;
    expect(byDefault.groupIds).toBeNull();
    expect(byDefault.effective.map((g: any) => g.name).sort()).toEqual(['DBA', 'On call']);
  });

  it('silence.list --state expired; silence.create with matchers --for --comment; silence.edit --until / --for', async () => {
    expect((await line('silence.list --state expired')).ctx.navigate).toHaveBeenCalledWith(expect.stringContaining('state=expired'));
    const created = (await line('silence.create "hostname=~web-.*, alertname=high_cpu_usage" --for 2h --comment "Load test"')).data;
    expect(created).toMatchObject({ comment: 'Load test', matchers: [{ name: 'hostname', op: '=~', value: 'web-.*' }, { name: 'alertname', op: '=', value: 'high_cpu_usage' }] });
    expect(Math.round((Date.parse(created.endsAt) - Date.parse(created.startsAt)) / 60_000)).toBe(120);
    const until = new Date(Date.now() + 5 * 3600_000).toISOString().slice(0, 16);
    expect((await line(`silence.edit ${created._id} --until ${until}Z`)).data.endsAt).toBe(`${until}:00.000Z`);
    const longer = (await line(`silence.edit ${created._id} --for 3h`)).data;
    expect(Math.round((Date.parse(longer.endsAt) - Date.now()) / 60_000)).toBe(180);
  });

  it('maintenance.calendar --month; maintenance.create --servers/--matchers, --start --for/--end, --rrule --tz; maintenance.edit --rrule none', async () => {
    expect((await line('maintenance.calendar --month 2026-06')).ctx.navigate).toHaveBeenCalledWith(expect.stringContaining('month=2026-06'));
    const weekly = (await line('maintenance.create "Sunday patching" --servers web-01 --start "2026-06-07 02:00" --for 2h --rrule "FREQ=WEEKLY;BYDAY=SU" --tz Europe/Berlin')).data;
    const hours = (w: any) => (Date.parse(w.endsAt) - Date.parse(w.startsAt)) / 3600_000;
    expect(weekly).toMatchObject({ rrule: 'FREQ=WEEKLY;BYDAY=SU', timezone: 'Europe/Berlin', serverIds: [server._id] });
    expect(hours(weekly)).toBe(2);
    const once = (await line('maintenance.create "CPU work" --matchers "alertname=high_cpu_usage" --start "2026-06-07 02:00" --end "2026-06-07 05:00"')).data;
    expect(once).toMatchObject({ rrule: null, serverIds: [], matchers: [{ name: 'alertname', op: '=', value: 'high_cpu_usage' }] });
    expect(hours(once)).toBe(3);
    expect((await line('maintenance.edit "Sunday patching" --rrule none')).data.rrule).toBeNull();
  });

  it('status.create --items "Core / server web-01 = Database; check Shop front = Shop"; status.edit --items; status.post --title', async () => {
    const page = (await line('status.create public-api --title "Acme status" --items "Core / server web-01 = Database; check Shop front = Shop"')).data;
    // The group is per entry: "Core /" puts the server in Core, the check goes ungrouped.
    expect(page.groups.map((g: any) => [g.name, g.items.map((i: any) => `${i.kind} ${i.name} = ${i.displayName}`)])).toEqual([
      ['Core', ['server web-01 = Database']],
      ['', ['check Shop front = Shop']],
    ]);
    expect((await line('status.edit public-api --items "Core / server web-01 = Database"')).data.groups[0].items).toHaveLength(1);
    expect((await line('status.post public-api "We are investigating" --title Payments')).data).toMatchObject({ incident: { title: 'Payments', resolvedAt: null }, post: { body: 'We are investigating' }, opened: true });
  });

  it('a kebab-case --name reads as its argument, and an unknown one still names the arguments', () => {
    expect(parseCommandLine('rules.set-routing "high cpu usage" --host-down off --min-interval 30m', registry.get).input).toEqual({ rule: 'high cpu usage', hostDown: 'off', minInterval: '30m' });
    expect(() => parseCommandLine('token.create ci --read-write', registry.get)).toThrow('token.create has no argument --read-write (arguments: --name, --readOnly)');
    expect(tokenize('alert.ack --severity critical')).toEqual(['alert.ack', '--severity', 'critical']);
  });
});
