import { commandLineFor } from '../server/contract/format-command-line';

/**
 * A link that opens the command line prefilled (`/?cmd=user.show%20ann`): the host reads the
 * `cmd` search parameter and shows the line for a person to confirm with Enter. It never runs
 * on its own: a link from a chat message must not delete a user.
 */
export function commandLink(id: string, input: Record<string, unknown> = {}, path = '/'): string {
  return `${path}?cmd=${encodeURIComponent(commandLineFor(id, input))}`;
}
