import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allCommands, createAppRegistry } from '../../commands';
import { defineCommand, type CommandContext } from '../../commands/define-command';
import { CommandError } from '../../commands/registry';
import { dispatchWithMarks, markedArg, previewList } from '../../commands/run-marked';
import { readWidgets, writeWidgets, type PinnedWidget } from '../../src/lib/pinned-widgets';
import { draftKey, type RuleDraft } from '../../commands/rules/rule-draft';
import { backends, startTestApp, type TestApp } from '../api/harness';
import { appContext } from './app-context';

/**
 * Undo and commands over marked rows, end to end against the real API on PGlite: each command that declares an inverse is run,
 * undone through the registry (as Ctrl+Z does), and the state read back from the server is what
 * it was before; the undo's history record names the run it undid (`undoOf`).
 */
const [pglite] = await backends();
let t: TestApp;
let admin: { _id: string; username: string; role: 'admin'; cookie: string };
const registry = createAppRegistry();
let ctx: CommandContext;
let octet = 0;

const api = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) => {
  const res = await t.call(method, `/api/${path}`, { cookie: admin.cookie, body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body.result;
};
const run = (id: string, input: unknown) => registry.dispatch(id, input, { source: 'cmdline', ctx });
const undo = () => registry.undo(ctx, 'hotkey');
const newServer = () => api('POST', 'servers', { hostname: `undo-${++octet}`, ipaddress: `10.77.0.${octet}`, operating_system: 'linux' });
const newAlert = async (status: 'firing' | 'resolved' | 'snoozed', snoozedUntil: Date | null = null) => {
  const s = await newServer();
  const [row] = await t.database.query<{ id: string }>(
    `insert into alerts (server_id, subject, hostname, instance, alertname, type, severity, status, summary, snoozed_until)
     values ($1, 'cpu', $2, $3, 'high_cpu_usage', 'resouce_alert', 'critical', $4, 'CPU high', $5) returning id`,
    [s._id, s.hostname, s.ipaddress, status, snoozedUntil],
  );
  return row!.id;
};
/** This person's newest history records, newest first. */
const history = async (n = 2) => (await api('POST', 'command-history/all', { pageNumber: 1, pageSize: n, filter: { username: { eq: admin.username } }, sort: { by: 'createdAt', direction: 'desc' } })).data as { _id: string; command: string; source: string; undoOf: string | null; input: any }[];

/** Every command whose undo the tests below have run. */
const exercised = new Set<string>();

/**
 * Runs, checks the undo entry exists, undoes, and checks the undo's record points at the run's.
 * A change held in the browser (`recorded: false`: a held rule edit, a pinned widget) made no API
 * write, so History holds nothing of the run or its undo (History is the server's, issue 25 §3).
 */
async function runAndUndo(id: string, input: unknown, { recorded = true } = {}) {
  exercised.add(id);
  const [last] = await history(1);
  const result = await run(id, input);
  expect(result.undo, `${id} offers undo`).toBeDefined();
  if (!recorded) {
    const undone = await undo();
    expect((await history(1))[0]?._id, `${id} and its undo leave no record`).toBe(last?._id);
    return { result, undone, undoRecords: [] };
  }
  const [ran] = await history(1);
  expect(ran!.command).toBe(id);
  const undone = await undo();
  const records = await history(10);
  const undoRecords = records.filter((r) => r.undoOf === ran!._id);
  expect(undoRecords.length, `undo of ${id} is recorded as the undo of its record`).toBeGreaterThan(0);
  expect(undoRecords.every((r) => r.source === 'hotkey')).toBe(true);
  return { result, undone, undoRecords };
}

beforeAll(async () => {
  t = await startTestApp(pglite!);
  const u = await t.addUser({ role: 'admin', username: 'undoer' });
  admin = { _id: u._id, username: 'undoer', role: 'admin', cookie: await t.signIn(u.email, u.password) };
  ctx = appContext(t, registry, admin);
});
afterAll(async () => t?.close());

describe('undo through the registry', () => {
  it('maintenance: back to the setting it had; a run that changed nothing offers no undo', async () => {
    const s = await newServer();
    await runAndUndo('server.toggle-maintenance', { server: s.hostname, mode: 'on' });
    expect((await api('GET', `servers/${s._id}`)).suppressAlarm).toBe('no');
    expect((await run('server.toggle-maintenance', { server: s._id, mode: 'off' })).undo).toBeUndefined();
  });

  it('alert status: resolve, reopen and snooze each go back to the status before, a timed snooze with what was left of it', async () => {
    const firing = await newAlert('firing');
    const { undoRecords } = await runAndUndo('alert.resolve', { alert: firing, note: 'fixed' });
    expect(undoRecords[0]).toMatchObject({ command: 'alert.reopen' });
    expect((await api('GET', `alerts/${firing}`)).status).toBe('firing');

    await runAndUndo('alert.snooze', { alert: firing, note: 'later', for: '2h' });
    expect((await api('GET', `alerts/${firing}`)).status).toBe('firing');

    const resolved = await newAlert('resolved');
    await runAndUndo('alert.reopen', { alert: resolved, note: 'back' });
    expect((await api('GET', `alerts/${resolved}`)).status).toBe('resolved');

    const until = new Date(Date.now() + 3_600_000);
    const snoozed = await newAlert('snoozed', until);
    await runAndUndo('alert.resolve', { alert: snoozed, note: 'done' });
    const back = await api('GET', `alerts/${snoozed}`);
    expect(back.status).toBe('snoozed');
    expect(Math.abs(Date.parse(back.snoozedUntil) - until.getTime())).toBeLessThan(120_000);

    // Resolving an alert that is already resolved only adds a note: nothing to undo.
    expect((await run('alert.resolve', { alert: resolved, note: 'again' })).undo).toBeUndefined();
  });

  it('rule edits: threshold, enabled, grace, severity and group go back, saved at once or held in the open tab', async () => {
    const s = await newServer();
    const config = await api('POST', `alert-config/create-default-alert-rules/${s._id}`);
    const group = await api('POST', 'notification-groups', { name: 'Undo rules', emailList: [] });
    const cpu = config.rules.find((r: { name: string }) => r.name === 'high_cpu_usage');
    const read = async () => (await api('POST', 'alert-config/get-alert-config/all', { pageNumber: 1, pageSize: 100, filter: { serverId: { eq: s._id } } })).data[0].rules.find((r: { _id: string }) => r._id === cpu._id);
    const original = await read();
    // rules.enable has something to undo only on a disabled rule.
    let disabledFirst = false;
    for (const [id, input] of [
      ['rules.set-threshold', { threshold: 70 }],
      ['rules.disable', {}],
      ['rules.enable', {}],
      ['rules.set-grace', { grace: '2m' }],
      ['rules.set-severity', { severity: original.severity === 'info' ? 'warning' : 'info' }],
      ['rules.set-group', { group: group.name }],
    ] as const) {
      if (id === 'rules.enable' && !disabledFirst) {
        await run('rules.disable', { rule: 'high cpu usage', server: s.hostname });
        disabledFirst = true;
        await runAndUndo(id, { rule: 'high cpu usage', server: s.hostname });
        expect((await read()).enabled).toBe(false);
        await run('rules.enable', { rule: 'high cpu usage', server: s.hostname });
        continue;
      }
      await runAndUndo(id, { rule: 'high cpu usage', server: s.hostname, ...input });
      expect(await read(), id).toEqual(original);
    }
    // With the server's Alerts Configuration tab open, the edit and its undo are held edits.
    const drafts = ctx.drafts!;
    drafts.set(draftKey(s._id), { serverId: s._id, hostname: s.hostname, base: { ...config, rules: config.rules }, edits: {} } satisfies RuleDraft);
    await runAndUndo('rules.set-threshold', { rule: 'high cpu usage', server: s._id, threshold: 60 }, { recorded: false });
    expect(drafts.get<RuleDraft>(draftKey(s._id))!.edits).toEqual({});
    drafts.set(draftKey(s._id), undefined);
  });

  it('notification groups: add takes off only what it added, remove puts back, edit restores, create deletes', async () => {
    const g = await api('POST', 'notification-groups', { name: 'Undo emails', emailList: ['a@example.com'] });
    await runAndUndo('group.add-email', { group: g.name, email: 'a@example.com, b@example.com, c@example.com' });
    expect((await api('GET', `notification-groups/${g._id}`)).emailList).toEqual(['a@example.com']);

    await runAndUndo('group.remove-email', { group: g._id, email: 'a@example.com' });
    expect((await api('GET', `notification-groups/${g._id}`)).emailList).toEqual(['a@example.com']);

    await runAndUndo('group.edit', { group: g._id, name: 'Renamed', emails: 'x@example.com', slackEnabled: true, slackChannel: '#ops' });
    expect(await api('GET', `notification-groups/${g._id}`)).toMatchObject({ name: 'Undo emails', emailList: ['a@example.com'], slackEnabled: false, slackChannel: null });

    exercised.add('group.create');
    const created = await run('group.create', { name: 'Short lived' });
    await undo();
    expect((await t.call('GET', `/api/notification-groups/${(created.data as { _id: string })._id}`, { cookie: admin.cookie })).status).toBe(404);
  });

  it('users and servers: a field edit goes back, a create is deleted', async () => {
    const u = await api('POST', 'users', { username: 'undo-user', email: 'undo-user@example.com', phonenumber: '+1 555 0199', password: 'pw-123456', role: 'user' });
    await runAndUndo('user.set-role', { user: u.username, role: 'sysadmin' });
    await runAndUndo('user.rename', { user: u._id, username: 'renamed-user' });
    await runAndUndo('user.set-email', { user: u._id, email: 'other@example.com' });
    await runAndUndo('user.set-phone', { user: u._id, phonenumber: '+1 555 0000' });
    expect(await api('GET', `users/${u._id}`)).toMatchObject({ username: 'undo-user', email: 'undo-user@example.com', role: 'user', phonenumber: '+1 555 0199' });

    const s = await newServer();
    await runAndUndo('server.edit', { server: s._id, hostname: 'moved-host', port: 9200 });
    expect(await api('GET', `servers/${s._id}`)).toMatchObject({ hostname: s.hostname, agentPort: 9100 });

    exercised.add('user.create');
    const created = await run('user.create', { username: 'gone-soon', email: 'gone@example.com', phonenumber: '1', password: 'pw-123456', role: 'user' });
    await undo();
    expect((await t.call('GET', `/api/users/${(created.data as { _id: string })._id}`, { cookie: admin.cookie })).status).toBe(404);
    exercised.add('server.create');
    const srv = await run('server.create', { hostname: 'gone-host', ipaddress: '10.77.1.1', os: 'linux' });
    await undo();
    expect((await t.call('GET', `/api/servers/${(srv.data as { _id: string })._id}`, { cookie: admin.cookie })).status).toBe(404);
  });

  it('pinned widgets: move, resize and edit go back; a pin is removed', async () => {
    const store = ctx.storage!;
    const w: PinnedWidget = { server: '00000000-0000-4000-8000-000000000001', type: 'cpu', title: 'CPU Busy', panelId: 77, refreshInterval: 30_000, x: 0, y: 0, w: 5, h: 5, i: 'w-undo' };
    writeWidgets(store, [w]);
    await runAndUndo('widget.move', { widget: 'w-undo', x: 4, y: 2 }, { recorded: false });
    await runAndUndo('widget.resize', { widget: 'CPU Busy', w: 8, h: 9 }, { recorded: false });
    await runAndUndo('widget.edit', { widget: 'w-undo', title: 'Renamed', refresh: '5m' }, { recorded: false });
    expect(readWidgets(store)).toEqual([w]);
  });

  it('pinned widgets: a pin is removed again', async () => {
    const s = await newServer();
    await t.database.query(`update servers set is_agent_configured = true where id = $1`, [s._id]);
    exercised.add('widget.pin');
    const before = readWidgets(ctx.storage!);
    await run('widget.pin', { server: s._id, type: 'cpu', panel: 77 });
    expect(readWidgets(ctx.storage!)).toHaveLength(before.length + 1);
    await undo();
    expect(readWidgets(ctx.storage!)).toEqual(before);
  });

  it('checks: pause and resume go back, a run that changed nothing offers no undo, a create is deleted', async () => {
    exercised.add('check.create');
    const created = await run('check.create', { name: 'Undo check', url: 'https://example.invalid/', paused: true });
    const id = (created.data as { _id: string })._id;
    expect((await run('check.pause', { check: id })).undo).toBeUndefined();
    await runAndUndo('check.resume', { check: id });
    expect((await api('GET', `checks/${id}`)).paused).toBe(true);
    await run('check.resume', { check: id });
    await runAndUndo('check.pause', { check: id });
    expect((await api('GET', `checks/${id}`)).paused).toBe(false);
    await run('check.create', { name: 'Undo check 2', url: 'https://example.invalid/2', paused: true });
    await undo();
    expect((await api('POST', 'checks/all', { pageNumber: 1, pageSize: 10, search: 'Undo check 2' })).count).toBe(0);
  });

  it('aliases: set (new or replacing) and remove go back; a line naming no command or a wrong flag is refused before anything is stored', async () => {
    const aliases = async () => ((await api('GET', 'aliases')) as { name: string; line: string }[]).map((a) => `${a.name}=${a.line}`);
    await runAndUndo('alias.set', { name: 'ack1h', line: 'alert.snooze --for 1h' });
    expect(await aliases()).toEqual([]);
    await run('alias.set', { name: 'ack1h', line: 'alert.snooze --for 1h' });
    await runAndUndo('alias.set', { name: 'ACK1H', line: 'alert.snooze --for 2h' });
    expect(await aliases()).toEqual(['ack1h=alert.snooze --for 1h']);
    await runAndUndo('alias.remove', { name: 'ack1h' });
    expect(await aliases()).toEqual(['ack1h=alert.snooze --for 1h']);
    expect((await run('alias.list', {})).message).toBe('- `ack1h` → `alert.snooze --for 1h`');
    await expect(run('alias.set', { name: 'oops', line: 'alert.snoze --for 1h' })).rejects.toThrow(/line: Unknown command "alert.snoze"/);
    await expect(run('alias.set', { name: 'oops', line: 'alert.snooze --during 1h' })).rejects.toThrow(/line: alert.snooze has no argument --during/);
    await expect(run('alias.set', { name: 'two.words', line: 'alert.snooze' })).rejects.toThrow(/name: may hold letters/);
    await expect(run('alias.remove', { name: 'nothing' })).rejects.toThrow('You have no alias "nothing"');
    expect(await aliases()).toEqual(['ack1h=alert.snooze --for 1h']);
  });

  it('channels and status pages: an added channel is removed again, a created page is deleted', async () => {
    const g = await api('POST', 'notification-groups', { name: 'Undo channels' });
    const { result } = await runAndUndo('group.add-channel', { group: g.name, type: 'webhook', name: 'hook', webhook: 'https://hooks.example.invalid/opsdeck' });
    expect((result.data as { _id?: string })._id).toBeDefined();
    expect(await t.database.query('select 1 from notification_channels where group_id = $1', [g._id])).toHaveLength(0);

    const page = await runAndUndo('status.create', { slug: 'undo-page', title: 'Undo page' });
    expect((page.result.data as { _id?: string })._id).toBeDefined();
    expect(await t.database.query("select 1 from status_pages where slug = 'undo-page'")).toHaveLength(0);
  });

  it('contact methods: an added method is removed again', async () => {
    const { result } = await runAndUndo('contact.add', { kind: 'email', label: 'Undo mail', to: 'undo@example.com' });
    expect((result.data as { _id?: string })._id).toBeDefined();
    expect(await t.database.query("select 1 from contact_methods where label = 'Undo mail'")).toHaveLength(0);
  });

  it('notification rules: an added step is removed again', async () => {
    // A verified method to name (its verification is tested in tests/api/contact-methods.test.ts).
    const { data } = await run('contact.add', { kind: 'email', label: 'Rule mail', to: 'undo-rule@example.com' });
    await t.database.query('update contact_methods set verified_at = now() where id = $1', [(data as { _id: string })._id]);
    const { result } = await runAndUndo('contact.rule-add', { method: 'Rule mail', after: 3 });
    expect((result.data as { _id?: string })._id).toBeDefined();
    expect(await t.database.query('select 1 from notification_rules where after_minutes = 3')).toHaveLength(0);
  });

  it('every command that declares an inverse had its undo run above', () => {
    expect([...exercised].sort()).toEqual(allCommands.filter((c) => c.inverse).map((c) => c.id).sort());
  });
});

describe('the undo stack', () => {
  const gate = () => {
    const r = createAppRegistry();
    const calls: string[] = [];
    r.register(
      defineCommand({
        id: 'test.set',
        title: 'Set',
        category: 'Test',
        input: z.object({ to: z.string() }),
        inverse: (_input, result) => ({ id: 'test.set', input: { to: result.before as string } }),
        run: ({ to }) => {
          calls.push(to);
          const before = calls.length > 1 ? calls[calls.length - 2] : 'start';
          return { message: `Set **${to}**.`, before };
        },
      }),
    );
    r.register(defineCommand({ id: 'test.drop', title: 'Drop', category: 'Test', input: z.object({}), destructive: true, run: () => ({}) }));
    r.register(defineCommand({ id: 'test.make', title: 'Make', category: 'Test', input: z.object({}), inverse: () => ({ id: 'test.drop', input: {} }), run: () => ({ message: 'Made.' }) }));
    return { r, calls };
  };

  it('undoes newest first, one person at a time, and says when there is nothing left', async () => {
    const { r, calls } = gate();
    const ann = appContext(t, r, admin);
    const bob = appContext(t, r, { ...admin, _id: '00000000-0000-4000-8000-0000000000b0', username: 'bob' });
    await r.dispatch('test.set', { to: 'one' }, { source: 'ui', ctx: ann });
    await r.dispatch('test.set', { to: 'two' }, { source: 'ui', ctx: ann });
    expect(r.peekUndo(admin._id)?.title).toBe('Set **two**.');
    expect(r.check('history.undo', bob)).toBe('Nothing to undo.');
    await expect(r.undo(bob, 'hotkey')).rejects.toThrow('Nothing to undo.');
    expect((await r.run('history.undo', {}, { source: 'hotkey', ctx: ann })).message).toBe('Undone: Set two');
    expect(await r.undo(ann, 'hotkey')).toMatchObject({ message: 'Undone: Set one' });
    expect(calls).toEqual(['one', 'two', 'one', 'start']);
    // Undo runs are not themselves pushed: the stack is empty now.
    expect(r.peekUndo(admin._id)).toBeUndefined();
  });

  it('a notice’s Undo names its run; a declined confirmation keeps it undoable', async () => {
    const { r } = gate();
    let answer = false;
    const c = appContext(t, r, admin, 'palette', () => answer);
    const made = await r.dispatch('test.make', {}, { source: 'palette', ctx: c });
    await r.dispatch('test.set', { to: 'x' }, { source: 'palette', ctx: c });
    await expect(r.undo(c, 'ui', made.undo!.key)).rejects.toMatchObject({ outcome: 'cancelled' });
    answer = true;
    await r.undo(c, 'ui', made.undo!.key);
    await expect(r.undo(c, 'ui', made.undo!.key)).rejects.toBeInstanceOf(CommandError);
    // The other run is still there.
    expect(r.peekUndo(admin._id)?.title).toBe('Set **x**.');
  });

  it('outlives a reload of the tab when given a storage', async () => {
    const saved = new Map<string, string>();
    const undoStorage = { get: (k: string) => saved.get(k) ?? null, set: (k: string, v: string) => void saved.set(k, v) };
    const before = createAppRegistry({ undoStorage });
    const s = await newServer();
    await before.dispatch('server.toggle-maintenance', { server: s._id, mode: 'on' }, { source: 'ui', ctx: appContext(t, before, admin) });
    const after = createAppRegistry({ undoStorage });
    expect(after.peekUndo(admin._id)?.title).toContain('Maintenance **on**');
    await after.undo(appContext(t, after, admin), 'hotkey');
    expect((await api('GET', `servers/${s._id}`)).suppressAlarm).toBe('no');
    expect(createAppRegistry({ undoStorage }).peekUndo(admin._id)).toBeUndefined();
  });

  it('runs of one batch are undone together', async () => {
    const { r, calls } = gate();
    const c = appContext(t, r, admin);
    for (const to of ['a', 'b', 'c']) await r.dispatch('test.set', { to }, { source: 'ui', ctx: c, batch: { id: 'marks-1', title: 'Set on 3 things' } });
    expect(await r.undo(c, 'hotkey')).toMatchObject({ message: 'Undone: Set on 3 things' });
    expect(calls).toEqual(['a', 'b', 'c', 'b', 'a', 'start']);
  });

});

describe('commands over marked rows', () => {
  it('fill the first entity argument of the marked kind, except in view-only commands', () => {
    const get = (id: string) => allCommands.find((c) => c.id === id)!;
    expect(markedArg(get('alert.resolve'), 'alert')?.name).toBe('alert');
    expect(markedArg(get('rules.disable'), 'server')?.name).toBe('server');
    expect(markedArg(get('rules.set-group'), 'group')?.name).toBe('group');
    expect(markedArg(get('history.rerun'), 'command')?.name).toBe('entry');
    expect(markedArg(get('alert.resolve'), 'server')).toBeUndefined();
    expect(markedArg(get('server.show'), 'server')).toBeUndefined();
    expect(markedArg(get('agent.configure'), 'server')).toBeUndefined();
    expect(previewList(['a', 'b', 'c'])).toBe('a, b and c');
    expect(previewList(['a', 'b', 'c', 'd'], 2)).toBe('a, b and 2 more');
  });

  it('run once per marked row after one confirmation naming them, as one undo', async () => {
    const asked: string[] = [];
    const c = appContext(t, registry, admin, 'palette', () => true);
    c.confirm = async (r) => (asked.push(`${r.title} | ${r.message}`), true);
    const servers = [await newServer(), await newServer(), await newServer()];
    const targets = { kind: 'server', items: servers.map((s) => ({ id: s._id, label: s.hostname })) };
    const result = await dispatchWithMarks(registry, 'server.toggle-maintenance', { mode: 'on' }, targets, { source: 'palette', ctx: c });
    expect(asked).toEqual([`Toggle server maintenance: 3 servers | Toggle server maintenance for 3 servers: ${servers[0].hostname}, ${servers[1].hostname} and ${servers[2].hostname}?`]);
    expect(result).toMatchObject({ message: 'Toggle server maintenance: done for 3 servers.', marked: { done: servers.map((s) => s._id), failed: [] } });
    for (const s of servers) expect((await api('GET', `servers/${s._id}`)).suppressAlarm).toBe('yes');
    expect(registry.peekUndo(admin._id)?.title).toBe('Toggle server maintenance on 3 servers');
    await registry.undo(c, 'hotkey');
    for (const s of servers) expect((await api('GET', `servers/${s._id}`)).suppressAlarm).toBe('no');
    // A target given explicitly wins over the marks.
    await dispatchWithMarks(registry, 'server.toggle-maintenance', { server: servers[0]._id, mode: 'on' }, targets, { source: 'palette', ctx: c });
    expect(asked).toHaveLength(1);
    expect((await api('GET', `servers/${servers[1]._id}`)).suppressAlarm).toBe('no');
  });

  it('ask once for a destructive command, keep the rows that failed, and do nothing when declined', async () => {
    const users = [];
    for (const n of [1, 2]) users.push(await api('POST', 'users', { username: `marked-${n}`, email: `marked-${n}@example.com`, phonenumber: '1', password: 'pw-123456', role: 'user' }));
    const targets = { kind: 'user', items: [...users.map((u) => ({ id: u._id, label: u.username })), { id: '00000000-0000-4000-8000-00000000dead', label: 'ghost' }] };
    let answer = false;
    let asked = 0;
    const c = appContext(t, registry, admin, 'cmdline');
    c.confirm = async () => (asked++, answer);
    await expect(dispatchWithMarks(registry, 'user.delete', {}, targets, { source: 'cmdline', ctx: c })).rejects.toMatchObject({ outcome: 'cancelled' });
    expect((await api('GET', `users/${users[0]._id}`)).username).toBe('marked-1');
    answer = true;
    asked = 0;
    const result = await dispatchWithMarks(registry, 'user.delete', {}, targets, { source: 'cmdline', ctx: c });
    expect(asked).toBe(1);
    expect(result.marked).toEqual({ done: users.map((u) => u._id), failed: ['00000000-0000-4000-8000-00000000dead'] });
    expect(result.message).toMatch(/^Delete user: done for 2 of 3\. Failed: ghost \(No user/);
    for (const u of users) expect((await t.call('GET', `/api/users/${u._id}`, { cookie: admin.cookie })).status).toBe(404);
  });
});
