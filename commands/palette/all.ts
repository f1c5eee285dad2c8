import { z } from 'zod';
import { defineCommand } from '../define-command';

const openPanelCommand = <const Id extends string>(id: Id, title: string, panel: 'palette' | 'cmdline' | 'shortcuts', shortcut: string) =>
  defineCommand({
    id,
    title,
    category: 'General',
    input: z.object({}).strict(),
    shortcut,
    history: false,
    run(_input, ctx) {
      ctx.ui.open(panel);
      return {};
    },
  });

/** The front doors themselves, so their keys are declared (and listed under "?") like any other. */
export const paletteCommands = [
  openPanelCommand('palette.open', 'Open command palette', 'palette', 'mod+k'),
  openPanelCommand('cmdline.open', 'Open command line', 'cmdline', ':'),
  openPanelCommand('shortcuts.show', 'Show keyboard shortcuts', 'shortcuts', '?'),
] as const;
