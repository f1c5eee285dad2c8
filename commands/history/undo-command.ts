import { z } from 'zod';
import { defineCommand } from '../define-command';

/**
 * Ctrl+Z: reverses this person's last undoable run in this tab (a command that declares an
 * `inverse`). The inverse is what the history records, as the undo of that run's record; this
 * wrapper is not recorded itself.
 */
export const undoCommand = defineCommand({
  id: 'history.undo',
  title: 'Undo last command',
  category: 'History',
  description: 'Reverse your last undoable command (maintenance, alert status, rule edits, widget moves, group emails, field edits…); the history records it as the undo of that run.',
  input: z.object({}).strict(),
  permission: 'read',
  shortcut: 'mod+z',
  // In a text field Ctrl+Z is the field's own undo.
  shortcutInFields: false,
  history: false,
  enabled: (ctx) => {
    if (!ctx.undo) return 'Undo works in the console.';
    return ctx.undo.peek() ? true : 'Nothing to undo.';
  },
  run: (_input, ctx) => ctx.undo!.run(),
});
