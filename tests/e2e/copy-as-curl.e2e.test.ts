import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { commandLine, openBrowser, openPalette, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';

/**
 * "Copy as curl" (issue 13) in the browser: Alt+C on the palette's chosen command asks its
 * arguments and copies curl instead of running; `--print-api` on the command line prints it. The
 * copied line, run by a shell with a personal API token, does what the command would have done.
 */
const baseURL = inject('baseURL');
const run = promisify(execFile);

describe('copy as curl', () => {
  let b: Browser;
  let admin: Awaited<ReturnType<typeof apiSession>>;
  let serverId: string;
  let token: string;
  const suppress = async () => (await admin.call('GET', `servers/${serverId}`)).body.result.suppressAlarm as string;

  beforeAll(async () => {
    admin = await apiSession(baseURL);
    serverId = (await admin.call('POST', 'servers', { hostname: 'curl-e2e-web', ipaddress: '10.95.0.1', operating_system: 'linux' })).body.result._id;
    token = (await admin.call('POST', 'auth/tokens', { name: 'curl e2e' })).body.result.token;
    b = await openBrowser(baseURL);
    await b.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
    await signIn(b.page);
  });
  afterAll(async () => b?.close());

  it('Alt+C on a palette command asks its arguments, copies curl instead of running, and the curl does it', async () => {
    const { page } = b;
    const input = await openPalette(page);
    await input.fill('Toggle server maintenance');
    const dialog = page.getByRole('dialog', { name: 'Command palette' });
    await shown(dialog.getByText(/copy as curl/));
    await input.press('Alt+c');
    await shown(dialog.getByText('Copy as curl', { exact: true }));
    await input.fill('curl-e2e-web');
    await page.getByRole('option', { name: /curl-e2e-web/ }).waitFor();
    await input.press('Enter');
    await input.fill('On');
    await input.press('Enter');
    const notice = page.getByTestId('notice');
    await shown(notice.getByText(/as curl \(1 call\)/));
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain(`-X PATCH '${baseURL}/api/servers/${serverId}'`);
    expect(copied).toContain('-H "Authorization: Bearer $OPSDECK_TOKEN"');
    expect(copied).toContain(`--data '{"suppressAlarm":"yes"}'`);
    // Copying ran nothing.
    expect(await suppress()).toBe('no');

    const answer = JSON.parse((await run('sh', ['-c', copied], { env: { ...process.env, OPSDECK_TOKEN: token } })).stdout);
    expect(answer.result.suppressAlarm).toBe('yes');
    expect(await suppress()).toBe('yes');
    const [record] = (await admin.call('POST', 'command-history/all', { pageNumber: 1, pageSize: 1, sort: { by: 'createdAt', direction: 'desc' }, filter: { command: { eq: 'server.toggle-maintenance' } } })).body.result.data;
    expect(record).toMatchObject({ source: 'api', outcome: 'ok', actorKind: 'token', actorLabel: 'curl e2e', username: 'admin', targets: [{ kind: 'server', id: serverId, name: 'curl-e2e-web' }] });
    // The history panel shows it as the person's run, through the token, with its command line
    // naming the server (issue 24 §4), not its id.
    await commandLine(page, 'history.show');
    const panel = page.getByRole('dialog', { name: 'Command history' });
    await panel.getByLabel('Filter by command').fill('server.toggle-maintenance');
    await shown(panel.getByText(/admin \(token curl e2e\) · .* · api/));
    await shown(panel.getByText(/^server\.toggle-maintenance curl-e2e-web on$/));
    await page.keyboard.press('Escape');
  });

  it('--print-api on the command line prints the curl and changes nothing', async () => {
    const { page } = b;
    await commandLine(page, 'server.toggle-maintenance curl-e2e-web --mode off --print-api');
    const out = page.getByRole('dialog', { name: 'Command line' });
    await shown(out.getByText(`/api/servers/${serverId}`, { exact: false }));
    const printed = await out.locator('code').last().innerText();
    expect(printed).toContain(`curl -sS -X PATCH '${baseURL}/api/servers/${serverId}'`);
    expect(printed).toContain(`--data '{"suppressAlarm":"no"}'`);
    expect(await suppress()).toBe('yes');
    // A view-only command has no call to print.
    await commandLine(page, 'server.show curl-e2e-web --print-api');
    await shown(out.getByText(/changes nothing through the API here/));
  });
});
