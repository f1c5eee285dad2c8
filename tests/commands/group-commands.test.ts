import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAppRegistry } from '../../commands';
import type { CommandContext } from '../../commands/define-command';
import { GroupFieldError } from '../../commands/group/group-fields';
import { parseCommandLine } from '../../server/contract/parse-command-line';
import { CommandError } from '../../commands/registry';
import type { NotificationGroup } from '../../server/contract/alerts';
import type { Role } from '../../server/contract/permissions';
import { ApiError, type Api } from '../../src/api/client';
import { backends, startTestApp, type TestApp } from '../api/harness';

/**
 * The group commands against the real API on a real database (PGlite): what reaches the
 * server, what the person reads, and the refusals that must happen before anything is sent.
 */
let t: TestApp;
let cookies: Record<'admin' | 'user', string>;

/** The web client's Api, over app.inject instead of fetch; errors as the client throws them. */
function injectApi(cookie: string, calls: string[] = []): Api {
  const send = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) => {
    calls.push(`${method} ${path}`);
    const res = await t.call(method, `/api/${path}`, { cookie, body });
    if (res.status < 200 || res.status > 299) throw new ApiError(res.status, res.body ?? {});
    return res.body;
  };
  return {
    get: (path: string) => send('GET', path),
    post: (path: string, body?: unknown) => send('POST', path, body),
    patch: (path: string, body?: unknown) => send('PATCH', path, body),
    delete: (path: string) => send('DELETE', path),
  } as unknown as Api;
}

function context(role: Role, confirm = true) {
  const calls: string[] = [];
  const ctx: CommandContext = {
    api: injectApi(cookies[role === 'user' ? 'user' : 'admin'], calls),
    user: { _id: '00000000-0000-4000-8000-000000000001', username: role, email: `${role}@x`, role },
    navigate: vi.fn(),
    invalidate: vi.fn(async () => {}),
    confirm: vi.fn(async () => confirm),
    ui: { colorMode: () => 'light', setColorMode: vi.fn(), open: vi.fn() },
    session: { signedIn: vi.fn(), signedOut: vi.fn() },
    run: vi.fn(async () => ({})),
  };
  return { ctx, calls };
}

const registry = createAppRegistry();
const line = async (text: string, role: Role = 'admin', confirm = true) => {
  const { id, input } = parseCommandLine(text, registry.get);
  const c = context(role, confirm);
  const result = await registry.dispatch(id, input, { source: 'cmdline', ctx: c.ctx });
  return { result, ...c };
};
const findGroup = async (name: string): Promise<NotificationGroup | undefined> => {
  const r = await t.call('POST', '/api/notification-groups/all', { cookie: cookies.admin, body: { pageSize: 10, filter: { name: { eq: name } } } });
  return r.body.result.data[0];
};

beforeAll(async () => {
  const [pglite] = await backends();
  t = await startTestApp(pglite!);
  const admin = await t.addUser({ role: 'admin' });
  const user = await t.addUser({ role: 'user' });
  cookies = { admin: await t.signIn(admin.email, admin.password), user: await t.signIn(user.email, user.password) };
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('group commands', () => {
  it('creates a group from one command line with SPEC’s defaults and a comma-separated list', async () => {
    const { result, ctx } = await line('group.create --name "On call" --emails "ann@example.com, bob@example.com ann@EXAMPLE.com"');
    expect(result.message).toBe('Created notification group **On call** (2 emails, Slack off).');
    expect(await findGroup('On call')).toMatchObject({ description: '', emailEnabled: true, slackEnabled: false, slackChannel: null, emailList: ['ann@example.com', 'bob@example.com'] });
    expect(ctx.invalidate).toHaveBeenCalledWith(['notification-groups']);
  });

  it('refuses before sending: no name, Slack on without a channel, an address that is not one', async () => {
    for (const [text, message] of [
      ['group.create --name "  "', 'Create notification group: Name: Please enter notification group name.'],
      ['group.create --name Slacky --slackEnabled', 'Create notification group: Slack Channel: Please enter a Slack channel.'],
      ['group.create --name Bad --emails "ok@x.io, nope"', 'Create notification group: Email List: "nope" is not an email address like name@example.com.'],
    ] as const) {
      const err = await line(text).catch((e: unknown) => e);
      expect(err, text).toBeInstanceOf(CommandError);
      expect((err as Error).message).toBe(message);
    }
    expect(await findGroup('Slacky')).toBeUndefined();
  });

  it('puts the server’s 409 on the name field', async () => {
    const err = await line('group.create --name "on CALL"').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GroupFieldError);
    expect(err).toMatchObject({ field: 'name', message: 'A notification group named "on CALL" already exists' });
  });

  it('adds and removes addresses by name, skipping duplicates and refusing strangers', async () => {
    expect((await line('group.add-email "on call" carol@example.com,dave@example.com')).result.message).toBe('Added carol@example.com, dave@example.com to **On call**.');
    expect((await line('group.add-email "On call" CAROL@example.com')).result.message).toBe('CAROL@example.com is already on **On call**’s list.');
    expect((await findGroup('On call'))!.emailList).toEqual(['ann@example.com', 'bob@example.com', 'carol@example.com', 'dave@example.com']);
    await expect(line('group.add-email "On call" not-an-address')).rejects.toThrow('"not-an-address" is not an email address like name@example.com');
    expect((await line('group.remove-email "On call" BOB@example.com')).result.message).toBe('Removed BOB@example.com from **On call**.');
    await expect(line('group.remove-email "On call" zed@example.com')).rejects.toThrow('zed@example.com is not on **On call**’s email list');
    expect((await findGroup('On call'))!.emailList).toEqual(['ann@example.com', 'carol@example.com', 'dave@example.com']);
  });

  it('edits only what changed; with nothing to change it opens the drawer', async () => {
    const g = (await findGroup('On call'))!;
    const { result, calls } = await line(`group.edit ${g._id} --slackEnabled --slackChannel "#ops" --description "Night shift"`);
    expect(result.message).toBe('Updated notification group **On call** (3 emails, Slack #ops).');
    expect(calls.filter((c) => c.startsWith('PATCH'))).toHaveLength(1);
    expect(await findGroup('On call')).toMatchObject({ slackEnabled: true, slackChannel: '#ops', description: 'Night shift' });
    // Clearing the channel while Slack stays on: the server's rule, on the field.
    await expect(line('group.edit "On call" --slackChannel ""')).rejects.toMatchObject({ field: 'slackChannel', message: 'Please enter a Slack channel' });
    const same = await line('group.edit "On call" --name "On call"');
    expect(same.result.message).toBe('**On call** already has these settings.');
    expect(same.calls.filter((c) => c.startsWith('PATCH'))).toEqual([]);
    const open = await line('group.edit on');
    expect(open.ctx.navigate).toHaveBeenCalledWith(`/notification-groups/edit/${g._id}`);
  });

  it('resolves by id, name or a unique part; lists the candidates when several match', async () => {
    await line('group.create --name "Database team"');
    await line('group.create --name "Data science"');
    const show = await line('group.show science');
    expect(show.ctx.navigate).toHaveBeenCalledWith(`/notification-groups/show/${(await findGroup('Data science'))!._id}`);
    await expect(line('group.show data')).rejects.toThrow('2 groups match "data": Data science, Database team. Use the full name or the id.');
    await expect(line('group.show nothing-like-it')).rejects.toThrow('No group matches "nothing-like-it"');
  });

  it('deletes after SPEC’s confirmation; a typo is answered before asking; declining keeps it', async () => {
    const miss = context('admin');
    await expect(registry.run('group.delete', { group: 'no such group' }, { source: 'cmdline', ctx: miss.ctx })).rejects.toThrow('No group matches "no such group"');
    expect(miss.ctx.confirm).not.toHaveBeenCalled();

    const declined = await line('group.delete "Data science"', 'admin', false).catch((e: unknown) => e);
    expect(declined).toMatchObject({ outcome: 'cancelled' });
    expect(await findGroup('Data science')).toBeDefined();

    const { ctx } = await line('group.delete "Data science"');
    expect(ctx.confirm).toHaveBeenCalledWith({ title: 'Delete Notification Group', message: 'Are you sure you want to delete the group?', target: 'Data science · 0 emails', confirmLabel: 'Delete', cancelLabel: 'Cancel' });
    expect(await findGroup('Data science')).toBeUndefined();
  });

  it('lets the user role show groups but not change them', async () => {
    const shown = await line('group.show "On call"', 'user');
    expect(shown.ctx.navigate).toHaveBeenCalled();
    for (const text of ['group.create --name Mine', 'group.delete "On call"', 'group.add-email "On call" x@y.io', 'group.edit "On call" --name Mine']) {
      const err = await line(text, 'user').catch((e: unknown) => e);
      expect(err, text).toMatchObject({ outcome: 'refused', message: 'Only Admin or sysadmin accounts can do this.' });
    }
    expect(await findGroup('Mine')).toBeUndefined();
  });
});
