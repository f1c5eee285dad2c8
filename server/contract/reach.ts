import { z } from 'zod';
import { str } from './common';

/** A group as the reach calls name it. */
const groupRefSchema = z.object({ _id: str(), name: str() });

/**
 * GET /api/alerting/reach (issue 24 §6): whether a firing alert reaches anyone. `state`: `ok`;
 * `no-group` — enabled rules notify no group and no default group is set; `no-channel` — none
 * of the groups the rules notify has a channel that can send (`silentBecause` says why per group).
 */
export const alertReachSchema = z.object({
  state: z.enum(['ok', 'no-group', 'no-channel']),
  /** Enabled rules of active, agent-configured servers and of checks. */
  rules: z.number().int(),
  /** Of those, the ones that notify no group. */
  silentRules: z.number().int(),
  /** Notification groups there are. */
  groups: z.number().int(),
  defaultGroup: groupRefSchema.nullable(),
  /** The groups enabled rules notify (and the default group), with what keeps each from sending (empty: it can). */
  groupsInUse: z.array(groupRefSchema.extend({ rules: z.number().int(), silentBecause: z.array(str()) })),
});
export type AlertReach = z.infer<typeof alertReachSchema>;

/** PATCH /api/settings/default-notification-group: the group new rules notify, or null for none. */
export const defaultGroupRequestSchema = z
  .object({
    groupId: z.uuid('groupId must be a notification group id').nullable(),
  })
  .strict();

/** The default group, and (after a change) how many rules that notified nobody it was given to. */
export const defaultGroupAnswerSchema = z.object({
  group: groupRefSchema.nullable(),
  assigned: z.object({ rules: z.number().int(), checkRules: z.number().int() }),
});
export type DefaultGroupAnswer = z.infer<typeof defaultGroupAnswerSchema>;
