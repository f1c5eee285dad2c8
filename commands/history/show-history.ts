import { z } from 'zod';
import { defineCommand } from '../define-command';

export const showHistory = defineCommand({
  id: 'history.show',
  title: 'Show command history',
  category: 'History',
  description: "Everyone's commands, newest first: the team's log during an incident.",
  input: z.object({}).strict(),
  permission: 'read',
  shortcut: 'alt+h',
  history: false,
  run(_input, ctx) {
    ctx.ui.open('history');
    return {};
  },
});
