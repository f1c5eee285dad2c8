import { goCommands } from './go-commands';
import { goBack, goForward, toggleLastView } from './view-history-commands';

/** Every command of the "nav" domain; commands/index.ts collects the domains. */
export const navCommands = [...goCommands, goBack, goForward, toggleLastView] as const;
