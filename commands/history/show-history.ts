import { z } from 'zod';
import { commandOutcomes } from '../../server/contract/command-history';
import { MAX_TEXT } from '../../server/contract/common';
import { defineCommand } from '../define-command';
import { parseDuration } from '../../server/contract/duration';

const filterText = z.string().max(MAX_TEXT).optional();
/** A text filter as the panel sends it: blank is no filter. */
const given = (s: string | undefined) => s?.trim() || undefined;

/** The panel's time ranges (any span `parseDuration` reads works on the command line). */
export const HISTORY_SPANS = ['15m', '1h', '6h', '24h', '7d'] as const;

export const showHistory = defineCommand({
  id: 'history.show',
  title: 'Show command history',
  category: 'History',
  description:
    "Everyone's commands and Opsdeck's own events (alerts fired and resolved, notifications delivered), newest first: the team's log during an incident. Filter by command, user, outcome or time (`history.show --since 1h`); `--system false` leaves Opsdeck's events out, `--signins` shows sign-ins and views too.",
  input: z
    .object({
      command: filterText,
      user: filterText,
      outcome: z.enum(commandOutcomes).optional(),
      since: z
        .string()
        .trim()
        .refine((v) => v === '' || (parseDuration(v) ?? 0) > 0, 'since: give a span like 30m, 1h or 7d')
        .optional(),
      system: z.boolean().optional(),
      signins: z.boolean().optional(),
    })
    .strict(),
  args: [
    { name: 'command', label: 'Command', kind: 'text', optional: true },
    { name: 'user', label: 'User', kind: 'text', optional: true },
    { name: 'outcome', label: 'Outcome', kind: 'enum', optional: true, options: commandOutcomes.map((o) => ({ value: o, label: o })) },
    { name: 'since', label: 'Since', kind: 'enum', optional: true, options: HISTORY_SPANS.map((v) => ({ value: v, label: `Last ${v}` })) },
    { name: 'system', label: "Opsdeck's events", kind: 'boolean', optional: true, inPalette: false },
    { name: 'signins', label: 'Sign-ins and views', kind: 'boolean', optional: true, inPalette: false },
  ],
  permission: 'read',
  shortcut: 'alt+h',
  // The panel's filter boxes run it as they are typed in (issue 13): no record of each keystroke.
  history: false,
  run({ command, user, outcome, since, system, signins }, ctx) {
    // Every run says every filter: without arguments, the panel shows the default log.
    ctx.ui.open('history', { history: { command: given(command), username: given(user), outcome, since: given(since), system, signins } });
    return {};
  },
});
