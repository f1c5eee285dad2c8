import net from 'node:net';
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { channelLabels } from '../contract/channels';
import { emailMessage, escapeHtml, type EmailMessage, type Transition } from '../alerting/delivery-messages';
import { refusalOf } from '../outbound/http-client';
import { OutboundPolicy } from '../outbound/policy';
import type { ChannelMessage, ChannelPlugin } from './types';

/** What the SMTP server said about each recipient of one message. */
export interface EmailResult {
  accepted: string[];
  /** Refused recipients with the reason; the others got the message. */
  rejected: { address: string; error: string }[];
}

export interface Mailer {
  /** One message to all `to`; throws when nothing was accepted (connection, auth, every recipient refused). */
  send(to: string[], message: EmailMessage): Promise<EmailResult>;
  close(): void;
}

type AddressLike = string | { address: string };
const addressOf = (a: AddressLike) => (typeof a === 'string' ? a : a.address);

/**
 * An SMTP failure in fixed words: the reply code and enhanced status code (`550 5.1.1`) the
 * relay gave, never its text (docs/decisions.md "One outbound policy": no peer's answer is
 * shown beyond its status).
 */
export function smtpReason(error: unknown): string {
  const refused = refusalOf(error);
  if (refused) return refused;
  const e = error as { code?: string; responseCode?: number; response?: string; message?: string };
  const codes = replyCodes(e);
  const reply = !!codes;
  // Socket errors carry Node's code (ECONNREFUSED …) as theirs or in their message; only known ones are named.
  const errno = [e?.code, ...(e?.message?.match(/\bE[A-Z_]{4,}\b/g) ?? [])].find((c): c is string => !!c && SOCKET_ERRORS.has(c));
  switch (e?.code) {
    case 'EAUTH':
      return `the SMTP server refused the credentials${codes}`;
    case 'EDNS':
    case 'ENOTFOUND':
      return "the SMTP server's name does not resolve";
    case 'ETLS':
      return 'the TLS connection to the SMTP server failed';
    case 'EENVELOPE':
      return `the SMTP server refused the sender or every recipient${codes}`;
    case 'EMESSAGE':
      return `the SMTP server refused the message${codes}`;
    case 'EPROTOCOL':
      return 'the SMTP server answered something that is not SMTP';
    case 'ETIMEDOUT':
      return 'the SMTP server did not answer in time';
  }
  if (errno === 'ECONNREFUSED') return 'the SMTP server could not be reached: connection refused';
  if (errno === 'ETIMEDOUT') return 'the SMTP server did not answer in time';
  if (reply) return `the SMTP server refused${codes}`;
  return errno ? `the connection to the SMTP server failed (${errno})` : 'the connection to the SMTP server failed';
}

const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EPIPE', 'EADDRNOTAVAIL', 'EAI_AGAIN']);

/** ` (550 5.1.1)`: an SMTP reply's code and enhanced status code, or '' when it has none. */
function replyCodes(e: { responseCode?: number; response?: string } | undefined): string {
  const reply = e?.responseCode ?? (Number(/^(\d{3})/.exec(e?.response ?? '')?.[1]) || null);
  const enhanced = /^\d{3}[ -]([245]\.\d{1,3}\.\d{1,3})\b/.exec(e?.response ?? '')?.[1];
  return reply ? ` (${reply}${enhanced ? ` ${enhanced}` : ''})` : '';
}

/**
 * SMTP through nodemailer. Timeouts are far below nodemailer's defaults (2 min connect, 10 min
 * idle): a hung server must not hold the outbox row (and on PostgreSQL its row lock) for long.
 * The connection is made by the outbound policy (nodemailer's getSocket): SMTP_URL's host is
 * decided on like a channel's, on the address it resolves to when the mail goes out.
 */
export function smtpMailer(url: string, from: string, outbound: OutboundPolicy = new OutboundPolicy()): Mailer {
  const connectionTimeout = 10_000;
  const getSocket = (options: SMTPTransport.Options, callback: (err: Error | null, socketOptions?: { connection: net.Socket }) => void) => {
    const host = options.host || 'localhost';
    const port = Number(options.port) || (options.secure ? 465 : 587);
    let lookup;
    try {
      ({ lookup } = outbound.connectOptions(host, port, 'channel'));
    } catch (error) {
      return callback(error as Error);
    }
    const socket = net.connect({ host, port, lookup });
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      callback(error);
    };
    const timer = setTimeout(() => fail(Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' })), connectionTimeout);
    socket.once('error', fail);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.off('error', fail);
      // nodemailer takes it from here, TLS included (smtps:// and STARTTLS upgrade this socket).
      callback(null, { connection: socket });
    });
  };
  const transport = nodemailer.createTransport({ url, connectionTimeout, greetingTimeout: 10_000, socketTimeout: 30_000, getSocket } as SMTPTransport.Options);
  return {
    async send(to, message) {
      try {
        const info = await transport.sendMail({ from, to, subject: message.subject, text: message.text, html: message.html });
        const errors = ((info as { rejectedErrors?: { recipient?: string; responseCode?: number; response?: string }[] }).rejectedErrors ?? []).map((e) => ({
          address: e.recipient ?? '',
          error: `refused by the SMTP server${replyCodes(e)}`,
        }));
        const rejected = (info.rejected as AddressLike[]).map(addressOf).map((address) => ({ address, error: errors.find((e) => e.address === address)?.error ?? 'refused by the SMTP server' }));
        return { accepted: (info.accepted as AddressLike[]).map(addressOf), rejected };
      } catch (error) {
        throw new Error(smtpReason(error));
      }
    },
    close: () => transport.close(),
  };
}

/**
 * SPEC's email: the group's list (and the named users of an escalation step or an
 * acknowledgement), one message to all, through the console's SMTP_URL. `mailer` is null when
 * SMTP_URL is not set.
 */
export interface EmailTarget {
  type: 'email';
  id: 'email';
  name: string;
  to: string[];
  mailer: Mailer | null;
  /**
   * The signed actions for a recipient who is a person who may act (issue 27 §4), or null: such a
   * recipient gets a message of their own with them; the others share one without.
   */
  actionsFor?: ((address: string) => NonNullable<ChannelMessage['extra']['actions']> | null) | null;
}

/** A notice (a verification code) is its own short mail; anything else is the alert's. */
const mail = (m: ChannelMessage): EmailMessage =>
  m.notice ? { subject: m.notice.title, text: `${m.notice.text}\n`, html: `<p>${escapeHtml(m.notice.text)}</p>` } : emailMessage(m.alert, m.transition as Transition, m.link, m.extra);

export const emailChannel: ChannelPlugin<'email'> = {
  type: 'email',
  label: channelLabels.email,
  noun: 'Email',
  // Firing and resolved messages; an acknowledgement is for channels with an incident state of their own.
  sends: (t) => t !== 'acknowledged',
  target: (c) => c.to.join(', '),
  endpoints: () => [],
  unready: (c) => (!c.mailer ? 'SMTP_URL is not set, so Opsdeck sends no email.' : !c.to.length ? 'The notification group has no email addresses.' : null),
  preview: (_c, m) => {
    const { subject, text } = mail(m);
    return { subject, text };
  },
  // A retry goes to the addresses that refused it, or could not be reached, and to nobody who has it.
  resume(c, sent) {
    const sentTo = new Set(sent.flatMap((t) => t.split(', ').filter(Boolean)).map((a) => a.toLowerCase()));
    const to = c.to.filter((a) => !sentTo.has(a.toLowerCase()));
    return to.length ? { ...c, to } : null;
  },
  async send(c, m) {
    const mailer = c.mailer;
    if (!mailer) throw new Error('SMTP_URL is not set, so Opsdeck sends no email.');
    const own = m.notice || m.test || !c.actionsFor ? [] : c.to.flatMap((address) => {
      const actions = c.actionsFor!(address);
      return actions ? [{ address, actions }] : [];
    });
    if (!own.length) {
      const sent = await mailer.send(c.to, mail(m));
      return { status: null, accepted: sent.accepted, refused: sent.rejected };
    }
    // Links that act as one person go to that person alone; everyone else shares one message.
    const mine = new Set(own.map((o) => o.address));
    const shared = c.to.filter((a) => !mine.has(a));
    const sends: { to: string[]; message: EmailMessage }[] = [
      ...(shared.length ? [{ to: shared, message: mail(m) }] : []),
      ...own.map((o) => ({ to: [o.address], message: mail({ ...m, extra: { ...m.extra, actions: o.actions } }) })),
    ];
    const accepted: string[] = [];
    const refused: { address: string; error: string }[] = [];
    let firstError: unknown = null;
    for (const s of sends) {
      try {
        const sent = await mailer.send(s.to, s.message);
        accepted.push(...sent.accepted);
        refused.push(...sent.rejected);
      } catch (error) {
        firstError ??= error;
        refused.push(...s.to.map((address) => ({ address, error: (error as Error).message })));
      }
    }
    // Nobody took it: the attempt failed as a whole, and is retried as one.
    if (!accepted.length && firstError) throw firstError;
    return { status: null, accepted, refused };
  },
};
