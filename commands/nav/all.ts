import type { CommandDefinition } from '../define-command';

/** Every command of the "nav" domain; commands/index.ts collects the domains. */
export const navCommands = [] as const satisfies readonly CommandDefinition<any>[];
