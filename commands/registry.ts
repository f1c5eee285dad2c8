import type { z } from 'zod';
import { can, whyNot } from '../server/contract/permissions';
import type { CommandSource } from '../server/contract/command-history';
import type { AnyCommand, CommandContext, CommandResult, InputOf, InverseRun } from './define-command';
import { argumentError } from './argument-error';
import { redactInput } from './redact';
import { startRunTrail } from './run-trail';

export { redactInput };
import { UndoStack, type UndoEntry, type UndoStorage } from './undo-stack';

/** A refusal or failure a person can read; `outcome` is what the history records. */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly outcome: 'error' | 'refused' | 'cancelled' = 'error',
    /** `cause`: what failed underneath (an ApiError, a network TypeError), for callers that word their own message. */
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'CommandError';
  }
}

export interface RunOptions {
  source: CommandSource;
  ctx: CommandContext;
  /** The history record this run reverses (an undo): recorded with it. */
  undoOf?: string;
  /** The run is an undo (of a recorded run or of a browser-only one): not itself undoable. */
  undoing?: boolean;
  /** Runs of one action over several rows (marks) share a batch: one undo reverses them all. */
  batch?: { id: string; title: string };
}

/** The refusal of an input, with the valid choices of the argument (computed ones too, e.g. widget.pin's widgets). */
async function inputError(def: AnyCommand, error: z.ZodError, rawInput: unknown, ctx: CommandContext): Promise<string> {
  const name = error.issues[0]?.path[0];
  const arg = def.args?.find((a) => a.name === name);
  let choices: readonly { value: string; label: string }[] | undefined;
  if (arg?.choices && rawInput && typeof rawInput === 'object') {
    try {
      choices = await arg.choices(rawInput as Record<string, unknown>, ctx);
    } catch {
      // Without the list the message still names the argument.
    }
  }
  return argumentError(def, error, rawInput, choices);
}

export type Registry<C extends AnyCommand = AnyCommand> = ReturnType<typeof createRegistry<C>>;

/** The inverse runs a command declares for one run, as a list; a throwing `inverse` offers no undo. */
function inverseOf(def: AnyCommand, input: unknown, result: CommandResult): InverseRun[] {
  try {
    const inv = def.inverse?.(input, result);
    return inv ? (Array.isArray(inv) ? inv : [inv]) : [];
  } catch {
    return [];
  }
}

/** "Resolved **cpu** on web-01." without the markdown, for "Undone: …". */
function plainText(markdown: string): string {
  return markdown.replace(/\*\*|`/g, '').replace(/\.$/, '');
}

/**
 * `C` is the union of the commands it will hold (the app's: `AppCommand`), so `run` is typed by
 * id: `run('alert.resolve', { alert, note })` checks the input against that command's schema.
 */
export function createRegistry<C extends AnyCommand = AnyCommand>(
  options: {
    undoStorage?: UndoStorage;
    /**
     * Where a command's own fault is told (an `enabled` or `when` predicate, or its palette rows'
     * `preset`, that throws); `what` names the part that failed. Default: the console.
     */
    report?: (error: unknown, commandId: string, what: string) => void;
  } = {},
) {
  const tell = options.report ?? ((error: unknown, commandId: string, what: string) => console.error(`Command "${commandId}": ${what} failed`, error));
  // The palette asks every command on every keystroke: a fault is told once, not once a key.
  const told = new Set<string>();
  const report = (error: unknown, commandId: string, what = 'its enabled or when check') => {
    const key = `${commandId}\n${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
    if (told.has(key)) return;
    told.add(key);
    tell(error, commandId, what);
  };
  /** The reason a command whose own predicate threw reads as unavailable. */
  const faultReason = (def: AnyCommand, error: unknown) => `${def.title} cannot tell whether it can run now (${error instanceof Error ? error.message : String(error)}).`;
  const commands = new Map<string, AnyCommand>();
  const listeners = new Set<() => void>();
  const undoStack = new UndoStack(options.undoStorage);

  function register(def: AnyCommand): () => void {
    if (commands.has(def.id)) throw new Error(`Command "${def.id}" is already registered`);
    commands.set(def.id, def);
    listeners.forEach((l) => l());
    return () => {
      if (commands.get(def.id) === def) commands.delete(def.id);
      listeners.forEach((l) => l());
    };
  }

  /** true, or the reason this command cannot run now (role first, then state). */
  function check(id: string, ctx: CommandContext): true | string {
    const def = commands.get(id);
    if (!def) return `Unknown command "${id}"`;
    if (def.permission) {
      if (!ctx.user) return 'Sign in first.';
      if (!can(ctx.user.role, def.permission)) return whyNot(def.permission);
    }
    // A predicate's bug must not break the screen that asks (the palette asks every command):
    // the command reads as unavailable, with the reason, and the fault is reported.
    try {
      def.when?.(ctx);
      return def.enabled ? def.enabled(ctx) : true;
    } catch (error) {
      report(error, id);
      return faultReason(def, error);
    }
  }

  /**
   * Whether the palette and Tab completion list this command now (`when`). A `when` that throws
   * lists it, so it shows greyed with `check`'s reason instead of vanishing or breaking the list.
   */
  function shown(id: string, ctx: CommandContext): boolean {
    const def = commands.get(id);
    if (!def) return false;
    try {
      return def.when ? def.when(ctx) : true;
    } catch (error) {
      report(error, id);
      return true;
    }
  }

  /**
   * What a command's palette rows (`paletteOptions`) start from here: its `preset`'s values, or
   * null where the rows are hidden (no rows, or a preset that says so). A preset that throws
   * hides them and is reported, like a predicate that throws: the palette lists everything else.
   */
  function preset(id: string, ctx: CommandContext): Record<string, unknown> | null {
    const opts = commands.get(id)?.paletteOptions;
    if (!opts) return null;
    try {
      return opts.preset ? opts.preset(ctx) : {};
    } catch (error) {
      report(error, id, 'its palette preset');
      return null;
    }
  }

  /**
   * The one gate every run goes through, whatever started it: parse the input, check role and
   * state, confirm destructive commands, run, and record the run in the shared history.
   */
  async function dispatch(id: string, rawInput: unknown, { source, ctx: outer, undoOf, undoing, batch }: RunOptions): Promise<CommandResult> {
    const def = commands.get(id);
    if (!def) throw new CommandError(`Unknown command "${id}"`, 'refused');
    // Every API call of the run carries its headers; the server records its writes itself.
    const trail = startRunTrail(def, rawInput, source, outer.api, undoOf);
    const ctx: CommandContext = { ...outer, api: trail.api };
    // History is written by the server only (issue 25 §3): a run is in it through its API
    // writes, which carry the run's headers (refused ones too); a run that made none (a view, a
    // refusal or cancellation before any call) leaves no record, only the person's own recall.
    const parsed = def.input.safeParse(rawInput ?? {});
    if (!parsed.success) {
      const message = `${def.title}: ${await inputError(def, parsed.error, rawInput ?? {}, ctx)}`;
      throw new CommandError(message, 'refused');
    }
    const allowed = check(id, ctx);
    if (allowed !== true) {
      throw new CommandError(allowed, 'refused');
    }
    const input = parsed.data;
    // What prepare resolved travels to the confirmation and to run, which need not fetch it again.
    let prepared: unknown;
    if (def.prepare) {
      try {
        prepared = await def.prepare(input, ctx);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        throw err instanceof CommandError ? err : new CommandError(message, 'error', { cause: err });
      }
    }
    if (def.destructive) {
      const d = def.destructive === true ? { title: def.title, message: `Run "${def.title}"? This cannot be undone.` } : { title: def.destructive.title, message: def.destructive.message(input, prepared) };
      const labels = typeof def.destructive === 'object' ? def.destructive : undefined;
      const target = labels?.target?.(input, prepared);
      const ok = await ctx.confirm({ title: d.title, message: d.message, ...(target ? { target } : {}), confirmLabel: labels?.confirmLabel, cancelLabel: labels?.cancelLabel });
      if (!ok) {
        throw new CommandError('Cancelled', 'cancelled');
      }
    }
    // The incident log must not wait for a list refetch: a command's visible effect lands
    // before its `await ctx.invalidate(…)` resolves, and a person who reloads the page at that
    // moment would lose the record. Refetches start at once but are awaited after the record.
    const refetches: Promise<void>[] = [];
    const runCtx: CommandContext = {
      ...ctx,
      invalidate: (queryKey) => {
        refetches.push(ctx.invalidate(queryKey).catch(() => undefined));
        return Promise.resolve();
      },
    };
    try {
      const ran = (await def.run(input, runCtx, prepared)) ?? {};
      const recordId = trail.recordIds[0];
      await Promise.all(refetches);
      const result: CommandResult = trail.recordIds.length ? { ...ran, records: [...trail.recordIds] } : ran;
      const inverse = def.inverse && !undoing && !undoOf && ctx.user ? inverseOf(def, input, result) : [];
      if (!inverse.length) return result;
      const entry = undoStack.push(ctx.user!._id, result.message ?? def.title, inverse.map((step) => ({ ...step, recordId })), batch);
      return { ...result, undo: { key: entry.key } };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await Promise.all(refetches);
      throw err instanceof CommandError ? err : new CommandError(message, 'error', { cause: err });
    }
  }

  /**
   * Undoes this person's newest undoable run (Ctrl+Z), or the one with `key` (a notice's Undo):
   * its inverse runs through the gate like any run, recorded as the undo of the run's record.
   * Declined (a destructive inverse's confirmation), it stays undoable.
   */
  async function undo(ctx: CommandContext, source: CommandSource, key?: number): Promise<CommandResult> {
    const entry = undoStack.take(ctx.user?._id, key);
    if (!entry) throw new CommandError(key === undefined ? 'Nothing to undo.' : 'That was already undone.', 'refused');
    const failed: string[] = [];
    let done = 0;
    // Newest first, as the runs are unwound.
    for (const step of [...entry.steps].reverse()) {
      try {
        await dispatch(step.id, step.input, { source, ctx, undoOf: step.recordId, undoing: true });
        done++;
      } catch (err) {
        if (err instanceof CommandError && err.outcome === 'cancelled' && done === 0 && entry.steps.length === 1) {
          undoStack.putBack(entry);
          throw err;
        }
        failed.push(err instanceof Error ? err.message : String(err));
      }
    }
    const what = plainText(entry.title);
    if (!failed.length) return { message: `Undone: ${what}` };
    if (!done) throw new CommandError(`Could not undo "${what}": ${failed[0]}`);
    return { message: `Undone in part: ${what} (${failed.length} of ${entry.steps.length} steps failed: ${failed[0]})` };
  }

  return {
    register,
    undo,
    /** What Ctrl+Z would undo for this person now. */
    peekUndo: (userId: string | undefined): UndoEntry | undefined => undoStack.peek(userId),
    get: (id: string) => commands.get(id),
    list: () => [...commands.values()],
    check,
    shown,
    preset,
    /** A run typed by the command's input schema: what screens and commands call. */
    run: <K extends C['id']>(id: K, input: InputOf<C, K>, options: RunOptions): Promise<CommandResult> => dispatch(id, input, options),
    /**
     * The same gate for front doors whose id and input come from text or data (command line,
     * palette, hotkeys, history re-runs): the schema checks what the types cannot.
     */
    dispatch,
    subscribe: (l: () => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}
