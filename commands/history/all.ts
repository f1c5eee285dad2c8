import type { CommandDefinition } from '../define-command';

/** Every command of the "history" domain; commands/index.ts collects the domains. */
export const historyCommands = [] as const satisfies readonly CommandDefinition<any>[];
