/** Every command of the "rules" domain; commands/index.ts collects the domains. */
export const rulesCommands = [] as const;
