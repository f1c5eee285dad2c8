import { z } from 'zod';
import { str } from './common';

/**
 * Issue 15 §3: Alertmanager's webhook payload (version 4), what `POST /api/integrations/alertmanager`
 * takes. Fields Alertmanager sends that we do not read (groupLabels, commonLabels, …) are allowed
 * and ignored; the ones we read are checked, so a bad payload is a 400 naming the field.
 */
const MAX_LABEL = 4096;
const labelMap = z
  .record(str().max(256, 'a label name is at most 256 characters'), str().max(MAX_LABEL, `a value is at most ${MAX_LABEL} characters`), { error: 'must be an object of names to text' })
  .refine((m) => Object.keys(m).length <= 100, 'at most 100 entries');
const timestamp = str({ error: 'must be an RFC 3339 time' }).refine((v) => /^\d{4}-\d\d-\d\dT/.test(v) && !Number.isNaN(Date.parse(v)), 'must be an RFC 3339 time');

export const amWebhookAlertSchema = z.object({
  status: z.enum(['firing', 'resolved'], { error: 'must be firing or resolved' }),
  labels: labelMap,
  annotations: labelMap.optional(),
  startsAt: timestamp,
  endsAt: timestamp.optional(),
  generatorURL: str().max(MAX_LABEL).optional(),
  fingerprint: str({ error: 'is required (Alertmanager 0.19 or later sends it)' }).trim().min(1, 'must not be empty').max(256, 'is at most 256 characters'),
});
export type AmWebhookAlert = z.infer<typeof amWebhookAlertSchema>;

export const amWebhookSchema = z.object({
  version: z.literal('4', { error: 'must be "4" (Alertmanager webhook payload version 4)' }),
  receiver: str().max(500).optional(),
  status: z.enum(['firing', 'resolved']).optional(),
  externalURL: str().max(MAX_LABEL).optional(),
  groupKey: str().max(MAX_LABEL).optional(),
  alerts: z.array(amWebhookAlertSchema, { error: 'must be a list of alerts' }).max(1000, 'at most 1000 alerts per notification'),
});
export type AmWebhook = z.infer<typeof amWebhookSchema>;

/** What the receiver did with one notification. */
export const amReceiveResultSchema = z.object({
  opened: z.number(),
  updated: z.number(),
  resolved: z.number(),
  /** Alerts Opsdeck pushed itself, resolutions of alerts it does not hold open, occurrences an operator resolved. */
  ignored: z.number(),
  alertIds: z.array(str()),
});
export type AmReceiveResult = z.infer<typeof amReceiveResultSchema>;

/** POST /api/integrations/alertmanager/token: the token, shown this once. */
export const receiverTokenSchema = z.object({ token: str(), prefix: str(), createdAt: str() });

const instanceStatusSchema = z.object({ url: str(), ok: z.boolean().nullable(), lastOkAt: str().nullable(), lastError: str().nullable() });
/** GET /api/integrations/alertmanager. */
export const integrationsStatusSchema = z.object({
  push: z.object({
    urls: z.array(str()),
    running: z.boolean(),
    lastPushAt: str().nullable(),
    lastFullAt: str().nullable(),
    instances: z.array(instanceStatusSchema),
    silences: z
      .object({
        lastSyncAt: str().nullable(),
        lastError: str().nullable(),
        mirrored: z.record(str(), str()),
        skipped: z.array(z.object({ id: str(), reason: str() })),
      })
      .nullable(),
  }),
  receiver: z.object({
    enabled: z.boolean(),
    fromEnvironment: z.boolean(),
    token: z.object({ prefix: str(), createdAt: str(), createdBy: str() }).nullable(),
  }),
});
export type IntegrationsStatus = z.infer<typeof integrationsStatusSchema>;
export type ReceiverToken = z.infer<typeof receiverTokenSchema>;
