import { exportHistory } from './export-history';
import { rerunCommand } from './rerun-command';
import { showHistory } from './show-history';
import { undoCommand } from './undo-command';

/** Every command of the "history" domain; commands/index.ts collects the domains. */
export const historyCommands = [showHistory, rerunCommand, undoCommand, exportHistory] as const;
