/** Every command of the "agent" domain; commands/index.ts collects the domains. */
export const agentCommands = [] as const;
