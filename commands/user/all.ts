import type { CommandDefinition } from '../define-command';

/** Every command of the "user" domain; commands/index.ts collects the domains. */
export const userCommands = [] as const satisfies readonly CommandDefinition<any>[];
