import { setMonitoringAlertGroupsCommand } from './set-alert-groups';

/** Every command of the "monitoring" domain (Opsdeck's own monitoring, issue 12); commands/index.ts collects the domains. */
export const monitoringCommands = [setMonitoringAlertGroupsCommand] as const;
