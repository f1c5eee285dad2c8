import type { ArgSpec, CommandContext, CommandDefinition } from '../../../commands/define-command';
import type { Registry } from '../../../commands/registry';
import type { Rankable } from '../../lib/rank';
import type { Entity } from './entities';

interface Base extends Rankable {
  key: string;
  /** As shown; `title` is its lower-case haystack for ranking. */
  label: string;
}
export type PaletteItem =
  | (Base & { kind: 'command'; def: CommandDefinition<any>; allowed: true | string })
  | (Base & { kind: 'entity'; entity: Entity })
  | (Base & { kind: 'option'; value: unknown });

/** Commands a person may see now (hidden by `when`), each with true or the reason it cannot run. */
export function commandItems(registry: Registry, ctx: CommandContext): PaletteItem[] {
  return registry
    .list()
    .filter((def) => (def.when ? def.when(ctx) : true))
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

export function entityItems(entities: readonly Entity[]): PaletteItem[] {
  return entities.map((e) => ({ key: `${e.kind}:${e.id}`, kind: 'entity', label: e.title, title: e.title.toLowerCase(), extra: e.subtitle.toLowerCase(), entity: e }));
}

/** Choices for an enum or boolean argument; an optional one can be skipped. */
export function optionItems(arg: ArgSpec): PaletteItem[] {
  const options =
    arg.kind === 'boolean'
      ? [
          { value: true as unknown, label: 'Yes' },
          { value: false as unknown, label: 'No' },
        ]
      : (arg.options ?? []).map((o) => ({ value: o.value as unknown, label: o.label }));
  const items: PaletteItem[] = options.map((o) => ({ key: `opt:${String(o.value)}`, kind: 'option', label: o.label, title: o.label.toLowerCase(), extra: String(o.value).toLowerCase(), value: o.value }));
  if (arg.optional) items.unshift({ key: 'opt:__skip', kind: 'option', label: '(skip)', title: '(skip)', extra: '', boost: 1, value: undefined });
  return items;
}

/** Arguments asked in the palette: the ones listed in `args`, in that order. */
export function argsToAsk(def: CommandDefinition<any>): readonly ArgSpec[] {
  return def.args ?? [];
}
