import { refreshAlerts } from './refresh-alerts';
import { resolveMatching } from './resolve-matching';
import { snoozeMatching } from './snooze-matching';

/** Every command of the "alerts (bulk over a filter)" domain; commands/index.ts collects the domains. */
export const alertsCommands = [resolveMatching, snoozeMatching, refreshAlerts] as const;
