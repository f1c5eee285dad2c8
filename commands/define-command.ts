import type { z } from 'zod';
import type { ArgSpec as ContractArgSpec, EntityKind } from '../server/contract/arg-spec';
import type { Permission, Role } from '../server/contract/permissions';
import type { Api } from '../src/api/client';
import type { DraftStore } from '../src/lib/draft-store';
import type { PanelOptions } from '../src/lib/shell-events';
import type { CommandId, CommandInput } from './index';
import type { CommandSource } from './types';

/**
 * How the palette and the command line ask for one argument (server/contract/arg-spec.ts), its
 * computed `choices` given what every command gets.
 */
export type ArgSpec<N extends string = string> = ContractArgSpec<N, CommandContext>;
export type { EntityKind };

/** What the host app gives every command. Commands never import React or reach into globals. */
export interface CommandContext {
  api: Api;
  /** The signed-in user, or null on public pages. */
  user: { _id: string; username: string; email: string; role: Role } | null;
  /** `replace`: change the current history entry (a list's search as it is typed), as the screens' own controls do. */
  navigate: (to: string, options?: { replace?: boolean }) => void;
  /** Refresh cached data after a change; keys come from the query-key factories in src/api. */
  invalidate: (queryKey: readonly unknown[]) => Promise<void>;
  /** Ask a person to confirm a destructive command; resolves false when they decline. */
  confirm: (request: { title: string; message: string; target?: string; confirmLabel?: string; cancelLabel?: string }) => Promise<boolean>;
  /** UI-only state the shell owns (theme, panels). */
  ui: {
    colorMode: () => 'light' | 'dark';
    setColorMode: (mode: 'light' | 'dark') => void;
    /** `options.history`: the filters the history panel opens with (history.show's arguments). */
    open: (panel: 'palette' | 'cmdline' | 'history' | 'shortcuts' | 'account', options?: PanelOptions) => void;
  };
  /** The browser session the shell keeps (localStorage `user`, cached whoami). */
  session: {
    signedIn: (user: { _id: string; username: string; email: string; role: Role }) => void;
    signedOut: () => void;
  };
  /**
   * Run another command through the same gate, keeping the source (alert.ack without an alert
   * hands over to alerts.ack-matching). Typed by the id it names: a mistyped id or an input the
   * other command's schema does not take is a type error. A run read back from data (a history
   * re-run) goes through `runRecorded` (run-command.ts), which the gate checks at run time.
   */
  run: <K extends CommandId>(id: K, input: CommandInput<K>) => Promise<CommandResult>;
  /**
   * Where the person is now (path and parsed search), for view-state commands such as
   * `server.time-range` that act on the open screen. Absent outside the app (tests, scripts).
   */
  location?: () => { pathname: string; search: Record<string, unknown> };
  /**
   * Edits an open screen holds until they are saved (the Alerts Configuration tab's rules), so
   * commands can change them as the screen's own controls do. Absent outside the app.
   */
  drafts?: DraftStore;
  /**
   * A line of progress (markdown) while a long command runs, e.g. the install command that
   * `agent.configure` prints before it waits for the install. The command line prints it;
   * elsewhere it may be absent, so commands call `ctx.progress?.(…)`.
   */
  progress?: (markdown: string) => void;
  /**
   * Saves what the API serves at `url` as a file named `name` (the browser follows the link with
   * its session). Absent outside the app: commands then print the link instead.
   */
  download?: (url: string, name: string) => void;
  /**
   * The browser's key-value storage (localStorage in the app), for state SPEC keeps only in the
   * browser, such as pinned widgets. Absent outside the app (tests give a Map-backed one).
   */
  storage?: { get: (key: string) => string | null; set: (key: string, value: string) => void };
  /**
   * This person's undo stack (the registry's, see `registry.undo`): what Ctrl+Z would undo now,
   * and undoing it. Absent outside the app.
   */
  undo?: { peek: () => { title: string } | undefined; run: () => Promise<CommandResult> };
  /**
   * The views visited in this tab (`[`, `]`, `-`): moving back, forward or to the view before
   * this one, and whether that can be done now. Absent outside the app.
   */
  views?: { go: (move: 'back' | 'forward' | 'previous') => void; can: (move: 'back' | 'forward' | 'previous') => true | string };
  /** Puts text on the clipboard (server.copy-ip). Absent outside the app: commands print the text instead. */
  copy?: (text: string) => Promise<void>;
  /**
   * The marked rows of the open list and the row that has the focus (src/components/ui/marks.ts), for the
   * marks commands (Space, Shift+Space, Escape). Absent outside the app.
   */
  marks?: {
    get: () => { items: readonly unknown[] };
    focused: () => { label: string } | null;
    toggleFocused: () => void;
    rangeToFocused: () => void;
    clear: () => void;
  };
  /** The registry's commands by id, for commands about commands (alias.set checks its line, history re-run reads a recorded line back). Absent outside the app. */
  lookup?: (id: string) => AnyCommand | undefined;
}

export interface CommandResult {
  /** Markdown printed by the command line and toasts. */
  message?: string;
  data?: unknown;
  /** Ids of the audit records the server wrote for this run's API calls (undo refers to them). */
  records?: string[];
  /** What the run replaced (a status, a field's old value), for `inverse` to put back. */
  before?: unknown;
  /** Set by the gate when the run can be undone: the key of its entry on the undo stack. */
  undo?: { key: number };
}

/** One command run that reverses (part of) another: what `inverse` returns. */
export interface InverseRun {
  id: string;
  input: unknown;
}

/** The keys of a command's input object: what its `args` may name. */
export type ArgName<I extends z.ZodTypeAny> = z.input<I> extends Record<string, unknown> ? Extract<keyof z.input<I>, string> : string;

/**
 * `P`: what `prepare` resolved (the entity a name stood for, a count), handed to the confirmation
 * and to `run` so the run does not fetch it again; `undefined` for commands without `prepare`.
 */
export interface CommandDefinition<I extends z.ZodTypeAny = z.ZodTypeAny, Id extends string = string, P = undefined> {
  /** "domain.verb-noun", unique. */
  id: Id;
  title: string;
  category: string;
  description?: string;
  input: I;
  args?: readonly ArgSpec<ArgName<I>>[];
  permission?: Permission;
  /** Pure and synchronous: true, or a reason a person can read. */
  enabled?: (ctx: CommandContext) => true | string;
  /** Hidden from the palette when false (e.g. signed-out); still runnable where enabled. */
  when?: (ctx: CommandContext) => boolean;
  /** Destructive commands confirm before running; the text may depend on the input. */
  destructive?:
    | boolean
    | {
        title: string;
        message: (input: z.output<I>, prepared: P) => string;
        /** What the run would touch, by name (issue 13: "Delete User" must say which user); read from what `prepare` found. */
        target?: (input: z.output<I>, prepared: P) => string | undefined;
        confirmLabel?: string;
        cancelLabel?: string;
      };
  /**
   * Looks things up before the gate asks for confirmation, so "No user matches …" is said
   * instead of "Are you sure?" for something that does not exist. What it returns (the user it
   * found) reaches the confirmation and `run` as `prepared`, so the run acts on what the person
   * was asked about without fetching it again; a throw is recorded as an error. Declare it before
   * `destructive` and `run`: TypeScript reads its result's type in the order of the properties.
   */
  prepare?: (input: z.output<I>, ctx: CommandContext) => Promise<P>;
  /**
   * react-hotkeys-hook syntax, e.g. "mod+k", "alt+1"; a produced symbol bare (":", "?", "["), as
   * it matches whatever Shift the layout needs for it (src/app/command-host/hotkeys.ts). The one declaration:
   * the handler, the palette, the "?" overview and notices read it.
   */
  shortcut?: string;
  /**
   * Whether the shortcut also fires while typing in a field. Default: yes for "mod+…" chords,
   * no for single keys. `mod+z` says no: in a field it is the field's own undo.
   */
  shortcutInFields?: boolean;
  /**
   * Keys a screen binds to this command only where it applies (e.g. Alt+Arrow on a focused
   * pinned widget): listed in the "?" overview with where they work, never bound globally.
   */
  screenKeys?: {
    /** The same syntax as `shortcut`; "arrow" stands for the four arrow keys ("alt+arrow"). */
    keys: string;
    where: string;
  };
  /**
   * The palette lists the options of this enum argument as rows of their own wherever the command
   * can run (a screen's tabs and controls on that screen): "cpu" finds the server detail's CPU tab.
   * Choosing one runs the command with it (and `preset`'s values: the open screen's server), asking
   * only for required arguments still missing. `preset` returning null hides the rows.
   */
  paletteOptions?: {
    arg: ArgName<I>;
    /** The row's title for an option ("CPU tab", "Maintenance on"). */
    label: (option: { value: string; label: string }) => string;
    /** Options left out of the rows (those that need more answers, like "Custom range"). */
    except?: readonly string[];
    preset?: (ctx: CommandContext) => Partial<z.input<I>> | null;
  };
  /** false for navigation and view-only commands that would only add noise to the incident log. */
  history?: boolean;
  /**
   * Whether marked rows of its target's kind fill its target, one run per row (src/components/ui/marks.ts).
   * Default: yes, unless `history` is false (view-only commands open one thing).
   */
  bulk?: boolean;
  /**
   * Undo: the run(s) that reverse this one, given its input and result; null when
   * the run changed nothing. A run whose command declares it shows "Undo" and Ctrl+Z undoes it.
   */
  inverse?: (input: z.output<I>, result: CommandResult) => InverseRun | InverseRun[] | null;
  run: (input: z.output<I>, ctx: CommandContext, prepared: P) => Promise<CommandResult> | CommandResult;
}

/** Keeps the id's literal type, so `CommandId` is a closed union and runs are typed by it. */
export function defineCommand<I extends z.ZodTypeAny, const Id extends string, P = undefined>(def: CommandDefinition<I, Id, P>): CommandDefinition<I, Id, P> {
  return def;
}

/** Any command, whatever its input, id and prepared value (the registry's storage, front doors that parse text). */
export type AnyCommand = CommandDefinition<any, string, any>;

/** The input schema of command `K` among the commands `C`. */
export type InputSchemaOf<C extends AnyCommand, K extends string> = C extends CommandDefinition<infer I, infer Id, any> ? (K extends Id ? I : never) : never;

/** What a caller passes to run command `K` (the schema's input side: defaults may be left out). */
export type InputOf<C extends AnyCommand, K extends string> = z.input<InputSchemaOf<C, K>>;
