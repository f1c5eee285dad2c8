import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAppRegistry } from '../../commands';
import { CheckFieldError, parseHeaders } from '../../commands/check/check-fields';
import { parseCommandLine } from '../../server/contract/parse-command-line';
import { CommandError } from '../../commands/registry';
import type { Role } from '../../server/contract/permissions';
import { backends, startTestApp, type TestApp } from '../api/harness';
import { appContext } from './app-context';
import { startCheckTargets, type CheckTargets } from '../check-targets';

/** The check commands (issue 16) on the command line, against the real API on PGlite and real local targets. */
let t: TestApp;
let targets: CheckTargets;
let cookies: Record<'admin' | 'user', string>;

const registry = createAppRegistry();
const users: Record<'admin' | 'user', { _id: string; username: string; role: Role; cookie: string }> = {} as never;
async function line(text: string, role: 'admin' | 'user' = 'admin', confirm = true) {
  const ctx = appContext(t, registry, users[role], 'cmdline', () => confirm);
  const { id, input } = parseCommandLine(text, registry.get);
  const result = await registry.dispatch(id, input, { source: 'cmdline', ctx });
  return { result, ctx };
}
const checkNamed = async (name: string) => (await t.call('POST', '/api/checks/all', { cookie: cookies.admin, body: { filter: { name: { eq: name } } } })).body.result.data[0];

beforeAll(async () => {
  const [pglite] = await backends();
  [t, targets] = await Promise.all([startTestApp(pglite!), startCheckTargets()]);
  for (const role of ['admin', 'user'] as const) {
    const u = await t.addUser({ role, username: `check-${role}` });
    users[role] = { _id: u._id, username: `check-${role}`, role, cookie: await t.signIn(u.email, u.password) };
  }
  cookies = { admin: users.admin.cookie, user: users.user.cookie };
}, 60_000);
afterAll(async () => {
  await t?.close();
  await targets?.close();
});

it('check.create infers the kind, takes durations and rule flags, and names the group', async () => {
  await t.call('POST', '/api/notification-groups', { cookie: cookies.admin, body: { name: 'Web team', emailList: ['web@example.com'] } });
  const { result } = await line(`check.create "Shop front" --url ${targets.httpUrl}/ok --interval 30s --contains operational --latencyMs 800 --group "web team" --downSeverity warning`);
  expect(result.message).toBe(`Created HTTP(S) check **Shop front** (${targets.httpUrl}/ok), every 30 s.`);
  const c = await checkNamed('Shop front');
  expect(c).toMatchObject({ kind: 'http', intervalSeconds: 30, keyword: 'operational', keywordMode: 'contains' });
  expect(c.rules.map((r: any) => [r.kind, r.enabled, r.threshold, r.severity, !!r.notificationGroup])).toEqual([
    ['down', true, null, 'warning', true],
    ['latency', true, 800, 'warning', true],
    ['cert_expiry', false, 14, 'warning', true],
  ]);
  await line(`check.create db-port --host 127.0.0.1 --port ${targets.tcpOpenPort}`);
  expect((await checkNamed('db-port')).kind).toBe('tcp');
  await line(`check.create svc-dns --host svc.opsdeck.test --resolver ${targets.dnsResolver} --expect 10.1.2.3`);
  expect(await checkNamed('svc-dns')).toMatchObject({ kind: 'dns', recordType: 'A', expectedAnswer: '10.1.2.3' });
});

it('check.run-now says what it found; check.pause and check.resume flip it; check.edit changes settings', async () => {
  const up = await line('check.run-now "shop front"');
  expect(up.result.message).toMatch(/^\*\*Shop front\*\* is up: up · \d+ ms · HTTP 200\.$/);
  await line('check.edit "Shop front" --lacks operational');
  const down = await line('check.run-now shop');
  expect(down.result.message).toMatch(/^\*\*Shop front\*\* is down: down · \d+ ms · HTTP 200 · The response contains "operational"\.$/);
  expect((await line('check.pause shop')).result.message).toBe('Paused **Shop front**.');
  expect((await checkNamed('Shop front')).paused).toBe(true);
  expect((await line('check.pause shop')).result.message).toBe('**Shop front** is already paused.');
  expect((await line('check.resume shop')).result.message).toBe('Resumed **Shop front**: it runs now and every 30 s.');
  const open = await line('check.edit shop');
  expect(open.ctx.navigate).toHaveBeenCalledWith(`/checks/edit/${(await checkNamed('Shop front'))._id}`);
});

it('refuses bad input naming the field, before or from the server', async () => {
  const err = await line('check.create bad --url ftp://x.example.com').catch((e: unknown) => e);
  expect(err).toBeInstanceOf(CheckFieldError);
  expect((err as CheckFieldError).field).toBe('url');
  expect((err as Error).message).toBe('the scheme "ftp" is not supported: use http or https');
  const both = await line('check.create bad --url http://x.example.com --contains a --lacks b').catch((e: unknown) => e);
  expect((both as CheckFieldError).field).toBe('contains');
  const what = await line('check.create bad').catch((e: unknown) => e);
  expect((what as Error).message).toMatch(/^Say what to check/);
  const interval = await line('check.create bad --url http://x.example.com --interval soon').catch((e: unknown) => e);
  expect((interval as Error).message).toBe('Create check: Interval must be a number of seconds or a duration like 30s, 2m, 1h.');
  expect(await checkNamed('bad')).toBeUndefined();
  const nobody = await line('check.pause nothing-like-this').catch((e: unknown) => e);
  expect((nobody as Error).message).toBe('No check matches "nothing-like-this"');
  const user = await line('check.pause shop', 'user').catch((e: unknown) => e);
  expect(user).toBeInstanceOf(CommandError);
  expect((user as CommandError).outcome).toBe('refused');
});

it('keeps header values out of the shared history', async () => {
  await line(`check.create "With auth" --url ${targets.httpUrl}/headers --headers "Authorization: Bearer s3cret"`);
  const history = await t.call('POST', '/api/command-history/all', { cookie: cookies.admin, body: { filter: { command: { eq: 'check.create' } }, pageSize: 100 } });
  expect(history.body.result.data.length).toBeGreaterThanOrEqual(4);
  expect(JSON.stringify(history.body)).not.toContain('s3cret');
  expect((await checkNamed('With auth')).headers).toEqual([{ name: 'Authorization', value: null, redacted: true }]);
  expect(parseHeaders('Authorization: Bearer a:b\nX-Team: ops\n')).toEqual([
    { name: 'Authorization', value: 'Bearer a:b' },
    { name: 'X-Team', value: 'ops' },
  ]);
});

it('check.delete asks with the name first, and a declined question deletes nothing', async () => {
  const declined = await line('check.delete db-port', 'admin', false).catch((e: unknown) => e);
  expect((declined as CommandError).outcome).toBe('cancelled');
  expect(await checkNamed('db-port')).toBeDefined();
  const { result, ctx } = await line('check.delete db-port');
  expect(ctx.confirm).toHaveBeenCalledWith(expect.objectContaining({ message: 'Delete the check “db-port” with its results, 90-day uptime and alerts? This cannot be undone.' }));
  expect(result.message).toBe(`Deleted check **db-port** (127.0.0.1:${targets.tcpOpenPort}).`);
  expect(await checkNamed('db-port')).toBeUndefined();
});
