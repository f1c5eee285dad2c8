import { contactKindLabels } from '../contract/contact-methods';
import { postForm } from './http';
import { headline, summaryLine } from './text';
import { ChannelError, type ChannelMessage, type ChannelPlugin } from './types';

export const TWILIO_API_URL = 'https://api.twilio.com';

/** The console's Twilio account (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM). */
export interface TwilioAccount {
  accountSid: string;
  authToken: string;
  /** The Twilio number messages and calls come from, E.164. */
  from: string;
  apiUrl: string;
}

/** A person's phone number, texted or called through the console's Twilio account (null when not set up). */
export interface PhoneTarget {
  type: 'sms' | 'voice';
  id: string;
  name: string;
  to: string;
  twilio: TwilioAccount | null;
}

/** What Twilio's statuses mean for Messages and Calls (twilio.com/docs/usage/twilios-response). */
const MEANINGS: Record<number, string> = { 400: 'the number or the request was refused', 401: 'the account SID or auth token was refused', 404: 'the account SID is unknown' };
const UNSET = 'Twilio is not set up (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM), so Opsdeck sends no SMS and makes no calls.';

/** "+1555…0123": enough of a number to tell two apart. */
const maskPhone = (n: string) => (n.length > 6 ? `${n.slice(0, 4)}…${n.slice(-4)}` : n);

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/** TwiML for a call (twilio.com/docs/voice/twiml/say): the words said twice, then the call ends. */
export function callTwiml(m: ChannelMessage): string {
  const words = escapeXml(m.notice ? (m.notice.spoken ?? m.notice.text) : `${headline(m)}. ${summaryLine(m)}`);
  return `<Response><Say>${words}</Say><Pause length="1"/><Say>${words}</Say></Response>`;
}

/** POST /2010-04-01/Accounts/{AccountSid}/{Messages|Calls}.json with HTTP basic auth (SID and auth token). */
async function postTwilio(resource: 'Messages' | 'Calls', c: PhoneTarget, fields: Record<string, string>, options: { timeoutMs: number; fetch: Parameters<typeof postForm>[3]['fetch'] }) {
  const account = c.twilio;
  if (!account) throw new ChannelError(UNSET, null, true);
  const url = `${account.apiUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(account.accountSid)}/${resource}.json`;
  const authorization = `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}`;
  const res = await postForm('Twilio', url, { To: c.to, From: account.from, ...fields }, { ...options, headers: { authorization }, meanings: MEANINGS });
  return { status: res.status };
}

const phonePlugin = <T extends 'sms' | 'voice'>(type: T, noun: string, fields: (m: ChannelMessage) => Record<string, string>): ChannelPlugin<T> => ({
  type,
  label: contactKindLabels[type],
  noun,
  sends: (t) => t !== 'acknowledged',
  target: (c) => maskPhone(c.to),
  // TWILIO_API_URL is the console's setting, not the person's.
  endpoints: () => [],
  unready: (c) => (c.twilio ? null : UNSET),
  send: (c, m, options) => postTwilio(type === 'sms' ? 'Messages' : 'Calls', c, fields(m), options),
});

/** An SMS (twilio.com/docs/messaging/api/message-resource#create-a-message-resource): To, From, Body. */
export const smsChannel = phonePlugin('sms', 'SMS', (m) => ({ Body: (m.notice ? `${m.notice.title}: ${m.notice.text}` : `${headline(m)}\n${summaryLine(m)}\n${m.link}`).slice(0, 1600) }));

/** A voice call (twilio.com/docs/voice/api/call-resource#create-a-call-resource): To, From, Twiml. */
export const voiceChannel = phonePlugin('voice', 'Voice call', (m) => ({ Twiml: callTwiml(m) }));
