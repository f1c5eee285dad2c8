import { createSilenceCommand } from './create-silence';
import { editSilence } from './edit-silence';
import { expireSilenceCommand } from './expire-silence';
import { listSilencesCommand } from './list-silences';
import { previewSilenceCommand } from './preview-silence';

/** Every command of the "silence" domain (issue 14 §2); commands/index.ts collects the domains. */
export const silenceCommands = [listSilencesCommand, createSilenceCommand, previewSilenceCommand, editSilence, expireSilenceCommand] as const;
