import type { CommandId, CommandInput } from '../../../commands';
import { CommandButton } from './command-button';
import type { ButtonProps } from './button';
import { cx } from './cx';
import { Icon } from './icons';

export interface RefreshButtonProps<K extends CommandId> extends Omit<ButtonProps, 'onPress' | 'children' | 'disabledReason'> {
  /** The list's refresh command ("check.refresh"): the palette, the command line and this button run the same one. */
  command: K;
  input: CommandInput<K>;
  /** The list is fetching (a refresh, or its own background refetch): the icon turns. */
  spinning?: boolean;
}

/**
 * The Refresh button of a list or card: runs the list's refresh command through the gate, and
 * its icon turns while the list fetches or the run is in flight. A round one is the icon alone.
 */
export function RefreshButton<K extends CommandId>({ command, input, spinning, round, 'aria-label': label = 'Refresh', ...props }: RefreshButtonProps<K>) {
  return (
    <CommandButton {...props} command={command} input={input as CommandInput<K>} round={round} aria-label={label}>
      {(running) => (
        <>
          <Icon name="refresh" className={cx((spinning || running) && 'animate-spin')} />
          {!round && 'Refresh'}
        </>
      )}
    </CommandButton>
  );
}
