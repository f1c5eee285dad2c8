import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyFromText, SecretBox } from '../../server/channels/secret-box';
import { testConfig } from '../../server/config';
import { PageActionSigner } from '../../server/page-actions/token';
import { eq } from 'drizzle-orm';
import { ntfyChannel } from '../../server/channels/ntfy';
import { outboundFetch } from '../../server/outbound/http-client';
import { alerts } from '../../server/db/schema';
import { signLinks } from '../../server/page-actions/links';
import { createHmac } from 'node:crypto';
import { PEER_SECRETS, startPeers, startStandIn } from './channel-peers';
import { PAGING_SECRETS, startPagingPeers, type PagingPeers } from './paging-peers';
import { backends, startTestApp, type TestApp } from './harness';
import { startSmtpSink, type SinkMail, type SmtpSink } from './smtp-sink';

const PUBLIC_URL = 'https://opsdeck.example.test';
const SLACK_SIGNING_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
let octet = 0;

/** Issue 27 §4: acknowledge and resolve from the notification's own links, over real SMTP and HTTP, on both databases. */
describe.each(await backends())('page actions on $name', (backend) => {
  let t: TestApp;
  let sink: SmtpSink;
  let admin: string;
  let ann: { _id: string; email: string };
  let bob: { _id: string; email: string };
  let groupId: string;
  let paging: PagingPeers;
  let slackReplies: { url: string; close: () => Promise<void> };
  const replies: { path: string; type: string; body: any }[] = [];
  /** The console's own signing key, as a test that forges a genuine but expired link needs it. */
  const signer = new PageActionSigner(new SecretBox(keyFromText(testConfig().secretKey!)).derive('page-actions'));

  /** A firing alert of a server rule in the group, with its firing notification queued (and escalation step users named). */
  async function firingAlert(userIds: string[] = [], group = groupId): Promise<string> {
    const n = ++octet;
    const res = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname: `page-${n}`, ipaddress: `10.72.0.${n}`, operating_system: 'linux', isAgentConfigured: true } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const serverId = res.body.result._id as string;
    const [rule] = await t.database.query<{ id: string }>(`update alert_rules set notification_group_id = $2 where server_id = $1 and name = 'high_cpu_usage' returning id`, [serverId, group]);
    const [alert] = await t.database.query<{ id: string }>(
      `insert into alerts (server_id, rule_id, hostname, instance, alertname, type, severity, status, notified_at)
       values ($1, $2, $3, $4, 'high_cpu_usage', 'resouce_alert', 'critical', 'firing', now()) returning id`,
      [serverId, rule!.id, `page-${n}`, `10.72.0.${n}`],
    );
    await t.database.query(`insert into alert_events (alert_id, type) values ($1, 'firing')`, [alert!.id]);
    await t.database.query(`insert into alert_outbox (alert_id, transition, notification_group_id, user_ids) values ($1, 'firing', $2, $3::uuid[])`, [alert!.id, group, `{${userIds.join(',')}}`]);
    return alert!.id;
  }

  /** Sends what is queued and answers the mails it sent. */
  async function deliver(): Promise<SinkMail[]> {
    const before = sink.mails.length;
    await t.app.delivery.deliver();
    return sink.mails.slice(before);
  }
  const mailTo = (mails: SinkMail[], address: string) => mails.find((m) => m.to.length === 1 && m.to[0] === address);
  const linkIn = (mail: SinkMail | undefined, label: 'Acknowledge' | 'Resolve') => {
    const m = new RegExp(`^${label}: (\\S+)$`, 'm').exec(mail?.text ?? '');
    expect(m, `${label} link in ${mail?.text}`).not.toBeNull();
    return new URL(m![1]!).pathname;
  };
  /** What a browser does: GET the link; POST the page's form (form-encoded, no cross-site header, no session). */
  const open = async (path: string) => {
    const res = await t.app.inject({ method: 'GET', url: path, headers: { accept: 'text/html' } });
    return { status: res.statusCode, html: res.body, type: String(res.headers['content-type']) };
  };
  const press = async (path: string) => {
    const res = await t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }, payload: 'confirm=1' });
    return { status: res.statusCode, html: res.body };
  };
  const alertRow = async (id: string) => (await t.database.query<{ status: string; ack_username: string | null; resolved_at: Date | null }>(`select status, ack_username, resolved_at from alerts where id = $1`, [id]))[0]!;
  const timeline = async (id: string) => (await t.call('GET', `/api/alerts/${id}`, { cookie: admin })).body.result.timeline as { type: string; note: string | null; by: { username: string } | null }[];
  const history = (id: string) =>
    t.database.query<{ command: string; command_line: string | null; source: string; username: string; outcome: string; status: number | null }>(
      `select command, command_line, source, username, outcome, status from command_history where actor_kind = 'user' and $1::uuid = any(target_ids) order by created_at`,
      [id],
    );

  beforeAll(async () => {
    sink = await startSmtpSink();
    paging = await startPagingPeers();
    slackReplies = await startStandIn((req, res, raw) => {
      replies.push({ path: req.url ?? '', type: String(req.headers['content-type']), body: JSON.parse(raw) });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
    t = await startTestApp(backend, {
      delivery: {
        ...testConfig().delivery,
        smtpUrl: sink.url,
        mailFrom: 'Opsdeck <alerts@opsdeck.test>',
        publicUrl: PUBLIC_URL,
        slackBotToken: PAGING_SECRETS.slackToken,
        slackApiUrl: `${paging.url}/slack`,
        slackSigningSecret: SLACK_SIGNING_SECRET,
      },
    });
    const a = await t.addUser({ role: 'admin' });
    admin = await t.signIn(a.email, a.password);
    ann = await t.addUser({ role: 'user', username: 'ann', email: 'Ann@Example.com' });
    bob = await t.addUser({ role: 'sysadmin', username: 'bob', email: 'bob@example.com' });
    const g = await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: 'page-ops', emailList: ['ann@example.com', 'ops-list@example.com'] } });
    expect(g.status, JSON.stringify(g.body)).toBe(201);
    groupId = g.body.result._id;
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
    await paging?.close();
    await slackReplies?.close();
  });

  it('a person gets their own email with signed links; a list address shares one without; the link acknowledges once, as them, in History "from an email link"', async () => {
    const id = await firingAlert([bob._id]);
    const mails = await deliver();
    // ann is on the group's list (her address in another case), bob is named by an escalation step; the list's own address is nobody's.
    expect(mails.map((m) => m.to.join(',')).sort()).toEqual(['ann@example.com', 'bob@example.com', 'ops-list@example.com']);
    const shared = mailTo(mails, 'ops-list@example.com')!;
    expect(shared.text).not.toMatch(/page-actions/);
    const mine = mailTo(mails, 'ann@example.com')!;
    expect(mine.text).toContain('These links act as you: each works once and expires in 24 hours.');
    expect(mine.html).toMatch(/<a href="https:\/\/opsdeck\.example\.test\/api\/page-actions\/[A-Za-z0-9_-]{84}"[^>]*>Acknowledge<\/a>/);
    const ack = linkIn(mine, 'Acknowledge');
    expect(linkIn(mailTo(mails, 'bob@example.com'), 'Acknowledge')).not.toBe(ack);

    // A mail scanner opening the link changes nothing: the page asks.
    const page = await open(ack);
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/html/);
    expect(page.html).toContain(`Acknowledge high_cpu_usage on page-${octet}?`);
    expect(page.html).toMatch(/<form method="post"><button type="submit"[^>]*>Acknowledge<\/button><\/form>/);
    expect((await alertRow(id)).ack_username).toBeNull();
    expect(await t.count('page_action_uses')).toBe(0);

    const done = await press(ack);
    expect(done.status, done.html).toBe(200);
    expect(done.html).toContain(`Acknowledged: high_cpu_usage on page-${octet}`);
    expect(await alertRow(id)).toMatchObject({ status: 'firing', ack_username: 'ann' });
    expect((await timeline(id)).at(-1)).toMatchObject({ type: 'acknowledged', by: { username: 'ann' }, note: 'Acknowledged until it resolves (from an email link).' });
    expect(await history(id)).toEqual([{ command: 'alert.ack', command_line: `alert.ack ${id}`, source: 'email', username: 'ann', outcome: 'ok', status: null }]);
    // History shows it by name, as the console's own run reads, and where it came from.
    const listed = await t.call('POST', '/api/command-history/all', { cookie: admin, body: { pageSize: 100, sort: { by: 'createdAt', direction: 'desc' } } });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const entry = listed.body.result.data.find((e: { command: string; source: string }) => e.command === 'alert.ack' && e.source === 'email');
    expect(entry).toMatchObject({ displayLine: `alert.ack high_cpu_usage@page-${octet}`, username: 'ann', userId: ann._id, actorKind: 'user' });

    // Replayed: refused, says so, changes nothing; recorded as refused under ann.
    const again = await press(ack);
    expect(again.status).toBe(409);
    expect(again.html).toContain('This link was already used');
    expect((await open(ack)).html).toContain('This link was already used');
    expect(await alertRow(id)).toMatchObject({ ack_username: 'ann' });
    expect((await timeline(id)).filter((e) => e.type === 'acknowledged')).toHaveLength(1);
    expect((await history(id)).map((h) => [h.command, h.source, h.username, h.outcome, h.status])).toEqual([
      ['alert.ack', 'email', 'ann', 'ok', null],
      ['alert.ack', 'email', 'ann', 'error', 409],
    ]);

    // bob's acknowledge link meets ann's acknowledgement: it says so, takes nothing over, and is not spent.
    const bobsAck = linkIn(mailTo(mails, 'bob@example.com'), 'Acknowledge');
    const uses = await t.count('page_action_uses');
    const taken = await press(bobsAck);
    expect(taken.status).toBe(409);
    expect(taken.html).toContain('This alert is already acknowledged');
    expect(taken.html).toContain('ann acknowledged high_cpu_usage');
    expect(await alertRow(id)).toMatchObject({ ack_username: 'ann' });
    expect(await t.count('page_action_uses')).toBe(uses);

    // ann's resolve link resolves it, with the note saying where from.
    const resolved = await press(linkIn(mine, 'Resolve'));
    expect(resolved.status, resolved.html).toBe(200);
    expect(await alertRow(id)).toMatchObject({ status: 'resolved', ack_username: null });
    expect((await timeline(id)).at(-1)).toMatchObject({ type: 'resolved', by: { username: 'ann' }, note: 'Resolved from an email link.' });
    expect((await history(id)).at(-1)).toMatchObject({ command: 'alert.resolve', command_line: `alert.resolve ${id} --note "Resolved from an email link."`, source: 'email', outcome: 'ok' });
    // …and bob's, after that, says it is resolved already.
    const late = await press(linkIn(mailTo(mails, 'bob@example.com'), 'Resolve'));
    expect(late.status).toBe(409);
    expect(late.html).toContain('This alert is already resolved');
  });

  it('a tampered, forged or expired link is refused with the reason and changes nothing', async () => {
    const id = await firingAlert();
    const ack = linkIn(mailTo(await deliver(), 'ann@example.com'), 'Acknowledge');
    const token = ack.split('/').at(-1)!;
    // One character changed (another user, another alert, another action: the signature no longer holds).
    const flipped = `${token.slice(0, 20)}${token[20] === 'A' ? 'B' : 'A'}${token.slice(21)}`;
    const uses = await t.count('page_action_uses');
    const records = await t.count('command_history');
    for (const path of [`/api/page-actions/${flipped}`, '/api/page-actions/not-a-token', `/api/page-actions/${token.slice(0, 83)}`]) {
      const page = await open(path);
      expect(page.status, path).toBe(403);
      expect(page.html).toContain('This link is not valid');
      const res = await press(path);
      expect(res.status, path).toBe(403);
      expect(res.html).toContain('This link is not valid');
    }
    // Signed by another Opsdeck (another key).
    const stranger = new PageActionSigner(Buffer.alloc(32, 7)).sign({ alertId: id, userId: ann._id, action: 'ack', via: 'email', expiresAt: new Date(Date.now() + 3600_000) });
    expect((await press(`/api/page-actions/${stranger}`)).status).toBe(403);
    // Nobody can be named for a forged link: nothing in History.
    expect(await t.count('command_history')).toBe(records);

    // Genuine but expired.
    const expired = signer.sign({ alertId: id, userId: ann._id, action: 'ack', via: 'email', expiresAt: new Date(Date.now() - 1000) });
    expect((await open(`/api/page-actions/${expired}`)).html).toContain('This link has expired');
    const res = await press(`/api/page-actions/${expired}`);
    expect(res.status).toBe(410);
    expect(res.html).toContain('This link has expired');
    expect(await alertRow(id)).toMatchObject({ status: 'firing', ack_username: null });
    expect(await t.count('page_action_uses')).toBe(uses);
    expect((await history(id)).map((h) => [h.command, h.username, h.status])).toEqual([['alert.ack', 'ann', 410]]);

    // The genuine link still works after all that.
    expect((await press(ack)).status).toBe(200);
    expect(await alertRow(id)).toMatchObject({ ack_username: 'ann' });
  });

  it('ntfy: a person’s own notification carries Acknowledge and Resolve as http action buttons in ntfy’s format; pressing one acknowledges once, in History "from ntfy"', async () => {
    const id = await firingAlert();
    await deliver();
    const peers = await startPeers();
    try {
      const [alert] = await t.database.db.select().from(alerts).where(eq(alerts.id, id));
      const links = signLinks(signer, PUBLIC_URL, { alertId: id, userId: ann._id, via: 'ntfy', transition: 'firing', now: Date.now() })!;
      const message = { alert: alert!, transition: 'firing' as const, link: `${PUBLIC_URL}/notifications/show/${id}`, publicUrl: PUBLIC_URL, extra: { actions: links } };
      const target = { id: 'm1', type: 'ntfy' as const, name: 'ann phone', settings: { serverUrl: `${peers.url}/ntfy` }, secrets: { topic: PEER_SECRETS.ntfyTopic } };
      const sent = await ntfyChannel.send(target as never, message, { timeoutMs: 5000, fetch: outboundFetch(t.app.outbound, 'channel') });
      // The stand-in answers 200 only to ntfy's published format (actions included).
      expect(sent.status).toBe(200);
      const body = peers.calls.at(-1)!.body;
      expect(body.actions).toEqual([
        { action: 'http', label: 'Acknowledge', url: links.ack, method: 'POST', clear: true },
        { action: 'http', label: 'Resolve', url: links.resolve, method: 'POST', clear: true },
        { action: 'view', label: 'Open', url: `${PUBLIC_URL}/notifications/show/${id}` },
      ]);
      // The ntfy app presses the button: a POST of the URL with no body and nothing else.
      const path = new URL(body.actions[0].url).pathname;
      const pressed = await t.app.inject({ method: 'POST', url: path });
      expect(pressed.statusCode, pressed.body).toBe(200);
      expect(await alertRow(id)).toMatchObject({ ack_username: 'ann' });
      expect((await timeline(id)).at(-1)).toMatchObject({ type: 'acknowledged', note: 'Acknowledged until it resolves (from ntfy).' });
      expect((await history(id)).map((h) => [h.command, h.source, h.username, h.outcome])).toEqual([['alert.ack', 'ntfy', 'ann', 'ok']]);
      expect((await t.app.inject({ method: 'POST', url: path })).statusCode).toBe(409);
      // A group's shared topic names nobody: no buttons that would act as someone.
      await ntfyChannel.send(target as never, { ...message, extra: {} }, { timeoutMs: 5000, fetch: outboundFetch(t.app.outbound, 'channel') });
      expect(peers.calls.at(-1)!.body.actions).toBeUndefined();
    } finally {
      await peers.close();
    }
  });

  it('Slack: an alert message carries Acknowledge and Resolve buttons; a press signed with the signing secret acts as the member’s Opsdeck user; a forged, stale or unlinked one changes nothing', async () => {
    const g = await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: 'page-slack', emailEnabled: false, slackEnabled: true, slackChannel: '#ops' } });
    expect(g.status, JSON.stringify(g.body)).toBe(201);
    const id = await firingAlert([], g.body.result._id);
    await t.database.query(`insert into contact_methods (user_id, kind, label, settings, secrets, verified_at) values ($1, 'slack', 'slack', '{"memberId":"U0ANN1234"}', '', now())`, [ann._id]);
    // bob's Slack method is not verified: it does not link his member id.
    await t.database.query(`insert into contact_methods (user_id, kind, label, settings, secrets) values ($1, 'slack', 'slack', '{"memberId":"U0BOB1234"}', '')`, [bob._id]);
    await deliver();
    const posted = paging.calls.filter((c) => c.peer === 'slack').at(-1)!.body;
    expect(posted.channel).toBe('#ops');
    const actions = posted.blocks.find((b: { type: string }) => b.type === 'actions');
    expect(actions.elements).toEqual([
      { type: 'button', action_id: 'opsdeck_alert_ack', text: { type: 'plain_text', text: 'Acknowledge' }, style: 'primary', value: id },
      { type: 'button', action_id: 'opsdeck_alert_resolve', text: { type: 'plain_text', text: 'Resolve' }, value: id },
      { type: 'button', text: { type: 'plain_text', text: 'View alert' }, url: `${PUBLIC_URL}/notifications/show/${id}` },
    ]);

    /** Slack's block_actions request for a press, signed as Slack signs it (v0, HMAC-SHA256 of v0:timestamp:body). */
    const press = async (member: string, actionId: string, o: { secret?: string; ageS?: number } = {}) => {
      const payload = {
        type: 'block_actions',
        user: { id: member, username: member.toLowerCase(), team_id: 'T0TEAM' },
        api_app_id: 'A0APP',
        team: { id: 'T0TEAM', domain: 'ops' },
        container: { type: 'message', message_ts: '1700000000.000100', channel_id: 'C0OPS', is_ephemeral: false },
        trigger_id: '123.456.abc',
        channel: { id: 'C0OPS', name: 'ops' },
        response_url: `${slackReplies.url}/actions/T0TEAM/${replies.length + 1}/xyz`,
        actions: [{ action_id: actionId, block_id: 'b1', text: { type: 'plain_text', text: 'Acknowledge' }, value: id, type: 'button', action_ts: '1700000001.000200' }],
      };
      const body = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
      const ts = String(Math.floor(Date.now() / 1000) - (o.ageS ?? 0));
      const signature = `v0=${createHmac('sha256', o.secret ?? SLACK_SIGNING_SECRET).update(`v0:${ts}:${body}`).digest('hex')}`;
      const res = await t.app.inject({ method: 'POST', url: '/api/integrations/slack/interactions', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': ts, 'x-slack-signature': signature }, payload: body });
      return { status: res.statusCode, body: res.body };
    };

    // Forged (another secret) and stale (6 minutes old, correctly signed): refused, nothing changes.
    expect((await press('U0ANN1234', 'opsdeck_alert_ack', { secret: 'not-the-secret' })).status).toBe(401);
    expect((await press('U0ANN1234', 'opsdeck_alert_ack', { ageS: 360 })).status).toBe(401);
    expect(await alertRow(id)).toMatchObject({ ack_username: null });
    expect(replies).toHaveLength(0);

    // A member no Opsdeck user has verified: Slack gets its 200, the person is told why, nothing changes.
    const before = replies.length;
    expect((await press('U0BOB1234', 'opsdeck_alert_ack')).status).toBe(200);
    expect(replies.length).toBe(before + 1);
    expect(replies.at(-1)!.body).toMatchObject({ response_type: 'ephemeral', replace_original: false, text: expect.stringContaining('Your Slack account is not linked to Opsdeck') });
    expect(await alertRow(id)).toMatchObject({ ack_username: null });

    // ann's press acknowledges, as ann, "from Slack".
    expect((await press('U0ANN1234', 'opsdeck_alert_ack')).status).toBe(200);
    expect(await alertRow(id)).toMatchObject({ ack_username: 'ann' });
    expect((await timeline(id)).at(-1)).toMatchObject({ type: 'acknowledged', by: { username: 'ann' }, note: 'Acknowledged until it resolves (from Slack).' });
    expect(replies.at(-1)!.body.text).toContain(`Acknowledged: high_cpu_usage on page-${octet}`);
    expect((await history(id)).map((h) => [h.command, h.source, h.username, h.outcome])).toEqual([['alert.ack', 'slack', 'ann', 'ok']]);
    // Pressed again: it says so and changes nothing.
    expect((await press('U0ANN1234', 'opsdeck_alert_ack')).status).toBe(200);
    expect(replies.at(-1)!.body.text).toContain('You already acknowledged this alert');
    // Resolve.
    expect((await press('U0ANN1234', 'opsdeck_alert_resolve')).status).toBe(200);
    expect(await alertRow(id)).toMatchObject({ status: 'resolved' });
    expect((await timeline(id)).at(-1)).toMatchObject({ type: 'resolved', note: 'Resolved from Slack.' });
    const refused = await t.database.query<{ username: string; outcome: string }>(`select username, outcome from command_history where username = 'Slack member U0BOB1234'`);
    expect(refused).toEqual([{ username: 'Slack member U0BOB1234', outcome: 'error' }]);
  });

  it('a suspended person’s link is refused and changes nothing', async () => {
    const id = await firingAlert();
    const ack = linkIn(mailTo(await deliver(), 'ann@example.com'), 'Acknowledge');
    await t.database.query(`update users set status = 'suspended' where id = $1`, [ann._id]);
    try {
      const res = await press(ack);
      expect(res.status).toBe(403);
      expect(res.html).toContain('can no longer act on alerts');
      expect(await alertRow(id)).toMatchObject({ ack_username: null });
    } finally {
      await t.database.query(`update users set status = 'active' where id = $1`, [ann._id]);
    }
  });
});
