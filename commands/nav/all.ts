import { goCommands } from './go-commands';

/** Every command of the "nav" domain; commands/index.ts collects the domains. */
export const navCommands = [...goCommands] as const;
