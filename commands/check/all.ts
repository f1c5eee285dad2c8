import { createCheck } from './create-check';
import { deleteCheck } from './delete-check';
import { editCheck } from './edit-check';
import { pauseCheck, resumeCheck } from './pause-check';
import { refreshChecks } from './refresh-checks';
import { runCheck } from './run-check';
import { showCheck } from './show-check';

/** Every command of the "check" domain (issue 16); commands/index.ts collects the domains. */
export const checkCommands = [showCheck, createCheck, editCheck, pauseCheck, resumeCheck, runCheck, deleteCheck, refreshChecks] as const;
