import type { CommandSource } from '../server/contract/command-history';
import type { AnyCommand, ArgSpec, CommandContext, CommandResult } from './define-command';
import { CommandError, type Registry } from './registry';

/** Rows marked in a list (src/components/ui/marks.ts), as the front doors hand them over. */
export interface MarkedTargets {
  kind: string;
  items: readonly { id: string; label: string }[];
}

const nouns: Record<string, [string, string]> = {
  server: ['server', 'servers'],
  alert: ['alert', 'alerts'],
  user: ['user', 'users'],
  group: ['notification group', 'notification groups'],
  command: ['history entry', 'history entries'],
  check: ['check', 'checks'],
  'status-page': ['status page', 'status pages'],
};
export const markedNoun = (kind: string, n: number) => {
  const [one, many] = nouns[kind] ?? [kind, `${kind}s`];
  return `${n} ${n === 1 ? one : many}`;
};

/**
 * The argument of `def` that marked rows fill: the first entity argument of the marked kind,
 * unless the command opens one thing (view-only commands, `bulk: false`). Undefined when the
 * marks do not apply to this command.
 */
export function markedArg(def: AnyCommand, kind: string | null): ArgSpec | undefined {
  if (!kind) return undefined;
  if (def.bulk === false || (def.bulk === undefined && def.history === false)) return undefined;
  return def.args?.find((a) => a.kind === 'entity' && a.entity === kind);
}

/** "web-01, web-02, db-01 and 4 more" for the preview. */
export function previewList(labels: readonly string[], shown = 8): string {
  if (labels.length <= shown) return labels.length > 1 ? `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}` : (labels[0] ?? '');
  return `${labels.slice(0, shown).join(', ')} and ${labels.length - shown} more`;
}

export interface MarkedOutcome extends CommandResult {
  /** Rows whose run failed (they stay marked, to try again). */
  failed: string[];
}

let batches = 0;

/**
 * Runs `def` once per marked row, its target argument set to each row's id and the rest of
 * `input` shared: first one confirmation with a preview naming every target (destructive or
 * not), then each run through the gate without asking again, as one batch (one undo reverses all).
 */
export async function runOnMarked(registry: Registry, def: AnyCommand, input: Record<string, unknown>, targets: MarkedTargets, options: { source: CommandSource; ctx: CommandContext }): Promise<MarkedOutcome> {
  const arg = markedArg(def, targets.kind);
  if (!arg) throw new CommandError(`${def.title} does not apply to marked rows.`, 'refused');
  const n = targets.items.length;
  const what = markedNoun(targets.kind, n);
  const ok = await options.ctx.confirm({
    title: `${def.title}: ${what}`,
    message: `${def.title} for ${what}: ${previewList(targets.items.map((t) => t.label))}?`,
    confirmLabel: `Run on ${n}`,
    cancelLabel: 'Cancel',
  });
  if (!ok) throw new CommandError('Cancelled', 'cancelled');
  const batch = { id: `marks-${Date.now()}-${++batches}`, title: `${def.title} on ${what}` };
  // One confirmation covers them all: destructive commands do not ask again per row.
  const ctx: CommandContext = { ...options.ctx, confirm: async () => true };
  const failed: { id: string; label: string; error: string }[] = [];
  let undo: CommandResult['undo'];
  for (const target of targets.items) {
    try {
      const result = await registry.dispatch(def.id, { ...input, [arg.name]: target.id }, { source: options.source, ctx, batch });
      undo = result.undo ?? undo;
    } catch (err) {
      failed.push({ ...target, error: err instanceof Error ? err.message : String(err) });
    }
  }
  const done = n - failed.length;
  if (done === 0) throw new CommandError(`${def.title} failed for all ${what}: ${failed[0]!.label}: ${failed[0]!.error}`);
  const message = failed.length
    ? `${def.title}: done for ${done} of ${n}. Failed: ${failed.map((f) => `${f.label} (${f.error})`).join('; ')}`
    : `${def.title}: done for ${what}.`;
  return { message, undo, failed: failed.map((f) => f.id) };
}

/**
 * What a front door (palette, command line) runs: when the command takes a target of the marked
 * kind and none was given, once per marked row (`runOnMarked`); otherwise one run. `marked` says
 * which rows were used, so the caller can unmark the ones that went through.
 */
export async function dispatchWithMarks(
  registry: Registry,
  id: string,
  input: Record<string, unknown>,
  targets: MarkedTargets | undefined,
  options: { source: CommandSource; ctx: CommandContext },
): Promise<CommandResult & { marked?: { done: string[]; failed: string[] } }> {
  const def = registry.get(id);
  const arg = def && targets?.items.length ? markedArg(def, targets.kind) : undefined;
  if (!def || !targets || !arg || input[arg.name] !== undefined) return registry.dispatch(id, input, options);
  const outcome = await runOnMarked(registry, def, input, targets, options);
  return { ...outcome, marked: { done: targets.items.map((t) => t.id).filter((t) => !outcome.failed.includes(t)), failed: outcome.failed } };
}
