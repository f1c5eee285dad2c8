import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAppRegistry } from '../../commands';
import { parseCommandLine } from '../../server/contract/parse-command-line';
import { backends, startTestApp, type TestApp } from '../api/harness';
import { appContext } from './app-context';

/**
 * Another role ends the person's sessions and personal API tokens (issue 25 §4): the command that
 * changes it says so, so whoever ran it knows what they did.
 */
let t: TestApp;
const registry = createAppRegistry();
let admin: { _id: string; username: string; role: 'admin'; cookie: string };

beforeAll(async () => {
  const [pglite] = await backends();
  t = await startTestApp(pglite!);
  const a = await t.addUser({ role: 'admin', username: 'access-admin' });
  admin = { _id: a._id, username: 'access-admin', role: 'admin', cookie: await t.signIn(a.email, a.password) };
}, 60_000);
afterAll(async () => t?.close());

async function line(text: string) {
  const ctx = appContext(t, registry, admin, 'cmdline', () => true);
  const { id, input } = parseCommandLine(text, registry.get);
  return registry.dispatch(id, input, { source: 'cmdline', ctx });
}

it('user.set-role says how many sessions and API tokens the change ended', async () => {
  const ann = await t.addUser({ role: 'sysadmin', username: 'ann-access' });
  const cookie = await t.signIn(ann.email, ann.password);
  await t.signIn(ann.email, ann.password);
  const token = (await t.call('POST', '/api/auth/tokens', { cookie, body: { name: 'ci' } })).body.result.token as string;
  const result = await line('user.set-role ann-access --role user');
  expect(result.message).toBe('Updated **ann-access**: role is now User. Their access ended: 2 sessions signed out and 1 personal API token revoked; they sign in again and make new tokens.');
  expect((await t.app.inject({ method: 'GET', url: '/api/auth/whoami', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401);

  const bob = await t.addUser({ role: 'user', username: 'bob-access' });
  expect((await line(`user.set-role ${bob.email} --role sysadmin`)).message).toBe('Updated **bob-access**: role is now sysadmin. They had no session or personal API token open.');
  // Another field ends nothing and says nothing of it.
  expect((await line('user.set-phone bob-access --phonenumber "+1 555 0199"')).message).toBe('Updated **bob-access**: phone number is now +1 555 0199.');
});
