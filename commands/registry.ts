import type { z } from 'zod';
import { can, whyNot } from '../server/contract/permissions';
import type { CommandSource } from '../server/contract/command-history';
import { recordCommand } from '../src/api/command-history';
import type { CommandContext, CommandDefinition, CommandResult } from './define-command';

/** A refusal or failure a person can read; `outcome` is what the history records. */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly outcome: 'error' | 'refused' | 'cancelled' = 'error',
  ) {
    super(message);
    this.name = 'CommandError';
  }
}

export interface RunOptions {
  source: CommandSource;
  ctx: CommandContext;
}

const SECRET_KEYS = /password|secret|token|key/i;

/** Never write a password into the shared log. */
export function redactInput(input: unknown): unknown {
  if (Array.isArray(input)) return input.map(redactInput);
  if (input && typeof input === 'object') {
    return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, SECRET_KEYS.test(k) ? '••••' : redactInput(v)]));
  }
  return input;
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid input';
  const path = issue.path.join('.');
  const msg = issue.code === 'invalid_type' && /undefined/.test(issue.message) ? 'is required' : issue.message;
  return path ? `${path}: ${msg}` : msg;
}

export type Registry = ReturnType<typeof createRegistry>;

export function createRegistry() {
  const commands = new Map<string, CommandDefinition<any>>();
  const listeners = new Set<() => void>();

  function register(def: CommandDefinition<any>): () => void {
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
    return def.enabled ? def.enabled(ctx) : true;
  }

  /**
   * The one gate every run goes through, whatever started it: parse the input, check role and
   * state, confirm destructive commands, run, and record the run in the shared history.
   */
  async function run(id: string, rawInput: unknown, { source, ctx }: RunOptions): Promise<CommandResult> {
    const def = commands.get(id);
    if (!def) throw new CommandError(`Unknown command "${id}"`, 'refused');
    const started = performance.now();
    const record = async (outcome: 'ok' | 'error' | 'cancelled' | 'refused', input: unknown, error?: string) => {
      if (def.history === false || !ctx.user) return;
      try {
        await recordCommand(ctx.api, {
          command: id,
          input: redactInput(input ?? null),
          source,
          outcome,
          error: error ?? null,
          durationMs: Math.round(performance.now() - started),
        });
      } catch {
        // The log must never make a command fail; the command already happened.
      }
    };

    const parsed = def.input.safeParse(rawInput ?? {});
    if (!parsed.success) {
      const message = `${def.title}: ${firstIssue(parsed.error)}`;
      await record('refused', rawInput, message);
      throw new CommandError(message, 'refused');
    }
    const allowed = check(id, ctx);
    if (allowed !== true) {
      await record('refused', parsed.data, allowed);
      throw new CommandError(allowed, 'refused');
    }
    let input = parsed.data;
    if (def.prepare) {
      try {
        input = await def.prepare(parsed.data, ctx);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        await record('error', parsed.data, message);
        throw err instanceof CommandError ? err : new CommandError(message, 'error');
      }
    }
    if (def.destructive) {
      const d = def.destructive === true ? { title: def.title, message: `Run "${def.title}"? This cannot be undone.` } : { title: def.destructive.title, message: def.destructive.message(input) };
      const labels = typeof def.destructive === 'object' ? def.destructive : undefined;
      const ok = await ctx.confirm({ title: d.title, message: d.message, confirmLabel: labels?.confirmLabel, cancelLabel: labels?.cancelLabel });
      if (!ok) {
        await record('cancelled', parsed.data);
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
      const result = (await def.run(input, runCtx)) ?? {};
      await record('ok', parsed.data);
      await Promise.all(refetches);
      return result;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await record('error', parsed.data, message);
      await Promise.all(refetches);
      throw err instanceof CommandError ? err : new CommandError(message, 'error');
    }
  }

  return {
    register,
    get: (id: string) => commands.get(id),
    list: () => [...commands.values()],
    check,
    run,
    subscribe: (l: () => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}
