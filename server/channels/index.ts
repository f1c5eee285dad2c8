import { emailChannel } from './email';
import { ntfyChannel } from './ntfy';
import { pagerdutyChannel } from './pagerduty';
import { pushoverChannel } from './pushover';
import { slackChannel } from './slack';
import { teamsChannel } from './teams';
import { telegramChannel } from './telegram';
import { smsChannel, voiceChannel } from './twilio';
import type { ChannelPlugin, DeliveryChannel } from './types';
import { webhookChannel } from './webhook';

/**
 * Every channel's plugin: one module each; a new channel is one more line. Email and Slack
 * send on a group's own fields, the others on the targets stored with it; Pushover, SMS and
 * voice on a person's contact methods only.
 */
export const channelPlugins: { [T in DeliveryChannel]: ChannelPlugin<T> } = {
  email: emailChannel,
  slack: slackChannel,
  webhook: webhookChannel,
  teams: teamsChannel,
  pagerduty: pagerdutyChannel,
  telegram: telegramChannel,
  ntfy: ntfyChannel,
  pushover: pushoverChannel,
  sms: smsChannel,
  voice: voiceChannel,
};

export const pluginFor = <T extends DeliveryChannel>(type: T): ChannelPlugin<T> => channelPlugins[type];
