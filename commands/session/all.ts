import type { CommandDefinition } from '../define-command';

/** Every command of the "session" domain; commands/index.ts collects the domains. */
export const sessionCommands = [] as const satisfies readonly CommandDefinition<any>[];
