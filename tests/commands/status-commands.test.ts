import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAppRegistry } from '../../commands';
import { parseCommandLine } from '../../server/contract/parse-command-line';
import { CommandError } from '../../commands/registry';
import type { Role } from '../../server/contract/permissions';
import { titleOf } from '../../server/contract/status-pages';
import { servers } from '../../server/db/schema';
import { publicUrl } from '../../src/lib/markdown';
import { backends, startTestApp, type TestApp } from '../api/harness';
import { appContext } from './app-context';

/** The status page commands (issue 16 §3) on the command line, against the real API on PGlite. */
let t: TestApp;
const registry = createAppRegistry();
const users: Record<'admin' | 'sysadmin', { _id: string; username: string; role: Role; cookie: string }> = {} as never;
async function line(text: string, role: 'admin' | 'sysadmin' = 'admin', confirm = true) {
  const ctx = appContext(t, registry, users[role], 'cmdline', () => confirm);
  const { id, input } = parseCommandLine(text, registry.get);
  return registry.dispatch(id, input, { source: 'cmdline', ctx });
}
async function fails(text: string, role: 'admin' | 'sysadmin' = 'admin', confirm = true): Promise<CommandError> {
  const err = await line(text, role, confirm).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, text).toBeInstanceOf(CommandError);
  return err as CommandError;
}
const pageNamed = async (slug: string) => (await t.call('POST', '/api/status-pages/all', { cookie: users.admin.cookie, body: { filter: { slug: { eq: slug } } } })).body.result.data[0];

beforeAll(async () => {
  const [pglite] = await backends();
  t = await startTestApp(pglite!);
  for (const role of ['admin', 'sysadmin'] as const) {
    const u = await t.addUser({ role, username: `status-cmd-${role}` });
    users[role] = { _id: u._id, username: `status-cmd-${role}`, role, cookie: await t.signIn(u.email, u.password) };
  }
  await t.database.db.insert(servers).values({ hostname: 'web-01.internal', ipaddress: '10.0.0.12', operatingSystem: 'linux' });
  await t.call('POST', '/api/checks', { cookie: users.admin.cookie, body: { name: 'Shop probe', kind: 'tcp', host: '127.0.0.1', port: 9, paused: true, intervalSeconds: 3600 } });
}, 60_000);
afterAll(async () => t?.close());

it('status.create composes groups from --items by names, with display names required', async () => {
  // One server twice (by hostname, then by IP address) is refused by the API, naming the item; nothing is written.
  const twice = await fails('status.create public-api --title "Acme status" --items "Core / server web-01.internal = Database; Web / check shop probe = Shop; Web / server 10.0.0.12 = Web tier"');
  expect(twice.message).toBe('groups.1.items.1.id: this server is already on the page');
  expect(await pageNamed('public-api')).toBeUndefined();
});

it('status.create writes the page when the items are distinct; a missing display name or a colliding slug is refused', async () => {
  const r = await line('status.create public-api --title "Acme status" --items "Core / server web-01.internal = Database; Web / check shop probe = Shop"');
  expect(r.message).toBe('Created status page **Acme status** at `/status/public-api` with 2 items.');
  const page = await pageNamed('public-api');
  expect(page.groups).toMatchObject([
    { name: 'Core', items: [{ kind: 'server', displayName: 'Database', showAddress: false }] },
    { name: 'Web', items: [{ kind: 'check', displayName: 'Shop', showAddress: false }] },
  ]);
  expect((await fails('status.create other --title Other --items "server web-01.internal"')).message).toContain('is not "[Group /] server|check <name> = Display name"');
  expect((await fails('status.create public-api --title Again')).message).toBe('slug: another status page already has the slug "public-api"');
  expect(await pageNamed('other')).toBeUndefined();
});

it('status.post opens and adds to one incident; status.resolve closes it; status.edit and status.delete by slug', async () => {
  let r = await line('status.post public-api "## Checkout errors\nWe are **investigating**."', 'sysadmin');
  expect(r.message).toBe('Opened the incident `Checkout errors` on **Acme status** (`/status/public-api`).');
  r = await line('status.post acme "Fix deployed."', 'sysadmin');
  expect(r.message).toBe('Posted an update to `Checkout errors` on **Acme status** (`/status/public-api`).');
  r = await line('status.resolve public-api', 'sysadmin');
  expect(r.message).toBe('Resolved `Checkout errors` on **Acme status** (`/status/public-api`).');
  expect((await fails('status.resolve public-api', 'sysadmin')).message).toBe('The status page "public-api" has no open incident to resolve');
  expect((await fails('status.edit public-api --title "Acme"', 'sysadmin')).outcome).toBe('refused');
  r = await line('status.edit public-api --title Acme --slug acme-status');
  expect(r.message).toBe('Updated status page **Acme** (`/status/acme-status`).');
  const view = (await t.call('GET', '/api/public/status/acme-status')).body.result;
  expect(view.incidents[0].posts.map((p: { body: string }) => p.body)).toEqual(['## Checkout errors\nWe are **investigating**.', 'Fix deployed.', 'This incident has been resolved.']);
  expect((await fails('status.delete acme-status', 'admin', false)).outcome).toBe('cancelled');
  r = await line('status.delete acme-status');
  expect(r.message).toBe('Deleted status page **Acme** (`/status/acme-status`).');
  expect(await pageNamed('acme-status')).toBeUndefined();
});

it('titles and links of posts', () => {
  expect(titleOf('## Checkout **errors**\nmore')).toBe('Checkout errors');
  expect(titleOf('\n\n- [Payments](https://x.example) slow')).toBe('Payments slow');
  expect(titleOf('   ')).toBe('Incident');
  expect(publicUrl('https://example.com/a')).toBe('https://example.com/a');
  expect(publicUrl('mailto:ops@example.com')).toBe('mailto:ops@example.com');
  for (const bad of ['javascript:alert(1)', ' JavaScript:alert(1)', 'data:text/html,x', '/servers', '//evil.example', 'vbscript:x']) expect(publicUrl(bad), bad).toBeNull();
});
