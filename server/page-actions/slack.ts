import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { SLACK_ACTION_IDS } from '../alerting/delivery-messages';
import { isUuid } from '../contract/ids';
import type { Db } from '../db/client';
import { contactMethods } from '../db/schema';
import { PageActionRefusal } from './service';
import type { PageAction } from './token';

/**
 * Slack's interactive buttons (issue 27 §4): Slack POSTs a press to the app's Request URL as
 * `application/x-www-form-urlencoded` with one `payload` field (JSON, `type: block_actions`),
 * signed with the app's signing secret (docs.slack.dev "Verifying requests from Slack"): the
 * `X-Slack-Signature` header is `v0=` and the hex HMAC-SHA256 of `v0:<X-Slack-Request-Timestamp>:<the
 * raw body>`, and a timestamp more than 5 minutes from now is refused (a replay).
 */

export const SLACK_MAX_SKEW_S = 5 * 60;

/** Why a request is not Slack's, or null when its signature and timestamp hold. */
export function slackSignatureProblem(secret: string, headers: Record<string, string | string[] | undefined>, raw: string, nowMs: number): string | null {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const ts = one(headers['x-slack-request-timestamp']);
  const signature = one(headers['x-slack-signature']);
  if (!ts || !signature) return 'X-Slack-Signature and X-Slack-Request-Timestamp are required';
  if (!/^\d{1,12}$/.test(ts)) return 'X-Slack-Request-Timestamp is not a Unix time';
  if (Math.abs(nowMs / 1000 - Number(ts)) > SLACK_MAX_SKEW_S) return 'X-Slack-Request-Timestamp is more than 5 minutes from now';
  const expected = Buffer.from(`v0=${createHmac('sha256', secret).update(`v0:${ts}:${raw}`).digest('hex')}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected) ? null : 'X-Slack-Signature does not match';
}

export interface SlackPress {
  action: PageAction;
  alertId: string;
  /** The Slack member who pressed it. */
  memberId: string;
  /** Where Slack takes a reply to the person who pressed (ephemeral). */
  responseUrl: string | null;
}

/** The press in a signed block_actions payload, or null for anything that is not one of ours (the View button, other interactions). */
export function slackPress(raw: string): SlackPress | null {
  let payload: { type?: unknown; user?: { id?: unknown }; actions?: { action_id?: unknown; value?: unknown }[]; response_url?: unknown };
  try {
    payload = JSON.parse(new URLSearchParams(raw).get('payload') ?? '');
  } catch {
    return null;
  }
  if (payload?.type !== 'block_actions' || !Array.isArray(payload.actions)) return null;
  const pressed = payload.actions[0];
  const action = pressed?.action_id === SLACK_ACTION_IDS.ack ? 'ack' : pressed?.action_id === SLACK_ACTION_IDS.resolve ? 'resolve' : null;
  const memberId = typeof payload.user?.id === 'string' ? payload.user.id : null;
  if (!action || !memberId || typeof pressed?.value !== 'string' || !isUuid(pressed.value)) return null;
  const responseUrl = typeof payload.response_url === 'string' && /^https?:\/\//.test(payload.response_url) ? payload.response_url : null;
  return { action, alertId: pressed.value.toLowerCase(), memberId, responseUrl };
}

/**
 * The Opsdeck user a Slack member is: the person with a verified Slack contact method of that
 * member id. None, or more than one person claiming it, is refused with the reason.
 */
export async function slackMember(db: Db, memberId: string): Promise<string> {
  const rows = await db
    .selectDistinct({ userId: contactMethods.userId })
    .from(contactMethods)
    .where(and(eq(contactMethods.kind, 'slack'), isNotNull(contactMethods.verifiedAt), sql`${contactMethods.settings}->>'memberId' = ${memberId}`));
  if (rows.length === 1) return rows[0]!.userId;
  throw new PageActionRefusal(
    403,
    'Your Slack account is not linked to Opsdeck',
    rows.length
      ? `More than one Opsdeck user has verified the Slack member ${memberId}. Nothing was changed.`
      : `No Opsdeck user has verified the Slack member ${memberId} as a contact method. Add it in Account Settings (Contact methods, Slack) and verify it, or act in Opsdeck. Nothing was changed.`,
  );
}
