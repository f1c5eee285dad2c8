/**
 * A command's arguments as the command line spells them: what the palette asks, what a line
 * parses into and what a recorded line is shown as. Shared by the command registry (commands/)
 * and the server, which reads recorded lines back (server/audit/display.ts) but never imports
 * the registry.
 */

/**
 * How the palette and the command line ask for one argument. The order of `args` is the order
 * in which the palette asks; `positional` arguments may be given without `--name` on the
 * command line (`user.delete ann`). `entity` makes the palette and Tab completion search the API.
 */
export interface ArgSpec<N extends string = string, Ctx = never> {
  /** A key of the command's input (checked by the type of `args`). */
  name: N;
  label: string;
  kind: 'text' | 'password' | 'enum' | 'entity' | 'number' | 'boolean' | 'datetime';
  entity?: EntityKind;
  options?: readonly { value: string; label: string }[];
  positional?: boolean;
  optional?: boolean;
  placeholder?: string;
  /**
   * false: given on the command line only, never asked in the palette (`alert.ack --severity
   * critical`, the filter form that `alerts.ack-matching` asks for there).
   */
  inPalette?: false;
  /**
   * Asked in the palette only when this says so, given the answers before it: a preset time range
   * takes no start and end, so `server.time-range` asks for them only after "Custom range".
   */
  askWhen?: (values: Record<string, unknown>) => boolean;
  /**
   * false: the palette offers no "(skip)" for this optional choice, its options being every way
   * on (a time range's presets and "Custom range"; leaving it out there would only ask for a start).
   */
  skippable?: false;
  /**
   * Choices that depend on the arguments before it (widget.pin's widgets depend on the server's
   * operating system and the widget type): the palette offers them like an enum's options.
   * `Ctx` is what the caller gives them (the command context in commands/); the line parser and
   * formatter here never call them.
   */
  choices?: (values: Record<string, unknown>, ctx: Ctx) => Promise<readonly { value: string; label: string }[]>;
}

export type EntityKind = 'user' | 'server' | 'alert' | 'group' | 'command' | 'check' | 'silence' | 'window' | 'status-page' | 'schedule' | 'contact-method';

/** What the line parser and formatter read of an argument. */
export type ArgShape = Pick<ArgSpec, 'name' | 'kind' | 'positional'>;

/** A command as the line parser and formatter need it: its id and its arguments. */
export interface CommandShape {
  id: string;
  args?: readonly ArgShape[];
}
