import type { ChannelConfig, ChannelType } from '../contract/channels';
import type { OutboxTransition } from '../contract/alerts';
import type { AlertForMessage, MessageExtra } from '../alerting/delivery-messages';
import { refusalOf, type OutboundFetch } from '../outbound/http-client';
import type { EmailTarget } from './email';
import type { PushoverTarget } from './pushover';
import type { SlackTarget } from './slack';
import type { PhoneTarget } from './twilio';

/** What a channel sends about: the alert, what happened to it, and where to look. */
export interface ChannelMessage {
  alert: AlertForMessage & { serverId?: string | null; type?: string; ruleName?: string | null };
  transition: OutboxTransition;
  /** The alert's page in the console. */
  link: string;
  publicUrl: string;
  extra: MessageExtra;
  /** A "send test notification" run, not a real alert. */
  test?: boolean;
  /**
   * A message to one person about no alert (a contact method's verification code): every channel
   * sends these words instead of the alert's. `spoken`: what a voice call says, when it differs.
   */
  notice?: { title: string; text: string; spoken?: string };
}

/**
 * Every channel a notification group sends on: SPEC's own two, configured on the group itself
 * (its email list, its Slack channel) with the console's SMTP_URL and SLACK_BOT_TOKEN, and the
 * stored target types (contract/channels.ts).
 */
export type DeliveryChannel = ChannelType | 'email' | 'slack' | PersonalChannel;

/** The channels only a person's contact method sends on, through the console's Pushover and Twilio settings. */
export type PersonalChannel = 'pushover' | 'sms' | 'voice';

/** A stored channel target with its secrets opened, as a plugin sees it. */
export type ChannelTarget<T extends ChannelType = ChannelType> = Extract<ChannelConfig, { type: T }> & { id: string };

/** What a plugin sends with: a stored target, or the group's email list or Slack channel. */
export type TargetOf<T extends DeliveryChannel> = T extends 'email'
  ? EmailTarget
  : T extends 'slack'
    ? SlackTarget
    : T extends 'pushover'
      ? PushoverTarget
      : T extends 'sms' | 'voice'
        ? PhoneTarget & { type: T }
        : ChannelTarget<Extract<T, ChannelType>>;

/** A successful send: the peer's HTTP status (null where there is none: SMTP). */
export interface SendResult {
  status: number | null;
  /** A target of several recipients (email): those who took it, when not all of them did. */
  accepted?: string[];
  /** …and those who refused it, with the reason; they are tried again. */
  refused?: { address: string; error: string }[];
}

/**
 * A failed send. `retryAfterS`: the peer said when to come back (Retry-After on 429/5xx);
 * `permanent`: the peer refused the request itself (4xx other than 408/429) or the target is
 * unusable, so trying again cannot help — it fails once, with the reason in the delivery log.
 */
export class ChannelError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
    readonly permanent = false,
    readonly retryAfterS: number | null = null,
    /** What the peer answered, for a plugin to read a retry time from; never shown or logged. */
    readonly peerBody: string | null = null,
  ) {
    super(message);
  }
}

/** Errors in one line, without credentials; kept for what is not a peer's answer (our own errors). */
export function describeError(error: unknown): string {
  const refused = refusalOf(error);
  if (refused) return refused;
  const e = error as { message?: string };
  return (e?.message || String(error)).replace(/\s+/g, ' ').trim().slice(0, 500);
}

/** Any failed send as a ChannelError: one that is not (a socket's, SMTP's) fails in its own words, to be retried. */
export const asChannelError = (error: unknown): ChannelError => (error instanceof ChannelError ? error : new ChannelError(describeError(error)));

export interface ChannelPlugin<T extends DeliveryChannel = DeliveryChannel> {
  type: T;
  /** The channel's name on screens, in test results and in commands' messages. */
  label: string;
  /** What one notification on it is called on the alert's timeline ("Telegram message sent to …"). */
  noun: string;
  /**
   * The transitions this channel hears about. Email and chat channels skip `acknowledged`;
   * PagerDuty, with an incident state of its own, sends it. Others are neither sent nor logged.
   */
  sends(transition: OutboxTransition): boolean;
  /** One line naming where it sends, without secrets (delivery log, API). */
  target(config: TargetOf<T>): string;
  /** How the alert's timeline says where it went, from the target line; the line itself by default. */
  where?(target: string): string;
  /**
   * The URLs it sends to that the person who configures it chose (not a provider's fixed
   * endpoint), by field: the outbound policy looks at them when the target is saved.
   */
  endpoints(config: Omit<TargetOf<T>, 'id'>): { field: string; url: string }[];
  /**
   * Why it cannot send at all (a console setting or the group's own field is missing), or null.
   * Such a channel is skipped, not failed: nothing to retry until a person sets it up.
   */
  unready?(config: TargetOf<T>): string | null;
  /** The message as it would have gone out, kept in the delivery log when it is skipped. */
  preview?(config: TargetOf<T>, message: ChannelMessage): { subject: string | null; text: string };
  /**
   * A target of several recipients tried again: the part that has not had the message (`sent`:
   * the targets of the attempts that were sent), or null when nobody is left.
   */
  resume?(config: TargetOf<T>, sent: string[]): TargetOf<T> | null;
  /** `fetch` is the console's, through the outbound policy: every connection is decided by it. */
  send(config: TargetOf<T>, message: ChannelMessage, options: { timeoutMs: number; fetch: OutboundFetch }): Promise<SendResult>;
}
