import type { ChannelType } from '../contract/channels';
import { ntfyChannel } from './ntfy';
import { pagerdutyChannel } from './pagerduty';
import { teamsChannel } from './teams';
import { telegramChannel } from './telegram';
import type { ChannelPlugin } from './types';
import { webhookChannel } from './webhook';

/** Every channel type's plugin (issue 15 §1): one module each; a new channel is one more line. */
export const channelPlugins: { [T in ChannelType]: ChannelPlugin<T> } = {
  webhook: webhookChannel,
  teams: teamsChannel,
  pagerduty: pagerdutyChannel,
  telegram: telegramChannel,
  ntfy: ntfyChannel,
};

export const pluginFor = <T extends ChannelType>(type: T): ChannelPlugin<T> => channelPlugins[type];
