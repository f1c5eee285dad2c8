/** Every command of the "group" domain; commands/index.ts collects the domains. */
export const groupCommands = [] as const;
