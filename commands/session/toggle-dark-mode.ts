import { z } from 'zod';
import { defineCommand } from '../define-command';

export const toggleDarkMode = defineCommand({
  id: 'ui.toggle-dark-mode',
  title: 'Toggle dark mode',
  category: 'Appearance',
  input: z.object({ mode: z.enum(['light', 'dark']).optional() }),
  args: [{ name: 'mode', label: 'Mode', kind: 'enum', optional: true, options: [{ value: 'light', label: 'Light' }, { value: 'dark', label: 'Dark' }] }],
  shortcut: 'alt+d',
  history: false,
  run({ mode }, ctx) {
    const next = mode ?? (ctx.ui.colorMode() === 'dark' ? 'light' : 'dark');
    ctx.ui.setColorMode(next);
    return { message: `Dark mode ${next === 'dark' ? 'on' : 'off'}.` };
  },
});
