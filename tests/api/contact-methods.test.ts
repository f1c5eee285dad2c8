import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../server/config';
import { asDeclared, backends, startTestApp, type TestApp } from './harness';
import { PEER_SECRETS, startPeers, webhookProblems, type Peers } from './channel-peers';
import { PAGING_SECRETS, startPagingPeers, type PagingPeers } from './paging-peers';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

/**
 * People's contact methods (issue 27 §2): each kind added unverified, a test message that reaches
 * the person's own provider (real SMTP, stand-ins checking ntfy's, Telegram's, Slack's,
 * Pushover's, Twilio's and the webhook's formats) with a code, the code entered: verified. Wrong,
 * expired and missing codes change nothing; another person's methods are an admin's only;
 * secrets are never answered.
 */

let peers: Peers;
let paging: PagingPeers;
let smtp: SmtpSink;
beforeAll(async () => {
  [peers, paging, smtp] = await Promise.all([startPeers(), startPagingPeers(), startSmtpSink()]);
});
afterAll(async () => Promise.all([peers.close(), paging.close(), smtp.close()]));

const WEBHOOK_KEY = 'hookpathsecret0123456789';
const bodies = () => ({
  mail: { kind: 'email', label: 'Work mail', settings: { address: 'ann@example.com' } },
  phone: { kind: 'ntfy', label: 'Phone', settings: { serverUrl: `${peers.url}/ntfy` }, secrets: { topic: PEER_SECRETS.ntfyTopic, token: PEER_SECRETS.ntfyToken } },
  tg: { kind: 'telegram', label: 'Telegram', settings: { chatId: PEER_SECRETS.chatId, apiUrl: `${peers.url}/tg` }, secrets: { botToken: PEER_SECRETS.botToken } },
  slack: { kind: 'slack', label: 'Slack DM', settings: { memberId: 'U024BE7LH' } },
  push: { kind: 'pushover', label: 'Pushover', settings: { device: 'pixel' }, secrets: { userKey: PAGING_SECRETS.pushoverUserKey } },
  hook: { kind: 'webhook', label: 'Pager bridge', secrets: { url: `${peers.url}/hook?key=${WEBHOOK_KEY}` } },
  sms: { kind: 'sms', label: 'Mobile SMS', settings: { phone: '+15550100123' } },
  call: { kind: 'voice', label: 'Mobile call', settings: { phone: '+15550100123' } },
});
const SECRETS = [PEER_SECRETS.ntfyTopic, PEER_SECRETS.ntfyToken, PEER_SECRETS.botToken, PAGING_SECRETS.pushoverUserKey, WEBHOOK_KEY];

/** The code in the message each provider got last, and that it came in the provider's own format. */
async function lastCode(kind: string): Promise<string> {
  const digits = (text: string) => /\b(\d{6})\b/.exec(text)?.[1];
  const last = <T>(xs: T[]) => xs[xs.length - 1];
  const code = (() => {
    switch (kind) {
      case 'email': {
        const m = last(smtp.mails)!;
        expect(m.to).toEqual(['ann@example.com']);
        expect(m.subject).toBe('Opsdeck verification code');
        return digits(m.text);
      }
      case 'ntfy': {
        const c = last(peers.calls.filter((c) => c.peer === 'ntfy'))!;
        expect(c.headers.authorization).toBe(`Bearer ${PEER_SECRETS.ntfyToken}`);
        expect(c.body).toMatchObject({ topic: PEER_SECRETS.ntfyTopic, title: 'Opsdeck verification code' });
        return digits(c.body.message);
      }
      case 'telegram':
        return digits(last(peers.calls.filter((c) => c.peer === 'telegram'))!.body.text);
      case 'webhook': {
        const c = last(peers.calls.filter((c) => c.peer === 'webhook'))!;
        expect(webhookProblems(c.body)).toEqual([]);
        return digits(c.body.commonAnnotations.summary);
      }
      case 'slack': {
        const c = last(paging.calls.filter((c) => c.peer === 'slack'))!;
        expect(c.body.channel).toBe('U024BE7LH');
        return digits(c.body.text);
      }
      case 'pushover': {
        const c = last(paging.calls.filter((c) => c.peer === 'pushover'))!;
        expect(c.fields).toMatchObject({ token: PAGING_SECRETS.pushoverAppToken, user: PAGING_SECRETS.pushoverUserKey, device: 'pixel', title: 'Opsdeck verification code' });
        return digits(c.fields.message!);
      }
      case 'sms': {
        const c = last(paging.calls.filter((c) => c.peer === 'twilio-sms'))!;
        expect(c.fields).toMatchObject({ To: '+15550100123', From: PAGING_SECRETS.twilioFrom });
        return digits(c.fields.Body!);
      }
      case 'voice': {
        const c = last(paging.calls.filter((c) => c.peer === 'twilio-voice'))!;
        expect(c.fields).toMatchObject({ To: '+15550100123', From: PAGING_SECRETS.twilioFrom });
        // Said digit by digit: "1, 2, 3, 4, 5, 6".
        return /code is ((?:\d, ){5}\d)/.exec(c.fields.Twiml!)?.[1]?.replace(/, /g, '');
      }
    }
  })();
  expect(code, `a ${kind} message with a code`).toMatch(/^\d{6}$/);
  return code!;
}

describe.each(await backends())('contact methods on $name', (backend) => {
  let t: TestApp;
  let admin: { _id: string; cookie: string };
  let ann: { _id: string; cookie: string };
  let bob: { _id: string; cookie: string };
  const base = (who: { _id: string }) => `/api/users/${who._id}/contact-methods`;
  const add = (who: { _id: string; cookie: string }, body: unknown, as = who) => t.call('POST', base(who), { cookie: as.cookie, body });
  const send = (who: { _id: string }, method: string, as: { cookie: string }) => t.call('POST', `${base(who)}/${encodeURIComponent(method)}/test`, { cookie: as.cookie });
  const verify = (who: { _id: string }, method: string, code: string, as: { cookie: string }) => t.call('POST', `${base(who)}/${encodeURIComponent(method)}/verify`, { cookie: as.cookie, body: { code } });
  const list = async (who: { _id: string }, as: { cookie: string }) => (await t.call('GET', base(who), { cookie: as.cookie })).body.result.data as any[];

  beforeAll(async () => {
    t = await startTestApp(backend, {
      delivery: {
        ...testConfig().delivery,
        smtpUrl: smtp.url,
        slackBotToken: PAGING_SECRETS.slackToken,
        slackApiUrl: `${paging.url}/slack`,
        pushoverAppToken: PAGING_SECRETS.pushoverAppToken,
        pushoverApiUrl: `${paging.url}/pushover`,
        twilio: { accountSid: PAGING_SECRETS.twilioSid, authToken: PAGING_SECRETS.twilioToken, from: PAGING_SECRETS.twilioFrom },
        twilioApiUrl: `${paging.url}/twilio`,
        channelTimeoutMs: 3000,
      },
    });
    const person = async (role: 'admin' | 'user') => {
      const u = await t.addUser({ role });
      return { _id: u._id, cookie: await t.signIn(u.email, u.password) };
    };
    [admin, ann, bob] = [await person('admin'), await person('user'), await person('user')];
  });
  afterAll(async () => t.close());

  it('adds each kind unverified; its test message arrives with a code; the code verifies it', async () => {
    for (const body of Object.values(bodies())) {
      const made = await add(ann, body);
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      expect(asDeclared('contactMethods.create', made.body)).toEqual(made.body);
      expect(made.body.result).toMatchObject({ userId: ann._id, kind: body.kind, label: body.label, verified: false, verifiedAt: null, codeExpiresAt: null });

      const tested = await send(ann, body.label, ann);
      expect(tested.status).toBe(200);
      expect(tested.body.result, JSON.stringify(tested.body)).toMatchObject({ ok: true, error: null, method: { verified: false } });
      expect(Date.parse(tested.body.result.method.codeExpiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);
      const code = await lastCode(body.kind);

      const verified = await verify(ann, made.body.result._id, code, ann);
      expect(verified.status, JSON.stringify(verified.body)).toBe(200);
      expect(verified.body.result).toMatchObject({ _id: made.body.result._id, verified: true, codeExpiresAt: null });
      // The code is used up: entered again, it verifies nothing.
      expect((await verify(ann, body.label, code, ann)).body).toMatchObject({ statusCode: 400, field: 'code' });
    }
    const all = await list(ann, ann);
    expect(all.map((m) => [m.kind, m.verified])).toEqual(Object.values(bodies()).map((b) => [b.kind, true]));
    expect(all.find((m) => m.kind === 'sms').target).toBe('SMS: +155…0123');
  });

  it('a wrong, expired or missing code changes nothing and says so (400 naming code)', async () => {
    const made = (await add(bob, { kind: 'sms', label: 'Mine', settings: { phone: '+15550100999' } })).body.result;
    expect((await verify(bob, 'Mine', '123456', bob)).body).toMatchObject({ statusCode: 400, field: 'code', message: 'No code was sent to "Mine": send a test message first' });
    expect((await send(bob, 'mine', bob)).body.result.ok).toBe(true);
    const code = /\b(\d{6})\b/.exec(paging.calls[paging.calls.length - 1]!.fields.Body!)![1]!;
    const wrong = code === '000000' ? '000001' : '000000';
    const refused = await verify(bob, 'Mine', wrong, bob);
    expect(refused.body).toMatchObject({ statusCode: 400, field: 'code', message: 'That is not the code sent to "Mine" (4 tries left)' });
    // The refusal is in the history, against the method it was for.
    const record = await t.call('GET', `/api/command-history/${refused.headers['x-opsdeck-record']}`, { cookie: admin.cookie });
    expect(record.body.result).toMatchObject({ outcome: 'error', status: 400, targets: [{ kind: 'user', id: bob._id }, { kind: 'contact-method', id: made._id, name: 'Mine' }] });
    expect((await verify(bob, 'Mine', 'abc', bob)).body).toMatchObject({ statusCode: 400, field: 'code' });
    expect((await list(bob, bob))[0]).toMatchObject({ verified: false });

    // Expired: the right code, too late.
    await t.database.query(`update contact_methods set code_expires_at = now() - interval '1 second' where id = $1`, [made._id]);
    expect((await verify(bob, 'Mine', code, bob)).body).toMatchObject({ statusCode: 400, field: 'code', message: 'The code sent to "Mine" has expired: send a new test message' });
    expect((await list(bob, bob))[0]).toMatchObject({ verified: false, codeExpiresAt: null });

    // Five wrong codes void the code: the right one no longer works.
    expect((await send(bob, 'Mine', bob)).body.result.ok).toBe(true);
    const fresh = /\b(\d{6})\b/.exec(paging.calls[paging.calls.length - 1]!.fields.Body!)![1]!;
    const bad = fresh === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) expect((await verify(bob, 'Mine', bad, bob)).status).toBe(400);
    expect((await verify(bob, 'Mine', fresh, bob)).body).toMatchObject({ field: 'code', message: 'Too many wrong codes for "Mine": send a new test message' });
    expect((await list(bob, bob))[0]).toMatchObject({ verified: false });
    expect((await t.call('DELETE', `${base(bob)}/Mine`, { cookie: bob.cookie })).status).toBe(200);
  });

  it("another person's methods are refused to a user (403) and managed by an admin", async () => {
    const ownBody = { kind: 'email', label: 'Home', settings: { address: 'bob@example.com' } };
    expect((await t.call('GET', base(ann), { cookie: bob.cookie })).status).toBe(403);
    const refused = await add(ann, ownBody, bob);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("Only Admin accounts can manage another person's contact methods.");
    expect((await send(ann, 'Work mail', bob)).status).toBe(403);
    expect((await verify(ann, 'Work mail', '123456', bob)).status).toBe(403);
    expect((await t.call('DELETE', `${base(ann)}/Work%20mail`, { cookie: bob.cookie })).status).toBe(403);

    // An admin lists, adds, tests and removes someone else's.
    expect((await list(ann, admin)).length).toBe(8);
    const made = await add(bob, ownBody, admin);
    expect(made.status).toBe(201);
    expect(made.body.result).toMatchObject({ userId: bob._id, verified: false });
    expect((await send(bob, 'Home', admin)).body.result.ok).toBe(true);
    expect(smtp.mails[smtp.mails.length - 1]!.to).toEqual(['bob@example.com']);
    const removed = await t.call('DELETE', `${base(bob)}/home`, { cookie: admin.cookie });
    expect(removed.body.result).toMatchObject({ _id: made.body.result._id, label: 'Home' });
    expect(await list(bob, bob)).toEqual([]);
    expect((await t.call('GET', '/api/users/00000000-0000-4000-8000-000000000001/contact-methods', { cookie: admin.cookie })).status).toBe(404);
    expect((await send(bob, 'nothing', bob)).status).toBe(404);
  });

  it('bad input is a 400 naming the field; a label is unique per person', async () => {
    const cases: [unknown, string][] = [
      [{ kind: 'fax', label: 'x' }, 'kind'],
      [{ kind: 'email', settings: { address: 'a@b.co' } }, 'label'],
      [{ kind: 'email', label: 'x', settings: { address: 'not-mail' } }, 'settings.address'],
      [{ kind: 'sms', label: 'x', settings: { phone: '555-0100' } }, 'settings.phone'],
      [{ kind: 'pushover', label: 'x', secrets: { userKey: 'short' } }, 'secrets.userKey'],
      [{ kind: 'slack', label: 'x', settings: { memberId: '#general' } }, 'settings.memberId'],
      [{ kind: 'ntfy', label: 'x', secrets: { topic: 'has space' } }, 'secrets.topic'],
      [{ kind: 'webhook', label: 'x', secrets: { url: 'ftp://x' } }, 'secrets.url'],
      [{ kind: 'email', label: 'x', settings: { address: 'a@b.co' }, extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await add(bob, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field, JSON.stringify(res.body)).toBe(field);
    }
    expect((await add(bob, { kind: 'sms', label: 'Dup', settings: { phone: '+15550100999' } })).status).toBe(201);
    expect((await add(bob, { kind: 'voice', label: 'DUP', settings: { phone: '+15550100999' } })).body).toMatchObject({ statusCode: 409, field: 'label' });
    expect((await verify(bob, 'Dup', '12345', bob)).body).toMatchObject({ statusCode: 400, field: 'code' });
    await t.call('DELETE', `${base(bob)}/Dup`, { cookie: bob.cookie });
  });

  it('a provider that refuses keeps no code and says why; the history records the test as failed', async () => {
    const made = await add(bob, { kind: 'pushover', label: 'Wrong key', secrets: { userKey: 'u'.repeat(30) } });
    const res = await send(bob, 'Wrong key', bob);
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ ok: false, status: 400, error: 'Pushover answered HTTP 400 (the user key, the device or the application token was refused)', method: { codeExpiresAt: null, verified: false } });
    const record = await t.call('GET', `/api/command-history/${res.headers['x-opsdeck-record']}`, { cookie: admin.cookie });
    expect(record.body.result).toMatchObject({ outcome: 'error', targets: [{ kind: 'user' }, { kind: 'contact-method', id: made.body.result._id, name: 'Wrong key' }] });
    expect((await verify(bob, 'Wrong key', '123456', bob)).body.field).toBe('code');
  });

  it('secrets are stored sealed and never answered, logged in history, or repeated in a target line', async () => {
    const everything = JSON.stringify(await list(ann, ann)) + JSON.stringify(await t.database.query('select * from contact_methods')) + JSON.stringify(await t.database.query('select * from command_history'));
    for (const s of SECRETS) expect(everything).not.toContain(s);
    const byKind = Object.fromEntries((await list(ann, ann)).map((m) => [m.kind, m]));
    expect(byKind.ntfy.secrets).toEqual({ topic: '••••f3k2', token: '••••6789' });
    expect(byKind.pushover).toMatchObject({ settings: { device: 'pixel' }, secrets: { userKey: '••••VRsG' }, target: 'Pushover: user ••••VRsG (pixel)' });
    expect(byKind.webhook.secrets.url).toBe(`${peers.url}/…`);
    expect(byKind.telegram.secrets).toEqual({ botToken: '••••cdef' });
  });

  it('notification rules: the default is every verified method at once; steps fire in order of their delay', async () => {
    const rules = (who: { _id: string }) => `/api/users/${who._id}/notification-rules`;
    const get = async (who: { _id: string }, as: { cookie: string }) => (await t.call('GET', rules(who), { cookie: as.cookie })).body.result;
    const addRule = (who: { _id: string }, body: unknown, as: { cookie: string }) => t.call('POST', rules(who), { cookie: as.cookie, body });
    const mine = await list(ann, ann);
    const id = (label: string) => mine.find((m) => m.label === label)._id as string;

    // No steps set: each verified method at once.
    const before = await get(ann, ann);
    expect(asDeclared('notificationRules.list', { result: before })).toEqual({ result: before });
    expect(before).toMatchObject({ isDefault: true, count: 8 });
    expect(before.data.map((r: any) => [r._id, r.afterMinutes, r.method.label])).toEqual(mine.map((m) => [null, 0, m.label]));

    // "At once ntfy, after 5 SMS, after 10 a call", added out of order, by label or id.
    for (const [body, status] of [
      [{ method: 'Mobile call', afterMinutes: 10 }, 201],
      [{ method: id('Phone') }, 201],
      [{ method: 'mobile sms', afterMinutes: 5 }, 201],
    ] as const) {
      const res = await addRule(ann, body, ann);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(asDeclared('notificationRules.create', res.body)).toEqual(res.body);
    }
    const set = await get(ann, ann);
    expect(set.isDefault).toBe(false);
    expect(set.data.map((r: any) => [r.afterMinutes, r.method.label, r.method.kind, r.method.target])).toEqual([
      [0, 'Phone', 'ntfy', expect.stringContaining('ntfy: ')],
      [5, 'Mobile SMS', 'sms', 'SMS: +155…0123'],
      [10, 'Mobile call', 'voice', 'Voice call: +155…0123'],
    ]);
    const added = await addRule(ann, { method: 'Pushover', afterMinutes: 1 }, ann);
    const record = await t.call('GET', `/api/command-history/${added.headers['x-opsdeck-record']}`, { cookie: admin.cookie });
    expect(record.body.result.targets).toMatchObject([{ kind: 'user', id: ann._id }, { kind: 'notification-rule', id: added.body.result._id, name: 'Pushover after 1 min' }]);

    // Refusals: a 400 naming the field; nothing is written.
    const unverified = (await add(bob, { kind: 'sms', label: 'Unverified', settings: { phone: '+15550100777' } })).body.result;
    const count = async () => Number((await t.database.query<{ n: string }>('select count(*) as n from notification_rules'))[0]!.n);
    const rows = await count();
    const refusals: [unknown, string, RegExp][] = [
      [{ method: 'Unverified' }, 'method', /"Unverified" is not verified yet/],
      [{ method: unverified._id, afterMinutes: 3 }, 'method', /"Unverified" is not verified yet/],
      [{ method: id('Phone') }, 'method', /has no contact method/], // Ann's, not Bob's
      [{ method: 'Nowhere' }, 'method', /has no contact method "Nowhere"/],
      [{ afterMinutes: 3 }, 'method', /method is required/],
      [{ method: 'Unverified', afterMinutes: -1 }, 'afterMinutes', /0 \(at once\) or more/],
      [{ method: 'Unverified', afterMinutes: 2.5 }, 'afterMinutes', /whole number/],
      [{ method: 'Unverified', afterMinutes: '5' }, 'afterMinutes', /whole number/],
      [{ method: 'Unverified', afterMinutes: 1441 }, 'afterMinutes', /at most 1440/],
      [{ method: 'Unverified', extra: 1 }, 'extra', /./],
    ];
    for (const [body, field, message] of refusals) {
      const res = await addRule(bob, body, bob);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field, JSON.stringify(res.body)).toBe(field);
      expect(res.body.message).toMatch(message);
    }
    expect((await addRule(ann, { method: 'Phone', afterMinutes: 0 }, ann)).body).toMatchObject({ statusCode: 400, field: 'method', message: 'method: "Phone" is already paged at once' });
    expect(await count()).toBe(rows);
    // Bob has no verified method: his default pages nobody.
    expect(await get(bob, bob)).toEqual({ data: [], count: 0, isDefault: true });

    // Another person's rules: an admin's only.
    expect((await t.call('GET', rules(ann), { cookie: bob.cookie })).status).toBe(403);
    expect((await addRule(ann, { method: 'Phone', afterMinutes: 30 }, bob)).status).toBe(403);
    const byAdmin = await addRule(ann, { method: 'Work mail', afterMinutes: 30 }, admin);
    expect(byAdmin.status).toBe(201);
    expect((await t.call('DELETE', `${rules(ann)}/${byAdmin.body.result._id}`, { cookie: bob.cookie })).status).toBe(403);
    expect((await t.call('DELETE', `${rules(ann)}/${byAdmin.body.result._id}`, { cookie: admin.cookie })).body.result).toMatchObject({ afterMinutes: 30, method: { label: 'Work mail' } });
    expect((await t.call('DELETE', `${rules(ann)}/${byAdmin.body.result._id}`, { cookie: ann.cookie })).status).toBe(404);

    // Removing a method removes its steps; removing every step brings the default back.
    expect((await t.call('DELETE', `${base(ann)}/Pushover`, { cookie: ann.cookie })).status).toBe(200);
    expect((await get(ann, ann)).data.map((r: any) => r.method.label)).toEqual(['Phone', 'Mobile SMS', 'Mobile call']);
    for (const r of (await get(ann, ann)).data) expect((await t.call('DELETE', `${rules(ann)}/${r._id}`, { cookie: ann.cookie })).status).toBe(200);
    expect(await get(ann, ann)).toMatchObject({ isDefault: true, count: 7 });
    await t.call('DELETE', `${base(bob)}/Unverified`, { cookie: bob.cookie });
  });
});
