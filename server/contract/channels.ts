import { z } from 'zod';
import { str } from './common';

/**
 * Issue 15 §1: channel targets of a notification group, beside SPEC's email list and Slack
 * channel. Each target has a type (one plugin in server/channels/), plain settings, and secrets
 * (tokens, webhook URLs with keys) that the server stores encrypted and never returns in full:
 * the API answers with masked secrets. Shared with the web app and the commands.
 */

export const channelTypes = ['webhook', 'teams', 'pagerduty', 'telegram', 'ntfy'] as const;
export type ChannelType = (typeof channelTypes)[number];
/**
 * Every channel's name as people read it: SPEC's own two (a group's email list and its Slack
 * channel) and the target types. The server's plugins (server/channels/) carry these as their
 * labels; the web app, which does not load the plugins, reads them here.
 */
export const channelLabels = {
  email: 'Email',
  slack: 'Slack',
  webhook: 'Webhook',
  teams: 'Microsoft Teams',
  pagerduty: 'PagerDuty',
  telegram: 'Telegram',
  ntfy: 'ntfy',
} as const satisfies Record<ChannelType | 'email' | 'slack', string>;
export const channelTypeLabels: Record<ChannelType, string> = channelLabels;
export const MAX_CHANNELS_PER_GROUP = 20;

export const httpUrl = (field: string) =>
  str({ error: `${field} is required` })
    .trim()
    .min(1, `${field} is required`)
    .max(2000, `${field} has at most 2000 characters`)
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
      } catch {
        return false;
      }
    }, `${field} must be an http:// or https:// URL`);

/** Custom request headers of a webhook: names as HTTP allows them, values on one line. */
const headerName = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const RESERVED_HEADERS = new Set(['content-type', 'content-length', 'host', 'x-opsdeck-signature']);
const headersSchema = z
  .record(str(), str().max(2000, 'A header value has at most 2000 characters'))
  .superRefine((h, ctx) => {
    const names = Object.keys(h);
    if (names.length > 20) ctx.addIssue({ code: 'custom', message: 'At most 20 custom headers' });
    for (const name of names) {
      if (!headerName.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: `"${name}" is not a valid header name` });
      else if (RESERVED_HEADERS.has(name.toLowerCase())) ctx.addIssue({ code: 'custom', path: [name], message: `${name} is set by Opsdeck` });
      else if (/[\r\n\0]/.test(h[name]!)) ctx.addIssue({ code: 'custom', path: [name], message: 'A header value must be on one line' });
      // What HTTP can carry (RFC 9110 field-value: bytes, no controls); anything else fails every send.
      else if (/[^\t\x20-\x7e\x80-\xff]/.test(h[name]!)) ctx.addIssue({ code: 'custom', path: [name], message: 'A header value may hold only printable ASCII and Latin-1 characters' });
    }
  });

const name = str({ error: 'name is required' }).trim().min(1, 'name is required').max(100, 'name has at most 100 characters');

/**
 * The settings and secrets of the targets a person can also be reached on (contract/contact-methods.ts):
 * one definition, so a group's target and a person's contact method are checked alike.
 */
export const webhookFields = {
  settings: z.object({}).strict().default({}),
  secrets: z
    .object({
      url: httpUrl('secrets.url'),
      /** HMAC-SHA256 key: the body's signature goes in X-Opsdeck-Signature. */
      signingSecret: str().max(500, 'signingSecret has at most 500 characters').optional(),
      headers: headersSchema.optional(),
    })
    .strict(),
};
export const telegramFields = {
  settings: z
    .object({
      chatId: str({ error: 'settings.chatId is required' }).trim().regex(/^(-?\d{1,20}|@[A-Za-z0-9_]{4,64})$/, 'settings.chatId must be a chat id (123456, -100123456) or @channelname'),
      apiUrl: httpUrl('settings.apiUrl').optional(),
    })
    .strict(),
  secrets: z.object({ botToken: str({ error: 'secrets.botToken is required' }).trim().regex(/^\d+:[A-Za-z0-9_-]{20,}$/, 'secrets.botToken must look like 123456:ABC-DEF… (from @BotFather)') }).strict(),
};
export const ntfyFields = {
  settings: z
    .object({
      serverUrl: httpUrl('settings.serverUrl').optional(),
      priority: z.number({ error: 'settings.priority must be 1 to 5' }).int().min(1, 'settings.priority must be 1 to 5').max(5, 'settings.priority must be 1 to 5').optional(),
    })
    .strict()
    .default({}),
  // On a public ntfy server the topic is the password: it is kept as a secret.
  secrets: z
    .object({
      topic: str({ error: 'secrets.topic is required' }).trim().regex(/^[-_A-Za-z0-9]{1,64}$/, 'secrets.topic may hold letters, digits, - and _ (at most 64)'),
      token: str().trim().max(200).optional(),
    })
    .strict(),
};

/** The fields of each type: `settings` are shown as they are; `secrets` are encrypted and masked. */
export const channelInputSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('webhook'), name, ...webhookFields }).strict(),
    z.object({ type: z.literal('teams'), name, settings: z.object({}).strict().default({}), secrets: z.object({ url: httpUrl('secrets.url') }).strict() }).strict(),
    z
      .object({
        type: z.literal('pagerduty'),
        name,
        settings: z.object({ eventsUrl: httpUrl('settings.eventsUrl').optional() }).strict().default({}),
        secrets: z.object({ routingKey: str({ error: 'secrets.routingKey is required' }).trim().min(1, 'secrets.routingKey is required').max(200) }).strict(),
      })
      .strict(),
    z.object({ type: z.literal('telegram'), name, ...telegramFields }).strict(),
    z.object({ type: z.literal('ntfy'), name, ...ntfyFields }).strict(),
  ],
  { error: `type must be one of ${channelTypes.join(', ')}` },
);
export type ChannelInput = z.input<typeof channelInputSchema>;
export type ChannelConfig = z.output<typeof channelInputSchema>;

/**
 * PATCH a channel target in place (its type stays). Each part is merged over what is stored:
 * a setting or secret given replaces the stored one, one left out — or a secret given empty —
 * is kept (secrets are never shown, so a form cannot send them back), and `null` removes an
 * optional one. `headers` given replace all custom headers. The merged target is checked as a
 * new one would be, so a refusal names the same field (`secrets.url`).
 */
export const channelUpdateSchema = z
  .object({
    name: name.optional(),
    settings: z.record(str(), z.union([str(), z.number(), z.null()])).optional(),
    secrets: z.record(str(), z.union([str(), z.record(str(), str()), z.null()])).optional(),
  })
  .strict()
  .refine((v) => v.name !== undefined || v.settings !== undefined || v.secrets !== undefined, { message: 'Nothing to change: give name, settings or secrets' });
export type ChannelUpdate = z.input<typeof channelUpdateSchema>;

/** What the API returns: secrets masked (`https://hooks.example.com/…`, `••••1234`). */
export const notificationChannelSchema = z.object({
  _id: str(),
  groupId: str(),
  type: z.enum(channelTypes),
  name: str(),
  settings: z.record(str(), z.union([str(), z.number()])),
  secrets: z.record(str(), z.union([str(), z.record(str(), str())])),
  /** One line naming where it sends, masked: what the delivery log shows. */
  target: str(),
  createdAt: str(),
});
export type NotificationChannel = z.infer<typeof notificationChannelSchema>;

export const testGroupSchema = z.object({ channel: str().trim().min(1).max(100).optional() }).strict();

/** One channel's answer to a test notification. */
export const channelTestResultSchema = z.object({
  channel: str(),
  name: str(),
  target: str(),
  ok: z.boolean(),
  /** The peer's HTTP status, when there was an answer. */
  status: z.number().int().nullable(),
  error: str().nullable(),
});
export type ChannelTestResult = z.infer<typeof channelTestResultSchema>;

/** One attempt in an alert's delivery log (issue 15 §4). */
export const deliveryLogEntrySchema = z.object({
  _id: str(),
  at: str(),
  transition: str(),
  /** email, slack, or a channel type. */
  channel: str(),
  /** The channel target's name (null for email and Slack, or once the target was removed). */
  channelName: str().nullable(),
  target: str(),
  attempt: z.number().int(),
  outcome: z.enum(['sent', 'failed', 'skipped']),
  responseCode: z.number().int().nullable(),
  error: str().nullable(),
  retryAt: str().nullable(),
  /** A channel that could not send (no SMTP_URL, no Slack token): the message as it would have gone out. */
  message: z.object({ subject: str().nullable(), text: str() }).nullable(),
});
export type DeliveryLogEntry = z.infer<typeof deliveryLogEntrySchema>;
