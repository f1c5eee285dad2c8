import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { commandLine, openBrowser, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';

/**
 * The On Call screens (issue 27 §1) in a real browser: the menu's On Call lists schedules with who
 * is on call now; a schedule shows its layers, the next two weeks and its overrides; an override
 * made on the command line appears there. Effects confirmed through the API.
 */
describe('on call', () => {
  let admin: Browser;
  let api: Awaited<ReturnType<typeof apiSession>>;
  const baseURL = inject('baseURL');
  const ids: Record<string, string> = {};
  let scheduleId = '';

  beforeAll(async () => {
    [admin, api] = await Promise.all([openBrowser(baseURL), apiSession(baseURL)]);
    for (const name of ['oc-ana', 'oc-ben']) {
      const made = await api.call('POST', 'users', { username: name, email: `${name}@example.com`, phonenumber: '+1 555 0142', password: 'pw-123456', role: 'user' });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      ids[name] = made.body.result._id;
    }
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const schedule = await api.call('POST', 'oncall-schedules', { name: 'Team e2e', timeZone: 'UTC', layers: [{ name: 'primary', participants: [ids['oc-ana'], ids['oc-ben']], shift: { length: 1, unit: 'days' }, start: yesterday, handoff: '00:00' }] });
    expect(schedule.status, JSON.stringify(schedule.body)).toBe(201);
    scheduleId = schedule.body.result._id;
    await signIn(admin.page);
  });
  afterAll(async () => admin?.close());

  it('lists schedules with who is on call, and shows one with its layers, the next two weeks and its overrides', async () => {
    const { page } = admin;
    const now = (await api.call('GET', `oncall/who?schedule=${scheduleId}`)).body.result[0].person.username as string;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'On Call' }).click();
    await shown(page.getByRole('heading', { name: 'On Call', level: 1 }));
    const row = page.getByRole('table', { name: 'On-call schedules' }).getByRole('row', { name: /Team e2e/ });
    await shown(row.getByText(new RegExp(`^${now} \\(primary\\) until`)));
    await row.getByText('Team e2e').click();
    await shown(page.getByRole('heading', { name: /Team e2e/, level: 1 }));
    await shown(page.getByRole('table', { name: 'Layers' }).getByText('oc-ana → oc-ben'));
    // Fourteen days of daily shifts: fourteen or fifteen spans, alternating.
    const spans = page.getByRole('listitem').filter({ hasText: /oc-(ana|ben)/ });
    await shown(spans.first());
    expect(await spans.count()).toBeGreaterThanOrEqual(14);

    const from = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 13) + ':00:00Z';
    const to = new Date(Date.parse(from) + 4 * 3_600_000).toISOString().replace('.000', '');
    await commandLine(page, `oncall.override "Team e2e" oc-ben --from ${from} --to ${to}`);
    await shown(page.getByRole('table', { name: 'Overrides' }).getByText('oc-ben'));
    const stored = (await api.call('GET', `oncall-schedules/${scheduleId}`)).body.result;
    expect(stored.overrides).toMatchObject([{ person: ids['oc-ben'], start: new Date(from).toISOString(), end: new Date(to).toISOString() }]);
  });

  it("the top bar shows the signed-in person's shift once they have one, linking to its schedule", async () => {
    const { page } = admin;
    const adminId = (await api.call('GET', 'auth/whoami')).body.result._id as string;
    await expect(page.getByRole('link', { name: /On call: Team e2e/ }).count()).resolves.toBe(0);
    const start = new Date(Date.now() - 60_000).toISOString();
    const end = new Date(Date.now() + 2 * 3_600_000).toISOString();
    expect((await api.call('POST', `oncall-schedules/${scheduleId}/overrides`, { user: adminId, start, end })).status).toBe(201);
    await page.goto('/oncall');
    const mine = page.getByRole('banner').getByRole('link', { name: /^On call: Team e2e until / });
    await shown(mine);
    await mine.click();
    await shown(page.getByRole('heading', { name: /Team e2e/, level: 1 }));
  });

  it('a schedule with nobody on call some time in the next 7 days is named on the dashboard, and its screen says when', async () => {
    const { page } = admin;
    const made = await api.call('POST', 'oncall-schedules', { name: 'Gaps e2e', timeZone: 'UTC', layers: [{ name: 'office', participants: [ids['oc-ana']], shift: { length: 1, unit: 'weeks' }, start: '2026-01-05', handoff: '09:00', restrictions: [{ type: 'daily', from: '09:00', to: '18:00' }] }] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.result._id as string;
    try {
      const first = (await api.call('GET', `oncall/gaps?schedule=${id}`)).body.result[0].gaps[0] as { start: string; end: string };
      await page.goto('/');
      const notice = page.getByRole('region', { name: 'Nobody on call' });
      await shown(notice.getByText(/has nobody on call/));
      // The schedule always covered is not named.
      await expect(notice.getByRole('link', { name: 'Team e2e' }).count()).resolves.toBe(0);
      await notice.getByRole('link', { name: 'Gaps e2e' }).click();
      await shown(page.getByRole('heading', { name: /Gaps e2e/, level: 1 }));
      const warning = page.getByRole('region', { name: 'Nobody on call' });
      await shown(warning.getByRole('heading', { name: 'Nobody on call in the next 7 days' }));
      // When the first gap is, in the reader's own zone, as the timeline says it.
      const text = await page.evaluate(({ start, end }) => {
        const when = (iso: string) => new Date(iso).toLocaleString(undefined, { weekday: 'short', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
        return `${when(start)} – ${when(end)}`;
      }, first);
      await shown(warning.getByRole('listitem').filter({ hasText: text }));
    } finally {
      expect((await api.call('DELETE', `oncall-schedules/${id}`)).status).toBe(200);
    }
  });
});
