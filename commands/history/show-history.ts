import { z } from 'zod';
import { commandOutcomes } from '../../server/contract/command-history';
import { MAX_TEXT } from '../../server/contract/common';
import { defineCommand } from '../define-command';

const filterText = z.string().max(MAX_TEXT).optional();
/** A text filter as the panel sends it: blank is no filter. */
const given = (s: string | undefined) => s?.trim() || undefined;

export const showHistory = defineCommand({
  id: 'history.show',
  title: 'Show command history',
  category: 'History',
  description: "Everyone's commands, newest first: the team's log during an incident. Filter by command, user or outcome.",
  input: z.object({ command: filterText, user: filterText, outcome: z.enum(commandOutcomes).optional() }).strict(),
  args: [
    { name: 'command', label: 'Command', kind: 'text', optional: true },
    { name: 'user', label: 'User', kind: 'text', optional: true },
    { name: 'outcome', label: 'Outcome', kind: 'enum', optional: true, options: commandOutcomes.map((o) => ({ value: o, label: o })) },
  ],
  permission: 'read',
  shortcut: 'alt+h',
  // The panel's filter boxes run it as they are typed in (issue 13): no record of each keystroke.
  history: false,
  run({ command, user, outcome }, ctx) {
    // Every run says all three filters: without arguments, the panel shows every run.
    ctx.ui.open('history', { history: { command: given(command), username: given(user), outcome } });
    return {};
  },
});
