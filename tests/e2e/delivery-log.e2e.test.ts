import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { webhookProblems } from '../api/channel-peers';
import { closedPort } from '../check-targets';
import { openBrowser, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';

/**
 * Issue 15 §4: the delivery log on an alert's drawer — channel, attempt, response code, time —
 * against the shared server. A webhook stand-in that checks Alertmanager's payload answers the
 * first notification with HTTP 500 (Retry-After: 1) and the retry with 200, so the log shows two
 * attempts. The alert is a TCP check of a closed port, down at its first result, notifying a
 * group whose only channel is that webhook.
 */
const baseURL = inject('baseURL');
const CHECK = 'E2E flaky delivery';

describe('delivery log on the alert drawer', () => {
  let b: Browser;
  let admin: Awaited<ReturnType<typeof apiSession>>;
  let peer: Server;
  const calls: { status: number; at: number }[] = [];
  let checkId = '';
  let groupId = '';

  beforeAll(async () => {
    peer = createServer((req, res) => {
      let raw = '';
      req.on('data', (d) => (raw += d));
      req.on('end', () => {
        let problems: string[];
        try {
          problems = webhookProblems(JSON.parse(raw));
        } catch {
          problems = ['body is not JSON'];
        }
        const status = problems.length ? 400 : calls.length === 0 ? 500 : 200;
        calls.push({ status, at: Date.now() });
        if (status === 500) return res.writeHead(500, { 'retry-after': '1', 'content-type': 'text/plain' }).end('upstream trouble');
        res.writeHead(status, { 'content-type': 'text/plain' }).end(problems.join('; ') || 'ok');
      });
    });
    await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
    admin = await apiSession(baseURL);
    const group = await admin.call<{ result: { _id: string } }>('POST', 'notification-groups', { name: 'E2E Delivery', emailEnabled: false });
    expect(group.status).toBe(201);
    groupId = group.body.result._id;
    const channel = await admin.call('POST', `notification-groups/${groupId}/channels`, { type: 'webhook', name: 'flaky hook', secrets: { url: `http://127.0.0.1:${(peer.address() as AddressInfo).port}/alerts` } });
    expect(channel.status, JSON.stringify(channel.body)).toBe(201);
    const check = await admin.call<{ result: { _id: string } }>('POST', 'checks', { name: CHECK, kind: 'tcp', host: '127.0.0.1', port: await closedPort(), intervalSeconds: 10, rules: { down: { timeLimit: 0, notificationGroup: groupId } } });
    expect(check.status, JSON.stringify(check.body)).toBe(201);
    checkId = check.body.result._id;
    b = await openBrowser(baseURL);
    await signIn(b.page);
  });
  afterAll(async () => {
    await b?.close();
    // Leave the shared server as it was (the check's alerts go with it).
    if (checkId) await admin?.call('DELETE', `checks/${checkId}`);
    if (groupId) await admin?.call('DELETE', `notification-groups/${groupId}`);
    await new Promise<void>((resolve) => (peer ? peer.close(() => resolve()) : resolve()));
  });

  it('shows both attempts: the 500 with its error and retry time, then the 200', async () => {
    let alertId = '';
    await expect
      .poll(
        async () => {
          const r = await admin.call<{ result: { data: { _id: string }[] } }>('POST', 'alerts/all', { filter: { hostname: { eq: CHECK }, status: { eq: 'firing' } } });
          alertId = r.body.result.data[0]?._id ?? '';
          return alertId;
        },
        { timeout: 45_000, interval: 500 },
      )
      .not.toBe('');
    // The retry waits for the peer's Retry-After (1 s), not the 30 s schedule.
    await expect.poll(() => calls.map((c) => c.status), { timeout: 30_000, interval: 250 }).toEqual([500, 200]);

    const { page } = b;
    await page.goto(`/notifications/show/${alertId}`);
    const drawer = page.getByRole('dialog', { name: `Alert check down on ${CHECK}` });
    await drawer.getByRole('tab', { name: 'Timeline' }).click();
    const log = drawer.getByRole('region', { name: 'Delivery log' });
    const rows = log.getByRole('table').getByRole('row');
    // A header row and one row per attempt (the log refreshes itself every 5 s).
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(3);
    expect(await rows.nth(0).getByRole('columnheader').allTextContents()).toEqual(['Time', 'Channel', 'Attempt', 'Response', 'Outcome']);
    const cells = async (i: number) => (await rows.nth(i).getByRole('cell').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    const [first, second] = [await cells(1), await cells(2)];
    expect(first.slice(1)).toEqual([expect.stringMatching(/^Webhook ?flaky hook: http:\/\/127\.0\.0\.1:\d+\/…$/), '1 (firing)', '500', expect.stringMatching(/^failed ?The webhook answered HTTP 500 \(a server error\) ?retry at /)]);
    expect(second.slice(1)).toEqual([expect.stringMatching(/^Webhook ?flaky hook: /), '2 (firing)', '200', 'sent']);
    // Times are shown, the retry after the first.
    expect(first[0]).not.toBe('');
    expect(second[0]).not.toBe('');
    // The receiver's status in Opsdeck's words is shown; what it answered (its body) never is.
    await shown(log.getByText('The webhook answered HTTP 500 (a server error)', { exact: false }));
    expect(await log.getByText('upstream trouble', { exact: false }).count()).toBe(0);
  });
});
