import { z } from 'zod';
import { notificationChannelSchema, ntfyFields, telegramFields, webhookFields } from './channels';
import { str } from './common';

/**
 * People's contact methods (issue 27 §2): the places one person is reached when they are paged —
 * an email address, an ntfy topic, a Telegram chat, a Slack member, Pushover, a webhook, a phone
 * number for SMS or voice calls. Each belongs to one user; it is unverified until a test message
 * with a short code has reached it and the code was entered. Secrets (topics, tokens, user keys,
 * webhook URLs) are stored encrypted and only ever answered masked, as a group's channel
 * targets' are (contract/channels.ts). Shared with the web app and the commands.
 */
export const contactKinds = ['email', 'ntfy', 'telegram', 'slack', 'pushover', 'webhook', 'sms', 'voice'] as const;
export type ContactKind = (typeof contactKinds)[number];
export const contactKindLabels: Record<ContactKind, string> = {
  email: 'Email',
  ntfy: 'ntfy',
  telegram: 'Telegram',
  slack: 'Slack',
  pushover: 'Pushover',
  webhook: 'Webhook',
  sms: 'SMS',
  voice: 'Voice call',
};
export const MAX_CONTACT_METHODS = 20;
/** Digits in a verification code; how long one is good for; how many wrong tries void it. */
export const VERIFY_CODE_DIGITS = 6;
export const VERIFY_CODE_TTL_S = 15 * 60;
export const VERIFY_MAX_ATTEMPTS = 5;

const label = str({ error: 'label is required' }).trim().min(1, 'label is required').max(100, 'label has at most 100 characters');
const none = z.object({}).strict().default({});
/** E.164, as Twilio takes it: a plus, the country code and the number, digits only. */
const phone = str({ error: 'settings.phone is required' })
  .trim()
  .regex(/^\+[1-9]\d{6,14}$/, 'settings.phone must be an international number in E.164 form, such as +15550100123');
const phoneFields = { settings: z.object({ phone }).strict(), secrets: none };

/** The fields of each kind: `settings` are shown as they are; `secrets` are encrypted and masked. */
export const contactMethodInputSchema = z.discriminatedUnion(
  'kind',
  [
    z
      .object({
        kind: z.literal('email'),
        label,
        settings: z.object({ address: z.email({ error: 'settings.address must be an email address' }).max(254, 'settings.address has at most 254 characters') }).strict(),
        secrets: none,
      })
      .strict(),
    z.object({ kind: z.literal('ntfy'), label, ...ntfyFields }).strict(),
    z.object({ kind: z.literal('telegram'), label, ...telegramFields }).strict(),
    z
      .object({
        kind: z.literal('slack'),
        label,
        // A member id (Profile → ⋮ → Copy member ID): the console's Slack app writes to it directly.
        settings: z.object({ memberId: str({ error: 'settings.memberId is required' }).trim().regex(/^[UW][A-Z0-9]{2,20}$/, 'settings.memberId must be a Slack member id such as U024BE7LH') }).strict(),
        secrets: none,
      })
      .strict(),
    z
      .object({
        kind: z.literal('pushover'),
        label,
        settings: z.object({ device: str().trim().regex(/^[A-Za-z0-9_-]{1,25}$/, 'settings.device may hold letters, digits, - and _ (at most 25)').optional() }).strict().default({}),
        secrets: z.object({ userKey: str({ error: 'secrets.userKey is required' }).trim().regex(/^[A-Za-z0-9]{30}$/, 'secrets.userKey must be the 30 letters and digits of your Pushover user key') }).strict(),
      })
      .strict(),
    z.object({ kind: z.literal('webhook'), label, ...webhookFields }).strict(),
    z.object({ kind: z.literal('sms'), label, ...phoneFields }).strict(),
    z.object({ kind: z.literal('voice'), label, ...phoneFields }).strict(),
  ],
  { error: `kind must be one of ${contactKinds.join(', ')}` },
);
export type ContactMethodInput = z.input<typeof contactMethodInputSchema>;
export type ContactMethodConfig = z.output<typeof contactMethodInputSchema>;

/** What the API answers: secrets masked (`••••1234`, `https://hooks.example.com/…`). */
export const contactMethodSchema = z.object({
  _id: str(),
  userId: str(),
  kind: z.enum(contactKinds),
  label: str(),
  // Settings as stored, secrets masked, where it sends in one line, masked: as a group's channel target's.
  ...notificationChannelSchema.pick({ settings: true, secrets: true, target: true }).shape,
  verified: z.boolean(),
  verifiedAt: str().nullable(),
  /** Until when the code of the last test message can be entered; null when none is open. */
  codeExpiresAt: str().nullable(),
  createdAt: str(),
});
export type ContactMethod = z.infer<typeof contactMethodSchema>;

/** The answer to "send test message": whether the kind's provider took it, and until when its code is good. */
export const contactTestResultSchema = z.object({
  method: contactMethodSchema,
  ok: z.boolean(),
  target: str(),
  /** The peer's HTTP status, when there was an answer. */
  status: z.number().int().nullable(),
  error: str().nullable(),
});
export type ContactTestResult = z.infer<typeof contactTestResultSchema>;

export const verifyContactSchema = z
  .object({
    code: str({ error: 'code is required' })
      .trim()
      .regex(new RegExp(`^\\d{${VERIFY_CODE_DIGITS}}$`), `code must be the ${VERIFY_CODE_DIGITS} digits of the test message`),
  })
  .strict();
export type VerifyContact = z.input<typeof verifyContactSchema>;

/**
 * A person's notification rules (issue 27 §2): an ordered list of steps, each "after N minutes
 * unacknowledged (0: at once), contact method X". A step names one of the person's own verified
 * methods, by id or label. Without steps, every verified method is paged at once (the default).
 */
export const MAX_NOTIFICATION_RULES = 20;
export const MAX_RULE_DELAY_MINUTES = 1440;

export const notificationRuleInputSchema = z
  .object({
    method: str({ error: 'method is required' }).trim().min(1, 'method is required'),
    afterMinutes: z
      .number({ error: 'afterMinutes must be a whole number of minutes' })
      .int('afterMinutes must be a whole number of minutes')
      .min(0, 'afterMinutes must be 0 (at once) or more')
      .max(MAX_RULE_DELAY_MINUTES, `afterMinutes is at most ${MAX_RULE_DELAY_MINUTES} (a day)`)
      .default(0),
  })
  .strict();
export type NotificationRuleInput = z.input<typeof notificationRuleInputSchema>;

export const notificationRuleSchema = z.object({
  /** null for a default step (no rules stored: each verified method at once). */
  _id: str().nullable(),
  userId: str(),
  afterMinutes: z.number().int(),
  method: z.object({ _id: str(), label: str(), kind: z.enum(contactKinds), target: str(), verified: z.boolean() }),
  createdAt: str().nullable(),
});
export type NotificationRule = z.infer<typeof notificationRuleSchema>;

/** A person's steps in the order they fire; `isDefault` when none are stored and the default applies. */
export const notificationRulesSchema = z.object({ data: z.array(notificationRuleSchema), count: z.number().int(), isDefault: z.boolean() });
export type NotificationRules = z.infer<typeof notificationRulesSchema>;
