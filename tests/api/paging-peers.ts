import type { IncomingMessage } from 'node:http';
import { startStandIn } from './channel-peers';

/**
 * Local stand-ins for the providers a person is paged through (issue 27 §2): Pushover's Message
 * API, Twilio's Messages and Calls resources, and Slack's chat.postMessage. Each checks the
 * request against the provider's published format and answers as the provider does, so a shape
 * error in Opsdeck fails the test.
 *
 * Formats: pushover.net/api (POST /1/messages.json, form fields token, user, message; `{status:1,
 * request}` / 400 `{status:0, errors}`); twilio.com/docs/messaging/api/message-resource and
 * twilio.com/docs/voice/api/call-resource (POST /2010-04-01/Accounts/{AccountSid}/Messages.json
 * and /Calls.json, HTTP basic auth with the SID and auth token, form fields To, From and Body or
 * Twiml/Url; 201 with the resource, 401 code 20003, 400 code 21211); docs.slack.dev
 * chat.postMessage (Bearer token, JSON {channel, text|blocks}; `{ok, channel, ts}`).
 */

export const PAGING_SECRETS = {
  pushoverAppToken: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi',
  pushoverUserKey: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG',
  twilioSid: 'AC0123456789abcdef0123456789abcdef',
  twilioToken: 'twilio-auth-token-5f2e9c0d1b',
  twilioFrom: '+15005550006',
  slackToken: 'xoxb-paging-test-token-1234',
};

export interface PagingCall {
  peer: 'pushover' | 'twilio-sms' | 'twilio-voice' | 'slack';
  path: string;
  headers: IncomingMessage['headers'];
  fields: Record<string, string>;
  body: any;
}

const E164 = /^\+[1-9]\d{6,14}$/;

export function pushoverProblems(f: Record<string, string>): string[] {
  const p: string[] = [];
  if (!/^[A-Za-z0-9]{30}$/.test(f.token ?? '')) p.push('application token is invalid');
  if (!/^[A-Za-z0-9]{30}$/.test(f.user ?? '')) p.push('user identifier is invalid');
  if (!f.message) p.push('message cannot be blank');
  else if (f.message.length > 1024) p.push('message is too long');
  if (f.title !== undefined && f.title.length > 250) p.push('title is too long');
  if (f.url !== undefined && f.url.length > 512) p.push('url is too long');
  return p;
}

export function twilioProblems(resource: 'Messages' | 'Calls', f: Record<string, string>): { code: number; message: string } | null {
  if (!E164.test(f.To ?? '')) return { code: 21211, message: "The 'To' number is not a valid phone number." };
  if (!E164.test(f.From ?? '')) return { code: 21212, message: "The 'From' number is not a valid phone number." };
  if (resource === 'Messages' && !f.Body) return { code: 21602, message: 'Message body is required.' };
  if (resource === 'Messages' && f.Body!.length > 1600) return { code: 21617, message: 'The concatenated message body exceeds the 1600 character limit.' };
  if (resource === 'Calls' && !f.Url && !f.Twiml) return { code: 21205, message: 'Url or Twiml is required.' };
  if (resource === 'Calls' && f.Twiml && !/^<Response>[\s\S]*<\/Response>$/.test(f.Twiml)) return { code: 12100, message: 'Document parse failure' };
  return null;
}

export interface PagingPeers {
  url: string;
  calls: PagingCall[];
  close(): Promise<void>;
}

export async function startPagingPeers(): Promise<PagingPeers> {
  const calls: PagingCall[] = [];
  const peer = await startStandIn((req, res, raw) => {
    const url = req.url ?? '';
    const type = String(req.headers['content-type'] ?? '');
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method !== 'POST') return json(405, { error: 'POST only' });
    const form = type.startsWith('application/x-www-form-urlencoded') ? Object.fromEntries(new URLSearchParams(raw)) : null;

    if (url === '/pushover/1/messages.json') {
      if (!form) return json(400, { status: 0, errors: ['request must be form-encoded'], request: 'r0' });
      calls.push({ peer: 'pushover', path: url, headers: req.headers, fields: form, body: null });
      const problems = pushoverProblems(form);
      if (!problems.length && form.token !== PAGING_SECRETS.pushoverAppToken) problems.push('application token is invalid');
      if (!problems.length && form.user !== PAGING_SECRETS.pushoverUserKey) problems.push('user identifier is not a valid user, group, or subscribed user key');
      return problems.length ? json(400, { status: 0, errors: problems, request: `r${calls.length}` }) : json(200, { status: 1, request: `r${calls.length}` });
    }
    const tw = /^\/twilio\/2010-04-01\/Accounts\/([^/]+)\/(Messages|Calls)\.json$/.exec(url);
    if (tw) {
      const resource = tw[2] as 'Messages' | 'Calls';
      const expected = `Basic ${Buffer.from(`${PAGING_SECRETS.twilioSid}:${PAGING_SECRETS.twilioToken}`).toString('base64')}`;
      if (req.headers.authorization !== expected || tw[1] !== PAGING_SECRETS.twilioSid) return json(401, { code: 20003, message: 'Authenticate', more_info: 'https://www.twilio.com/docs/errors/20003', status: 401 });
      if (!form) return json(400, { code: 20001, message: 'Request must be form-encoded', status: 400 });
      calls.push({ peer: resource === 'Messages' ? 'twilio-sms' : 'twilio-voice', path: url, headers: req.headers, fields: form, body: null });
      const problem = twilioProblems(resource, form);
      if (problem) return json(400, { ...problem, more_info: `https://www.twilio.com/docs/errors/${problem.code}`, status: 400 });
      const sid = `${resource === 'Messages' ? 'SM' : 'CA'}${String(calls.length).padStart(32, '0')}`;
      return json(201, { sid, account_sid: PAGING_SECRETS.twilioSid, to: form.To, from: form.From, status: 'queued', ...(resource === 'Messages' ? { body: form.Body } : {}) });
    }
    if (url === '/slack/chat.postMessage') {
      let body: any;
      try {
        body = JSON.parse(raw);
      } catch {
        return json(200, { ok: false, error: 'invalid_json' });
      }
      calls.push({ peer: 'slack', path: url, headers: req.headers, fields: {}, body });
      if (req.headers.authorization !== `Bearer ${PAGING_SECRETS.slackToken}`) return json(200, { ok: false, error: 'invalid_auth' });
      if (typeof body.channel !== 'string' || !body.channel) return json(200, { ok: false, error: 'channel_not_found' });
      if (!body.text && !Array.isArray(body.blocks)) return json(200, { ok: false, error: 'no_text' });
      return json(200, { ok: true, channel: `D${body.channel.slice(1)}`, ts: `${Date.now() / 1000}` });
    }
    return json(404, { error: 'no such path' });
  });
  return { ...peer, calls };
}
