/** Every command of the "incident" domain; commands/index.ts collects the domains. */
export const incidentCommands = [] as const;
