import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { commandLine, openBrowser, runFromPalette, settled, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';

/**
 * The audit trail as operators see it (issue 11 §2, issue 13's history defect): a run from the
 * palette is recorded by the server with its source and the host by name; a command line is
 * recorded so that it re-runs exactly as written (group.create's emails were JSON before).
 */

type Session = Awaited<ReturnType<typeof apiSession>>;
interface Entry {
  _id: string;
  origin: string;
  command: string;
  commandLine: string | null;
  source: string;
  outcome: string;
  username: string;
  targets: { kind: string; id: string; name: string }[];
}
const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 200 });

describe('audit trail', () => {
  const baseURL = inject('baseURL');
  const tag = randomBytes(3).toString('hex');
  const hostname = `audit-${tag}`;
  const group = `audit-group-${tag}`;
  let admin: Session;
  let serverId: string;
  let b: Browser;

  const records = async (command: string) =>
    (await admin.call<{ result: { data: Entry[] } }>('POST', 'command-history/all', { pageNumber: 1, pageSize: 20, filter: { command } })).body.result.data;

  beforeAll(async () => {
    admin = await apiSession(baseURL);
    const created = await admin.call<{ result: { _id: string } }>('POST', 'servers', { hostname, ipaddress: `10.97.${Number.parseInt(tag.slice(0, 2), 16)}.${Number.parseInt(tag.slice(2, 4), 16)}`, operating_system: 'linux' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    serverId = created.body.result._id;
    b = await openBrowser(baseURL);
    await signIn(b.page);
  });

  afterAll(async () => {
    await b?.close();
    if (serverId) await admin.call('DELETE', `servers/${serverId}`);
    const g = await admin.call<{ result: { data: { _id: string }[] } }>('POST', 'notification-groups/all', { pageNumber: 1, pageSize: 5, filter: { name: group } });
    for (const row of g.body?.result.data ?? []) await admin.call('DELETE', `notification-groups/${row._id}`);
  });

  it('records a palette run on the server with its source and the host by name, and the History panel shows both', async () => {
    const { page } = b;
    await page.goto('/servers');
    await runFromPalette(page, 'Toggle server maintenance', [hostname, 'On']);
    await eventually(async () => (await admin.call<{ result: { suppressAlarm: string } }>('GET', `servers/${serverId}`)).body.result.suppressAlarm).toBe('yes');

    const [rec] = (await records('server.toggle-maintenance')).filter((r) => r.targets.some((t) => t.id === serverId));
    expect(rec).toMatchObject({ origin: 'server', source: 'palette', outcome: 'ok', username: 'admin', targets: [{ kind: 'server', id: serverId, name: hostname }] });
    // The palette picked the server by id: the line re-runs on that server whatever it is called later.
    expect(rec!.commandLine).toBe(`server.toggle-maintenance --server ${serverId} --mode on`);

    await page.keyboard.press('Escape');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Alt+h');
    const panel = page.getByRole('dialog', { name: 'Command history' });
    await shown(panel);
    const row = panel.locator(`li[data-record="${rec!._id}"]`);
    await shown(row);
    expect(await row.textContent()).toMatch(/admin \(admin\) · .* · palette · /);
    // Shown by name (issue 24 §4); the stored line above re-runs by id.
    expect(await row.locator('[data-line]').textContent()).toBe(`server.toggle-maintenance ${hostname} on`);
    await page.keyboard.press('Escape');
  });

  it('a run that made no call (refused in the browser, or a view) leaves no record, and the command line still recalls it after a reload', async () => {
    const { page } = b;
    await page.goto('/servers');
    const posted: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/command-history') posted.push(r.url());
    });
    // Not acknowledged: the gate refuses before any call. Nothing happened on the server, so
    // History holds nothing of it (issue 25 §3): no browser's word is stored.
    await runFromPalette(page, 'Delete server', [hostname, 'No']);
    await shown(page.getByText(/consequences of deleting this server/).first());
    const line = `server.show ${hostname}`;
    await commandLine(page, line);
    await page.waitForURL(new RegExp(`/servers/show/${serverId}`));
    await settled(page);
    expect(posted).toEqual([]);
    expect((await records('server.delete')).filter((r) => r.targets.some((t) => t.id === serverId))).toEqual([]);
    expect(await records('server.show')).toEqual([]);

    // ↑ on the `:` line recalls the view's line from this browser's own store, after a reload too.
    await page.reload();
    await settled(page);
    await page.keyboard.press('Escape');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.type(':');
    const input = page.getByRole('textbox', { name: 'Command line' });
    await shown(input);
    await input.press('ArrowUp');
    expect(await input.inputValue()).toBe(line);
    await page.keyboard.press('Escape');
  });

  it('records group.create as a line that re-runs exactly as written', async () => {
    const { page } = b;
    const line = `group.create --name ${group} --emails "ops@example.com, oncall@example.com"`;
    await commandLine(page, line);
    await shown(page.getByText(/Created notification group/));
    const [rec] = (await records('group.create')).filter((r) => r.targets.some((t) => t.name === group));
    expect(rec).toMatchObject({ origin: 'server', source: 'cmdline', outcome: 'ok', targets: [{ kind: 'group', name: group }] });
    expect(rec!.commandLine).toBe(line);

    // Pasted back after the group is gone, the recorded line makes the same group again.
    await admin.call('DELETE', `notification-groups/${rec!.targets[0]!.id}`);
    await commandLine(page, rec!.commandLine!);
    await shown(page.getByText(/Created notification group/).nth(1));
    const again = await admin.call<{ result: { data: { name: string; emailList: string[] }[] } }>('POST', 'notification-groups/all', { pageNumber: 1, pageSize: 5, filter: { name: group } });
    expect(again.body.result.data).toMatchObject([{ name: group, emailList: ['ops@example.com', 'oncall@example.com'] }]);
    await page.keyboard.press('Escape');
  });

  it('downloads the window of the report as JSON Lines beside the markdown', async () => {
    const { page } = b;
    await commandLine(page, 'incident.report --from -1h --to now');
    await page.waitForURL((u) => u.pathname === '/incident-report');
    await page.keyboard.press('Escape');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download .jsonl' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^history-\d{8}T\d{6}Z-\d{8}T\d{6}Z\.jsonl$/);
    const lines = readFileSync((await download.path())!, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Entry);
    const mine = lines.filter((l) => l.command === 'group.create' && l.targets.some((t) => t.name === group));
    expect(mine.map((l) => [l.origin, l.source, l.commandLine])).toEqual([
      ['server', 'cmdline', `group.create --name ${group} --emails "ops@example.com, oncall@example.com"`],
      ['server', 'cmdline', `group.create --name ${group} --emails "ops@example.com, oncall@example.com"`],
    ]);
  });

  it('makes a personal API token in Account Settings, which works without a session and is revoked there', async () => {
    const { page } = b;
    await commandLine(page, 'account.open');
    const drawer = page.getByRole('dialog', { name: 'Account Settings' });
    await shown(drawer);
    await drawer.getByLabel('Token name').fill(`e2e-${tag}`);
    await drawer.getByRole('button', { name: 'Create token' }).click();
    const secret = (await drawer.getByLabel('New API token').textContent())!;
    expect(secret).toMatch(/^odt_/);
    // Only the token: no cookie, no x-requested-with.
    const res = await fetch(`${baseURL}/api/servers/${serverId}`, { method: 'PATCH', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify({ suppressAlarm: 'no' }) });
    expect(res.status).toBe(200);
    const id = res.headers.get('x-opsdeck-record')!;
    const rec = (await admin.call<{ result: Entry & { actorKind: string; actorLabel: string } }>('GET', `command-history/${id}`)).body.result;
    expect(rec).toMatchObject({ actorKind: 'token', actorLabel: `e2e-${tag}`, username: 'admin', targets: [{ kind: 'server', id: serverId, name: hostname }] });

    const row = drawer.getByRole('listitem').filter({ hasText: `e2e-${tag}` });
    await drawer.getByRole('button', { name: `Revoke e2e-${tag}` }).click();
    const confirm = page.getByRole('alertdialog');
    await shown(confirm.getByText(`Revoke the API token “e2e-${tag}”?`));
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await shown(row.getByText(/^Revoked /));
    expect((await fetch(`${baseURL}/api/auth/whoami`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(401);
    await page.keyboard.press('Escape');
  });
});
