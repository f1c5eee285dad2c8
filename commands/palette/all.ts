import type { CommandDefinition } from '../define-command';

/** Every command of the "palette" domain; commands/index.ts collects the domains. */
export const paletteCommands = [] as const satisfies readonly CommandDefinition<any>[];
