import type { ArgSpec, CommandContext, AnyCommand } from '../../../commands/define-command';
import type { Registry } from '../../../commands/registry';
import type { AliasDef } from '../../../commands/aliases';
import { parseCommandLine } from '../../../server/contract/parse-command-line';
import type { RecentEntry } from '../../lib/recents';
import type { Rankable } from '../../lib/rank';
import type { Entity } from './entities';

interface Base extends Rankable {
  key: string;
  /** As shown; `title` is its lower-case haystack for ranking. */
  label: string;
  /** Listed among the recents of the empty palette. */
  recent?: boolean;
}
export type PaletteItem =
  | (Base & { kind: 'command'; def: AnyCommand; allowed: true | string })
  | (Base & { kind: 'alias'; alias: AliasDef; def: AnyCommand | undefined; preset: Record<string, unknown>; allowed: true | string })
  | (Base & { kind: 'preset'; def: AnyCommand; preset: Record<string, unknown> })
  | (Base & { kind: 'entity'; entity: Entity; context?: boolean })
  | (Base & { kind: 'option'; value: unknown });

/** Commands a person may see now (hidden by `when`), each with true or the reason it cannot run. */
export function commandItems(registry: Registry, ctx: CommandContext): PaletteItem[] {
  return registry
    .list()
    .filter((def) => registry.shown(def.id, ctx))
    .map((def) => ({
      key: `cmd:${def.id}`,
      kind: 'command',
      label: def.title,
      title: def.title.toLowerCase(),
      extra: `${def.id} ${def.category} ${def.description ?? ''}`.toLowerCase(),
      // Commands outrank entities on equal matches: "user" lists the user commands first.
      boost: 5,
      def,
      allowed: registry.check(def.id, ctx),
    }));
}

/**
 * A person's aliases beside the commands: choosing one asks only for what its line leaves out.
 * A line that no longer parses (a command renamed since) is shown disabled with the reason.
 */
export function aliasItems(aliases: readonly AliasDef[], registry: Registry, ctx: CommandContext): PaletteItem[] {
  return aliases.map((alias) => {
    let def: AnyCommand | undefined;
    let preset: Record<string, unknown> = {};
    let allowed: true | string;
    try {
      const parsed = parseCommandLine(alias.line, registry.get);
      def = registry.get(parsed.id);
      preset = parsed.input;
      allowed = registry.check(parsed.id, ctx);
    } catch (err) {
      allowed = err instanceof Error ? err.message : String(err);
    }
    return { key: `alias:${alias.name}`, kind: 'alias', label: alias.name, title: alias.name, extra: alias.line.toLowerCase(), boost: 6, alias, def, preset, allowed };
  });
}

/**
 * The rows of commands' `paletteOptions` (the open screen's tabs and controls by name: "CPU tab",
 * "Last 1 Hour", "Maintenance on"), for the commands that can run here now. They outrank commands
 * on equal matches: on its screen, a control is what its name means.
 */
export function presetItems(registry: Registry, ctx: CommandContext): PaletteItem[] {
  return registry.list().flatMap((def) => {
    const opts = def.paletteOptions;
    if (!opts || registry.check(def.id, ctx) !== true) return [];
    const base = registry.preset(def.id, ctx);
    if (!base) return [];
    const arg = def.args?.find((a) => a.name === opts.arg);
    return (arg?.options ?? [])
      .filter((o) => !opts.except?.includes(o.value))
      .map((o) => {
        const label = opts.label(o);
        return {
          key: `preset:${def.id}:${o.value}`,
          kind: 'preset' as const,
          label,
          title: label.toLowerCase(),
          extra: `${def.title} ${def.id} ${o.value}`.toLowerCase(),
          boost: 8,
          def,
          preset: { ...base, [opts.arg]: o.value },
        };
      });
  });
}

/** Up to +12 for what a person uses often and lately: enough to reorder equal matches, not to beat a better match. */
export const recencyBonus = (score: number) => Math.min(12, 4 * Math.log2(1 + score));

/** The items with their recency bonus; items never used come back as they are (no copy). */
export function withRecency(items: PaletteItem[], scores: ReadonlyMap<string, number>, hosts: ReadonlyMap<string, number> = new Map()): PaletteItem[] {
  if (!scores.size && !hosts.size) return items;
  return items.map((item) => {
    // Things on a host used lately rank up too: the server of the alert just acknowledged.
    const s = Math.max(scores.get(item.key) ?? 0, item.kind === 'entity' && item.entity.host ? (hosts.get(item.entity.host) ?? 0) : 0);
    return s ? { ...item, boost: (item.boost ?? 0) + recencyBonus(s) } : item;
  });
}

/** host → the frecency of the most used thing on it, among the recents that have a host. */
export function hostScores(recent: readonly RecentEntry[], scores: ReadonlyMap<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of recent) {
    const host = r.entity?.host;
    const s = scores.get(r.key) ?? 0;
    if (host && s > (out.get(host) ?? 0)) out.set(host, s);
  }
  return out;
}

/**
 * The empty palette's first rows: what this person used lately, most frecent first, each as the
 * item it is now (a command's current enabled state); entities no longer in the index come from
 * what was kept when they were used.
 */
export function recentItems(recent: readonly RecentEntry[], byKey: ReadonlyMap<string, PaletteItem>): PaletteItem[] {
  const out: PaletteItem[] = [];
  recent.forEach((r, i) => {
    const item = byKey.get(r.key) ?? (r.entity ? entityItems([r.entity as Entity])[0] : undefined);
    if (item) out.push({ ...item, recent: true, boost: 1000 - i });
  });
  return out;
}

export function entityItems(entities: readonly Entity[]): PaletteItem[] {
  return entities.map((e) => ({ key: `${e.kind}:${e.id}`, kind: 'entity', label: e.title, title: e.title.toLowerCase(), extra: e.subtitle.toLowerCase(), entity: e }));
}

/** Choices for an enum or boolean argument; an optional one can be skipped (unless it says otherwise). */
export function optionItems(arg: ArgSpec): PaletteItem[] {
  const options =
    arg.kind === 'boolean'
      ? [
          { value: true as unknown, label: 'Yes' },
          { value: false as unknown, label: 'No' },
        ]
      : (arg.options ?? []).map((o) => ({ value: o.value as unknown, label: o.label }));
  const items: PaletteItem[] = options.map((o) => ({ key: `opt:${String(o.value)}`, kind: 'option', label: o.label, title: o.label.toLowerCase(), extra: String(o.value).toLowerCase(), value: o.value }));
  // First: leaving an optional choice out keeps what is (an edit), the default (a create) or no filter;
  // an argument whose options already hold every way to go on offers no skip (a time range's "Custom range").
  if (arg.optional && arg.skippable !== false) items.unshift({ key: 'opt:__skip', kind: 'option', label: '(skip)', title: '(skip)', extra: '', boost: 1, value: undefined });
  return items;
}

/**
 * Arguments asked in the palette: the ones listed in `args`, in that order, but command-line-only
 * ones and those whose `askWhen` says no given the answers so far.
 */
export function argsToAsk(def: AnyCommand, skip: readonly string[] = [], values: Record<string, unknown> = {}): readonly ArgSpec[] {
  return (def.args ?? []).filter((a) => a.inPalette !== false && !skip.includes(a.name) && (!a.askWhen || a.askWhen(values)));
}

/** What a preset row leaves to ask: the required arguments it does not give (a preset time range asks nothing more). */
export function presetSkip(def: AnyCommand, preset: Record<string, unknown>): string[] {
  return (def.args ?? []).filter((a) => a.name in preset || a.optional).map((a) => a.name);
}
