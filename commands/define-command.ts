import type { z } from 'zod';
import type { Permission, Role } from '../server/contract/permissions';
import type { Api } from '../src/api/client';
import type { DraftStore } from '../src/lib/draft-store';
import type { CommandSource } from './types';

/**
 * How the palette and the command line ask for one argument. The order of `args` is the order
 * in which the palette asks; `positional` arguments may be given without `--name` on the
 * command line (`user.delete ann`). `entity` makes the palette and Tab completion search the API.
 */
export interface ArgSpec {
  name: string;
  label: string;
  kind: 'text' | 'password' | 'enum' | 'entity' | 'number' | 'boolean' | 'datetime';
  entity?: EntityKind;
  options?: readonly { value: string; label: string }[];
  positional?: boolean;
  optional?: boolean;
  placeholder?: string;
}

export type EntityKind = 'user' | 'server' | 'alert' | 'group' | 'command';

/** What the host app gives every command. Commands never import React or reach into globals. */
export interface CommandContext {
  api: Api;
  /** The signed-in user, or null on public pages. */
  user: { _id: string; username: string; email: string; role: Role } | null;
  navigate: (to: string) => void;
  /** Refresh cached data after a change; keys come from the query-key factories in src/api. */
  invalidate: (queryKey: readonly unknown[]) => Promise<void>;
  /** Ask a person to confirm a destructive command; resolves false when they decline. */
  confirm: (request: { title: string; message: string; confirmLabel?: string; cancelLabel?: string }) => Promise<boolean>;
  /** UI-only state the shell owns (theme, panels). */
  ui: {
    colorMode: () => 'light' | 'dark';
    setColorMode: (mode: 'light' | 'dark') => void;
    open: (panel: 'palette' | 'cmdline' | 'history' | 'shortcuts' | 'account') => void;
  };
  /** The browser session the shell keeps (localStorage `user`, cached whoami). */
  session: {
    signedIn: (user: { _id: string; username: string; email: string; role: Role }) => void;
    signedOut: () => void;
  };
  /** Run another command through the same gate (e.g. history re-run), keeping the source. */
  run: (id: string, input: unknown) => Promise<CommandResult>;
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
   * The browser's key-value storage (localStorage in the app), for state SPEC keeps only in the
   * browser, such as pinned widgets. Absent outside the app (tests give a Map-backed one).
   */
  storage?: { get: (key: string) => string | null; set: (key: string, value: string) => void };
}

export interface CommandResult {
  /** Markdown printed by the command line and toasts. */
  message?: string;
  data?: unknown;
}

export interface CommandDefinition<I extends z.ZodTypeAny = z.ZodTypeAny> {
  /** "domain.verb-noun", unique. */
  id: string;
  title: string;
  category: string;
  description?: string;
  input: I;
  args?: readonly ArgSpec[];
  permission?: Permission;
  /** Pure and synchronous: true, or a reason a person can read. */
  enabled?: (ctx: CommandContext) => true | string;
  /** Hidden from the palette when false (e.g. signed-out); still runnable where enabled. */
  when?: (ctx: CommandContext) => boolean;
  /** Destructive commands confirm before running; the text may depend on the input. */
  destructive?: boolean | { title: string; message: (input: z.output<I>) => string; confirmLabel?: string; cancelLabel?: string };
  /**
   * Looks things up before the gate asks for confirmation, so "No user matches …" is said
   * instead of "Are you sure?" for something that does not exist. Its result is what the
   * confirm message and `run` receive; a throw is recorded as an error.
   */
  prepare?: (input: z.output<I>, ctx: CommandContext) => Promise<z.output<I>>;
  /** react-hotkeys-hook syntax, e.g. "mod+k", "shift+?". Shown in the palette and the overview. */
  shortcut?: string;
  /**
   * Keys a screen binds to this command only where it applies (e.g. Alt+Arrow on a focused
   * pinned widget): listed in the "?" overview with where they work, never bound globally.
   */
  screenKeys?: { keys: string; where: string };
  /** false for navigation and view-only commands that would only add noise to the incident log. */
  history?: boolean;
  /** Undo: the command that reverses this run, given its input and result (later work). */
  inverse?: (input: z.output<I>, result: CommandResult) => { id: string; input: unknown } | null;
  /** "Copy as API call": the HTTP call this command makes for a given input (later work). */
  apiCall?: (input: z.output<I>) => { method: string; path: string; body?: unknown };
  run: (input: z.output<I>, ctx: CommandContext) => Promise<CommandResult> | CommandResult;
}

export function defineCommand<I extends z.ZodTypeAny>(def: CommandDefinition<I>): CommandDefinition<I> {
  return def;
}
