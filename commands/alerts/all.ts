/** Every command of the "alerts (bulk over a filter)" domain; commands/index.ts collects the domains. */
export const alertsCommands = [] as const;
