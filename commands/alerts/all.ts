import { ackMatching } from './ack-matching';
import { refreshAlerts } from './refresh-alerts';
import { resolveMatching } from './resolve-matching';
import { snoozeMatching } from './snooze-matching';
import { unackMatching } from './unack-matching';

/** Every command of the "alerts (bulk over a filter)" domain; commands/index.ts collects the domains. */
export const alertsCommands = [resolveMatching, snoozeMatching, ackMatching, unackMatching, refreshAlerts] as const;
