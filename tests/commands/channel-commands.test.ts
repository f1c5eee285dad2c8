import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAppRegistry } from '../../commands';
import type { CommandContext } from '../../commands/define-command';
import { parseCommandLine } from '../../server/contract/parse-command-line';
import { redactInput } from '../../commands/redact';
import { CommandError } from '../../commands/registry';
import { ApiError, type Api } from '../../src/api/client';
import { backends, startTestApp, type TestApp } from '../api/harness';
import { PEER_SECRETS, startPeers, type Peers } from '../api/channel-peers';

/** Issue 15 §4: group.add-channel, group.remove-channel and group.test against the real API and local peers. */
let t: TestApp;
let cookie: string;
let peers: Peers;

function context() {
  const calls: string[] = [];
  const send = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) => {
    calls.push(`${method} ${path}`);
    const res = await t.call(method, `/api/${path}`, { cookie, body });
    if (res.status < 200 || res.status > 299) throw new ApiError(res.status, res.body ?? {});
    return res.body;
  };
  const api = { get: (p: string) => send('GET', p), post: (p: string, b?: unknown) => send('POST', p, b), patch: (p: string, b?: unknown) => send('PATCH', p, b), delete: (p: string) => send('DELETE', p) } as unknown as Api;
  const ctx: CommandContext = {
    api,
    user: { _id: '00000000-0000-4000-8000-000000000001', username: 'admin', email: 'admin@x', role: 'admin' },
    navigate: vi.fn(),
    invalidate: vi.fn(async () => {}),
    confirm: vi.fn(async () => true),
    ui: { colorMode: () => 'light', setColorMode: vi.fn(), open: vi.fn() },
    session: { signedIn: vi.fn(), signedOut: vi.fn() },
    run: vi.fn(async () => ({})),
  };
  return { ctx, calls };
}
const registry = createAppRegistry();
const line = async (text: string) => {
  const { id, input } = parseCommandLine(text, registry.get);
  const c = context();
  return { result: await registry.dispatch(id, input, { source: 'cmdline', ctx: c.ctx }), ...c, input };
};

beforeAll(async () => {
  peers = await startPeers();
  const [pglite] = await backends();
  t = await startTestApp(pglite!);
  const admin = await t.addUser({ role: 'admin' });
  cookie = await t.signIn(admin.email, admin.password);
  expect((await t.call('POST', '/api/notification-groups', { cookie, body: { name: 'Ops', emailEnabled: false } })).status).toBe(201);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await peers?.close();
});

describe('channel commands', () => {
  it('adds targets from one command line; secrets never reach the history; test reports each answer; remove takes one off', async () => {
    const teamsUrl = `${peers.url}/teams/workflows/xyz?sig=TEAMS-SIG-SECRET`;
    const added = await line(`group.add-channel Ops teams "Ops room" --webhook "${teamsUrl}"`);
    expect(added.result.message).toMatch(/^Added Microsoft Teams channel \*\*Ops room\*\* to \*\*Ops\*\* \(Ops room: http:\/\/127\.0\.0\.1:\d+\/…\)/);
    expect(JSON.stringify(added.result.data)).not.toContain('TEAMS-SIG-SECRET');
    // What the history keeps of the run.
    expect(JSON.stringify(redactInput(added.input))).not.toContain('TEAMS-SIG-SECRET');

    await line(`group.add-channel Ops ntfy phone --topic ${PEER_SECRETS.ntfyTopic} --token ${PEER_SECRETS.ntfyToken} --endpoint ${peers.url}/ntfy --priority 5`);
    const ok = await line('group.test Ops');
    expect(ok.result.message).toBe('Test notification from **Ops**: 2 of 2 channels accepted it.\n\n- ✓ Ops room (HTTP 202)\n- ✓ phone (HTTP 200)');
    expect(peers.calls.map((c) => c.peer).sort()).toEqual(['ntfy', 'teams']);
    expect(peers.calls.find((c) => c.peer === 'ntfy')!.body.priority).toBe(5);

    await line(`group.add-channel Ops telegram tg --chatId ${PEER_SECRETS.chatId} --botToken 42:AAwrongwrongwrongwrongwrong --endpoint ${peers.url}/tg`);
    const failed = line('group.test Ops');
    await expect(failed).rejects.toThrow(CommandError);
    await expect(failed).rejects.toThrow('Test notification from **Ops**: 2 of 3 channels accepted it.');
    await expect(line('group.test Ops --channel tg')).rejects.toThrow('- ✗ tg: `Telegram answered HTTP 401 (the bot token was refused)`');

    const removed = await line('group.remove-channel Ops tg');
    expect(removed.result.message).toBe('Removed Telegram channel **tg** from **Ops**.');
    expect((await t.call('GET', `/api/notification-groups/${(added.result.data as { groupId: string }).groupId}/channels`, { cookie })).body.result.map((c: { name: string }) => c.name)).toEqual(['Ops room', 'phone']);
    await expect(line('group.remove-channel Ops tg')).rejects.toThrow('Notification group "Ops" has no channel "tg"');
  });

  it('group.edit-channel changes a target in place: secrets left out are kept, --clear removes, arguments of another type and bad values are refused by name', async () => {
    await line(`group.add-channel Ops webhook edit-me --webhook ${peers.url}/hook/old --signingSecret ${PEER_SECRETS.signingSecret} --headers "X-Api-Key: EDIT-HEADER-SECRET"`);
    const edited = await line(`group.edit-channel Ops edit-me --name "signed hook" --webhook ${peers.url}/hook/signed`);
    expect(edited.result.message).toMatch(/^Updated Webhook channel \*\*signed hook\*\* of \*\*Ops\*\* \(signed hook: http:\/\/127\.0\.0\.1:\d+\/…\)\.$/);
    expect(edited.calls.filter((c) => c.startsWith('PATCH'))).toHaveLength(1);
    expect(JSON.stringify(redactInput(edited.input))).not.toContain('/hook/signed');
    // The signing secret and header were kept: the stand-in checks the signature.
    peers.calls.length = 0;
    await line('group.test Ops --channel "signed hook"');
    expect(peers.calls[0]).toMatchObject({ path: '/hook/signed', headers: { 'x-api-key': 'EDIT-HEADER-SECRET' } });

    const cleared = await line('group.edit-channel Ops "signed hook" --clear signingSecret,headers');
    expect(Object.keys((cleared.result.data as { secrets: object }).secrets)).toEqual(['url']);

    const cases: [string, string][] = [
      ['group.edit-channel Ops "signed hook" --routingKey abc', 'routingKey: does not apply to a Webhook channel'],
      ['group.edit-channel Ops "signed hook" --clear webhook', 'clear: webhook cannot be removed from a Webhook channel (it is required: give a new value instead)'],
      ['group.edit-channel Ops "signed hook"', 'Nothing to change on **signed hook**'],
      ['group.edit-channel Ops "signed hook" --webhook "not a url"', 'webhook: must be an http:// or https:// URL'],
      ['group.edit-channel Ops "signed hook" --name "Ops room"', 'This group already has a channel named "Ops room"'],
      ['group.edit-channel Ops nope --name x', 'Notification group "Ops" has no channel "nope"'],
    ];
    for (const [text, message] of cases) {
      const { id, input } = parseCommandLine(text, registry.get);
      const c = context();
      await expect(registry.dispatch(id, input, { source: 'cmdline', ctx: c.ctx })).rejects.toThrow(message);
    }
    const [stored] = (await t.call('GET', `/api/notification-groups/${(edited.result.data as { groupId: string }).groupId}/channels`, { cookie })).body.result.filter((c: { name: string }) => c.name === 'signed hook');
    expect(stored.secrets).toEqual({ url: `${peers.url}/…` });
  });

  it('refuses bad input before sending anything, naming the argument', async () => {
    const cases: [string, string][] = [
      ['group.add-channel Ops webhook hook --webhook "not a url"', 'webhook: must be an http:// or https:// URL'],
      ['group.add-channel Ops teams t2', 'webhook: is required'],
      ['group.add-channel Ops telegram t3 --chatId general --botToken 1:abc', 'chatId: must be a chat id'],
      ['group.add-channel Ops webhook h2 --webhook https://h.example/ --headers "no colon here"', 'headers: "no colon here" is not "Name: value"'],
    ];
    for (const [text, message] of cases) {
      const { id, input } = parseCommandLine(text, registry.get);
      const c = context();
      await expect(registry.dispatch(id, input, { source: 'cmdline', ctx: c.ctx })).rejects.toThrow(message);
      expect(c.calls.filter((x) => x.includes('/channels'))).toEqual([]);
    }
    await expect(line('group.add-channel Ops teams "Ops room" --webhook https://h.example/x')).rejects.toThrow('This group already has a channel named "Ops room"');
  });
});
