import { useState, type ReactNode } from 'react';
import type { CommandId, CommandInput } from '../../../commands';
import type { CommandResult } from '../../../commands/define-command';
import { Button, type ButtonProps } from './button';
import { ariaKeyshortcuts } from '../../lib/shortcut-text';
import { useCommandRunner, type RunUiOptions } from './command-runner';
import { openPanel } from '../../lib/shell-events';

interface CommandButtonBase<K extends CommandId> extends Omit<ButtonProps, 'onPress' | 'children' | 'disabledReason'> {
  /** The command this button runs: its title, shortcut, and whether (and why not) it can run now. */
  command: K;
  /** The visible text where SPEC names one ("Delete"), or one per state ("Running…" while it runs); otherwise the command's title. */
  children?: ReactNode | ((running: boolean) => ReactNode);
  /** Called with the result after a successful run (failures are reported by the runner). */
  onDone?: (result: CommandResult) => void;
  /** A screen's own reason on top of the registry's (e.g. "Nothing to save"). */
  disabledReason?: string | false;
  source?: RunUiOptions['source'];
}

export type CommandButtonProps<K extends CommandId> = CommandButtonBase<K> &
  (
    | { input: CommandInput<K>; askWith?: never }
    | {
        /**
         * The command needs what only the person can say (a note): the button opens the palette on
         * the command with these arguments given, and the palette asks for the rest and runs it
         * through the gate.
         */
        askWith: Partial<CommandInput<K>>;
        input?: never;
      }
  );

/**
 * A button bound to one command, as VS Code's menus are: the label, the shortcut hint, the
 * disabled state and its reason all come from the registry for the command it runs, so a Delete
 * button cannot ask another command whether it may delete. It is busy while its run is in flight.
 */
export function CommandButton<K extends CommandId>({ command, input, askWith, children, onDone, disabledReason, source, ...props }: CommandButtonProps<K>) {
  const runner = useCommandRunner();
  const [busy, setBusy] = useState(false);
  const def = runner.get(command);
  const allowed = runner.check(command);
  const reason = allowed !== true ? allowed : disabledReason;
  return (
    <Button
      {...props}
      isDisabled={props.isDisabled || busy}
      disabledReason={reason}
      aria-keyshortcuts={ariaKeyshortcuts(def?.shortcut)}
      onPress={async () => {
        if (askWith) return openPanel('palette', { palette: { command, values: askWith as Record<string, unknown> } });
        setBusy(true);
        try {
          const result = await runner.run(command, input as CommandInput<K>, { source });
          if (result) onDone?.(result);
        } finally {
          setBusy(false);
        }
      }}
    >
      {(typeof children === 'function' ? children(busy) : children) ?? def?.title ?? command}
    </Button>
  );
}
