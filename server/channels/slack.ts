import { channelLabels } from '../contract/channels';
import { slackMessage, slackPreview, type SlackMessage, type Transition } from '../alerting/delivery-messages';
import { refusalOf, type OutboundFetch } from '../outbound/http-client';
import { offeredActions } from '../page-actions/links';
import { networkReason, parseRetryAfter, statusMeaning } from './http';
import { ChannelError, type ChannelMessage, type ChannelPlugin } from './types';

/** SPEC's Slack: the group's channel, through the console's SLACK_BOT_TOKEN (null when it is not set). */
export interface SlackTarget {
  type: 'slack';
  id: 'slack';
  name: string;
  channel: string;
  token: string | null;
  apiUrl: string;
  /** SLACK_SIGNING_SECRET is set: messages about an open alert carry Acknowledge and Resolve buttons (issue 27 §4). */
  interactive?: boolean;
}

/**
 * Slack's `{ok:false}` codes that say "not now" rather than "not this request" (docs.slack.dev
 * chat.postMessage "Errors" and the common errors): rate limiting and Slack's own trouble. Every
 * other code (invalid_auth, channel_not_found, not_in_channel, is_archived, missing_scope,
 * msg_too_long, …) needs a person to change something, so trying again cannot help.
 */
const SLACK_TEMPORARY = new Set(['ratelimited', 'rate_limited', 'internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);

/**
 * The `{ok:false}` codes chat.postMessage documents: shown as they are, as a classification a
 * person can look up. Any other text in that field is the answer's own and is not repeated.
 */
const SLACK_KNOWN = new Set([
  ...SLACK_TEMPORARY,
  'access_denied', 'account_inactive', 'as_user_not_supported', 'channel_not_found', 'cannot_reply_to_message', 'deprecated_endpoint', 'duplicate_channel_not_found',
  'ekm_access_denied', 'enterprise_is_restricted', 'invalid_arg_name', 'invalid_arguments', 'invalid_array_arg', 'invalid_auth', 'invalid_blocks', 'invalid_blocks_format',
  'invalid_charset', 'invalid_form_data', 'invalid_metadata_format', 'invalid_post_type', 'is_archived', 'message_limit_exceeded', 'method_deprecated', 'missing_post_type',
  'missing_scope', 'msg_too_long', 'no_permission', 'no_text', 'not_allowed_token_type', 'not_authed', 'not_in_channel', 'org_login_required', 'restricted_action',
  'restricted_action_non_threadable_channel', 'restricted_action_read_only_channel', 'restricted_action_thread_locked', 'restricted_action_thread_only_channel',
  'slack_connect_canvas_sharing_blocked', 'slack_connect_file_link_sharing_blocked', 'team_access_not_granted', 'team_added_to_org', 'team_not_found', 'token_expired',
  'token_revoked', 'too_many_attachments', 'too_many_contact_cards', 'two_factor_setup_required', 'upgrade_required',
]);

/**
 * Slack Web API chat.postMessage. Slack answers HTTP 200 with `{ok: false, error}` when it
 * refuses: a permanent refusal fails once with Slack's reason in the delivery log; rate limiting
 * and Slack's own errors are retried, at Slack's Retry-After when it sends one. HTTP 429 and 5xx
 * carry Slack's Retry-After (issue 15); another HTTP error status is a refusal of the request
 * itself: it fails once. `fetch` is the console's, through the outbound policy.
 */
export async function postSlack(target: { apiUrl: string; token: string; channel: string }, message: SlackMessage, fetch: OutboundFetch, timeoutMs = 10_000): Promise<number> {
  let res: Awaited<ReturnType<OutboundFetch>>;
  try {
    res = await fetch(`${target.apiUrl}/chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ channel: target.channel, text: message.text, blocks: message.blocks, mrkdwn: false, unfurl_links: false, unfurl_media: false }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const refused = refusalOf(error);
    if (refused) throw new ChannelError(`Slack was not called: ${refused}`, null, true);
    throw new ChannelError(`Slack could not be reached: ${networkReason(error, timeoutMs)}`);
  }
  const body = await res.text().catch(() => '');
  if (!res.ok) {
    const what = `Slack answered HTTP ${res.status} (${statusMeaning(res.status)})`;
    const temporary = res.status === 408 || res.status === 429 || res.status >= 500;
    throw new ChannelError(what, res.status, !temporary, temporary ? parseRetryAfter(res.headers.get('retry-after')) : null);
  }
  let parsed: { ok?: boolean; error?: string } = {};
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new ChannelError('Slack answered something that is not JSON', res.status);
  }
  if (parsed.ok !== true) {
    const code = typeof parsed.error !== 'string' ? 'no reason given' : SLACK_KNOWN.has(parsed.error) ? parsed.error : 'a reason Opsdeck does not know';
    if (SLACK_TEMPORARY.has(code)) throw new ChannelError(`Slack did not take the message now: ${code}`, res.status, false, parseRetryAfter(res.headers.get('retry-after')));
    throw new ChannelError(`Slack refused the message: ${code}`, res.status, true);
  }
  return res.status;
}

/** A test says so in the message's reason line; a notice (a verification code) is its words alone, as plain text. */
const message = (m: ChannelMessage, c?: SlackTarget): SlackMessage =>
  m.notice
    ? { text: `${m.notice.title}: ${m.notice.text}`, blocks: [{ type: 'section', text: { type: 'plain_text', text: `${m.notice.title}\n${m.notice.text}` } }] }
    : slackMessage(m.alert, m.transition as Transition, m.link, m.test ? { reason: 'This is a test notification.' } : { ...m.extra, slackButtons: c?.interactive ? offeredActions(m.transition) : null });

export const slackChannel: ChannelPlugin<'slack'> = {
  type: 'slack',
  label: channelLabels.slack,
  noun: 'Slack message',
  sends: (t) => t !== 'acknowledged',
  target: (c) => c.channel,
  where: (target) => `Slack ${target}`,
  // SLACK_API_URL is the console's setting, not a group's: nothing to look at when a group is saved.
  endpoints: () => [],
  unready: (c) => (!c.token ? 'SLACK_BOT_TOKEN is not set, so Opsdeck sends no Slack messages.' : !c.channel ? 'The notification group has no Slack channel.' : null),
  preview: (c, m) => ({ subject: null, text: slackPreview(message(m, c)) }),
  async send(c, m, { timeoutMs, fetch }) {
    if (!c.token) throw new ChannelError('SLACK_BOT_TOKEN is not set, so Opsdeck sends no Slack messages.', null, true);
    return { status: await postSlack({ apiUrl: c.apiUrl, token: c.token, channel: c.channel }, message(m, c), fetch, timeoutMs) };
  },
};
