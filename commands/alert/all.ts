/** Every command of the "alert" domain; commands/index.ts collects the domains. */
export const alertCommands = [] as const;
