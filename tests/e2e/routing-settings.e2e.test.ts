import { randomBytes } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gone, openBrowser, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';

/**
 * Issue 14 §4–§6 settings on their screens, on the shared server: a rule's host-down switch,
 * minimum interval and flap detection in the Alerts Configuration tab (rules.set-routing), and a
 * notification group's escalation steps, repeat and acknowledgement reminder in its drawer
 * (group.set-escalation); by mouse and by keyboard, confirmed through the API and the history.
 */

type Session = Awaited<ReturnType<typeof apiSession>>;
interface Rule {
  name: string;
  suppressOnHostDown: boolean;
  minNotifyIntervalSeconds: number | null;
  flapTransitions: number | null;
  flapWindowSeconds: number | null;
}
const show = (l: Locator) => shown(l, 30_000);
const hide = (l: Locator) => gone(l, 30_000);
const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000, interval: 200 });
/** react-aria's switch input is visually hidden: a person clicks its label. */
const toggle = (page: Page, name: string) => page.locator('label', { has: page.getByRole('switch', { name }) }).click();

describe('routing settings', () => {
  const baseURL = inject('baseURL');
  const tag = randomBytes(3).toString('hex');
  let admin: Session;
  let b: Browser;
  let serverId: string;
  const groups: Record<'ops' | 'dba', { id: string; name: string }> = { ops: { id: '', name: `Ops ${tag}` }, dba: { id: '', name: `DBA ${tag}` } };

  const rule = async (name: string): Promise<Rule> => {
    const r = await admin.call<{ result: { data: { rules: Rule[] }[] } }>('POST', 'alert-config/get-alert-config/all', { pageSize: 100, filter: { serverId: { eq: serverId } } });
    return r.body.result.data[0]!.rules.find((x) => x.name === name)!;
  };

  beforeAll(async () => {
    admin = await apiSession(baseURL);
    const r = await admin.call<{ result: { _id: string } }>('POST', 'servers', { hostname: `routing-set-${tag}`, ipaddress: '127.0.78.1', operating_system: 'linux', agentPort: 9, isAgentConfigured: true });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    serverId = r.body.result._id;
    for (const g of Object.values(groups)) {
      const res = await admin.call<{ result: { _id: string } }>('POST', 'notification-groups', { name: g.name, emailList: ['ops@example.com'] });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      g.id = res.body.result._id;
    }
    b = await openBrowser(baseURL);
    b.context.setDefaultTimeout(30_000);
    await signIn(b.page);
  }, 120_000);

  afterAll(async () => {
    await b?.page.screenshot({ path: `/tmp/routing-settings-${tag}.png`, fullPage: true }).catch(() => {});
    await b?.close();
    if (serverId) await admin.call('DELETE', `servers/${serverId}`);
    for (const g of Object.values(groups)) if (g.id) await admin.call('DELETE', `notification-groups/${g.id}`);
  });

  it('sets a rule’s host-down suppression, minimum interval and flap detection from the rules table, saved at once', async () => {
    const { page } = b;
    await page.goto(`/servers/show/${serverId}?tab=alerts-config`);
    // The server detail's first render on a loaded two-core machine can take a while.
    await shown(page.getByRole('columnheader', { name: 'Routing' }), 90_000);
    // instance_down is the host-down alert: it has no switch of its own.
    const downRow = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^instance down/ }) });
    await show(downRow.getByText('The host-down alert itself'));
    expect(await page.getByRole('switch', { name: 'Mute while host is down: high cpu usage' }).isChecked()).toBe(true);

    // Mouse: the switch and the minimum interval.
    await toggle(page, 'Mute while host is down: high cpu usage');
    await eventually(async () => (await rule('high_cpu_usage')).suppressOnHostDown).toBe(false);
    await page.getByRole('button', { name: /Minimum interval of high cpu usage/ }).click();
    await page.getByRole('option', { name: 'At most every 30m', exact: true }).click();
    await hide(page.getByRole('listbox'));
    await eventually(async () => (await rule('high_cpu_usage')).minNotifyIntervalSeconds).toBe(1800);

    // Keyboard: flap detection, the third choice (4 changes in 30m).
    await page.getByRole('button', { name: /Flap detection of high cpu usage/ }).focus();
    await page.keyboard.press('Enter');
    await show(page.getByRole('listbox'));
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await eventually(async () => {
      const r = await rule('high_cpu_usage');
      return [r.flapTransitions, r.flapWindowSeconds];
    }).toEqual([4, 1800]);

    // Saved, not held: nothing waits for Update, other rules are untouched, the controls show it.
    await hide(page.getByText(/changed, not saved/));
    expect(await rule('high_memory_usage')).toMatchObject({ suppressOnHostDown: true, minNotifyIntervalSeconds: null, flapTransitions: null });
    await show(page.getByRole('button', { name: /(4 changes in 30m.*Flap detection of high cpu usage|Flap detection of high cpu usage.*4 changes in 30m)/ }));
    expect(await page.getByRole('switch', { name: 'Mute while host is down: high cpu usage' }).isChecked()).toBe(false);
    await eventually(() => admin.historyMissing(['rules.set-routing'], ['rules.set-routing:ui:ok'])).toEqual([]);
  }, 180_000);

  it('sets a group’s escalation steps, repeat and acknowledgement reminder in its drawer', async () => {
    const { page } = b;
    await page.goto(`/notification-groups/show/${groups.ops.id}`);
    const drawer = page.getByRole('dialog', { name: groups.ops.name });
    await show(drawer.getByText('No escalation: only this group hears about its alerts.'));
    await show(drawer.getByText('Does not repeat.'));

    await drawer.getByRole('textbox', { name: 'Escalation steps' }).fill(`15m: ${groups.dba.name}`);
    await drawer.getByRole('button', { name: /Repeat/ }).click();
    await page.getByRole('option', { name: 'Every 1h', exact: true }).click();
    await hide(page.getByRole('listbox'));
    // Keyboard for the reminder: After 1h, 2h, 4h → the third.
    await drawer.getByRole('button', { name: /Remind owners/ }).focus();
    await page.keyboard.press('Enter');
    await show(page.getByRole('listbox'));
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await hide(page.getByRole('listbox'));
    await drawer.getByRole('button', { name: 'Save escalation policy' }).click();

    await eventually(async () => (await admin.call<{ result: Record<string, unknown> }>('GET', `notification-groups/${groups.ops.id}`)).body.result).toMatchObject({
      escalationSteps: [{ afterSeconds: 900, groupId: groups.dba.id, userIds: [] }],
      repeatIntervalSeconds: 3600,
      ackReminderSeconds: 14_400,
    });
    await show(drawer.getByText(`Step 1: after 15m unacknowledged, notify group ${groups.dba.name}`));
    await show(drawer.getByText('Sends again every 1h while firing and unacknowledged.'));
    await show(drawer.getByText('Reminds the owner of an acknowledgement after 4h, and again every 4h.'));
    await eventually(() => admin.historyMissing(['group.set-escalation'], ['group.set-escalation:ui:ok'])).toEqual([]);

    // A step naming nothing known is refused with the reason, and nothing changes.
    await drawer.getByRole('textbox', { name: 'Escalation steps' }).fill('15m: no-such-group-at-all');
    await drawer.getByRole('button', { name: 'Save escalation policy' }).click();
    await show(page.getByText(/no-such-group-at-all/).last());
    expect((await admin.call<{ result: { escalationSteps: unknown[] } }>('GET', `notification-groups/${groups.ops.id}`)).body.result.escalationSteps).toHaveLength(1);
  }, 180_000);
});
