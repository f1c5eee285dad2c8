import { z } from 'zod';
import { defineCommand, type CommandContext } from '../define-command';

type MarksKey = 'toggle' | 'range' | 'clear';

const focusedRow = (ctx: CommandContext): true | string => {
  if (!ctx.marks) return 'Marks work in the console’s lists.';
  return ctx.marks.focused() ? true : 'Focus a row of a list first (Tab to the list, then ↑/↓).';
};
const somethingMarked = (ctx: CommandContext): true | string => {
  if (!ctx.marks) return 'Marks work in the console’s lists.';
  return ctx.marks.get().items.length ? true : 'Nothing is marked.';
};

function marksCommand<const Id extends string>(id: Id, title: string, what: MarksKey, keys: string, where: string, description: string) {
  return defineCommand({
    id,
    title,
    category: 'Lists',
    description,
    input: z.object({}).strict(),
    args: [],
    screenKeys: { keys, where },
    // Marks are on lists, which need a signed-in reader.
    permission: 'read',
    history: false,
    bulk: false,
    enabled: what === 'clear' ? somethingMarked : focusedRow,
    // Marking acts on the row that has the focus, which the palette would take: its keys only.
    ...(what === 'clear' ? {} : { when: () => false }),
    run(_input, ctx) {
      const m = ctx.marks!;
      if (what === 'toggle') m.toggleFocused();
      else if (what === 'range') m.rangeToFocused();
      else m.clear();
      return {};
    },
  });
}

/**
 * Marks (issue 13, after k9s and lazygit): the keys are declared here once; the command host
 * binds them (src/app/command-host/marks-bar.tsx), the "?" overview lists them, and the store
 * (src/components/ui/marks.ts) holds the marked rows.
 */
export const markRow = marksCommand('marks.toggle', 'Mark or unmark row', 'toggle', 'space', 'on a focused list row', 'Mark the focused row of a list, or unmark it: commands that take that kind of row then apply to every marked one.');
export const markRange = marksCommand('marks.range', 'Mark rows up to here', 'range', 'shift+space', 'on a focused list row', 'Mark every row from the last one marked to the focused one.');
export const clearMarks = marksCommand('marks.clear', 'Clear marks', 'clear', 'escape', 'on a list while rows are marked', 'Unmark every marked row.');
