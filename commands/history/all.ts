import { rerunCommand } from './rerun-command';
import { showHistory } from './show-history';

/** Every command of the "history" domain; commands/index.ts collects the domains. */
export const historyCommands = [showHistory, rerunCommand] as const;
