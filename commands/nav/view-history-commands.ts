import { z } from 'zod';
import { defineCommand, type CommandContext } from '../define-command';

type Move = 'back' | 'forward' | 'previous';

/** `enabled` of the three: the host's view history says whether the move can be made. */
const canMove = (move: Move) => (ctx: CommandContext) => (ctx.views ? ctx.views.can(move) : 'Moving between views works in the console.');

function viewCommand<const Id extends string>(id: Id, title: string, move: Move, shortcut: string, description: string) {
  return defineCommand({
    id,
    title,
    category: 'Navigation',
    description,
    input: z.object({}).strict(),
    permission: 'read',
    shortcut,
    history: false,
    enabled: canMove(move),
    run(_input, ctx) {
      ctx.views!.go(move);
      return {};
    },
  });
}

/** Issue 13: `[` and `]` move through the views visited in this tab, `-` toggles the last two. */
export const goBack = viewCommand('nav.back', 'Go back', 'back', '[', 'The view before this one in this tab, like the browser’s Back.');
export const goForward = viewCommand('nav.forward', 'Go forward', 'forward', ']', 'The view you went back from, like the browser’s Forward.');
export const toggleLastView = viewCommand('nav.toggle-last', 'Toggle last two views', 'previous', '-', 'Go to the view you were on before this one; press again to come back.');
