import type { ChannelConfig, ChannelType } from '../contract/channels';
import type { OutboxTransition } from '../contract/alerts';
import type { AlertForMessage, MessageExtra } from '../alerting/delivery-messages';
import type { OutboundFetch } from '../outbound/http-client';

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
}

/** A channel target with its secrets opened, as a plugin sees it. */
export type ChannelTarget<T extends ChannelType = ChannelType> = Extract<ChannelConfig, { type: T }> & { id: string };

/** A successful send: the peer's HTTP status. */
export interface SendResult {
  status: number;
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

export interface ChannelPlugin<T extends ChannelType = ChannelType> {
  type: T;
  label: string;
  /**
   * The transitions this channel hears about. Email and chat channels skip `acknowledged`;
   * PagerDuty, with an incident state of its own, sends it. Others are neither sent nor logged.
   */
  sends(transition: OutboxTransition): boolean;
  /** One line naming where it sends, without secrets (delivery log, API). */
  target(config: ChannelTarget<T>): string;
  /**
   * The URLs it sends to that the person who configures it chose (not a provider's fixed
   * endpoint), by field: the outbound policy looks at them when the target is saved.
   */
  endpoints(config: Omit<ChannelTarget<T>, 'id'>): { field: string; url: string }[];
  /** `fetch` is the console's, through the outbound policy: every connection is decided by it. */
  send(config: ChannelTarget<T>, message: ChannelMessage, options: { timeoutMs: number; fetch: OutboundFetch }): Promise<SendResult>;
}
