import { z } from 'zod';
import { MAX_TEXT } from '../../server/contract/common';
import { choiceList } from '../argument-error';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { changeList, needsList, openList, type ListView } from './list-views';

const filtered = (l: ListView) => !!l.filters?.length;

/** The open list's filter named `field` (by URL key or by what its header calls it). */
function filterOf(list: ListView, field: string) {
  const f = list.filters?.find((x) => x.key.toLowerCase() === field.toLowerCase() || x.label.toLowerCase() === field.toLowerCase());
  if (!f) throw new CommandError(`Filter: “${field}” is not a filter of ${list.name}. Choose one of: ${choiceList((list.filters ?? []).map((x) => ({ value: x.key, label: x.label })))}.`, 'refused');
  return f;
}

/** A list's filters beside its search box (Users' column filters, the Checks' state). Empty clears. */
export const filterList = defineCommand({
  id: 'list.filter',
  title: 'Filter this list',
  category: 'Lists',
  description: 'Set one of the open list’s filters (Users: name, email, role; Checks: state); no value clears it.',
  input: z.object({ field: z.string().trim().min(1), value: z.string().max(MAX_TEXT).optional() }).strict(),
  args: [
    {
      name: 'field',
      label: 'Filter',
      kind: 'text',
      positional: true,
      async choices(_values, ctx) {
        return (openList(ctx)?.list.filters ?? []).map((f) => ({ value: f.key, label: f.label }));
      },
    },
    {
      name: 'value',
      label: 'Value',
      kind: 'text',
      positional: true,
      optional: true,
      async choices(values, ctx) {
        const list = openList(ctx)?.list;
        const f = list?.filters?.find((x) => x.key === values.field);
        return f?.options ?? [];
      },
    },
  ],
  permission: 'read',
  enabled: needsList(filtered),
  history: false,
  run({ field, value }, ctx) {
    const open = openList(ctx);
    if (!open || !filtered(open.list)) throw new CommandError(String(needsList(filtered)(ctx)), 'refused');
    const { list, search } = open;
    const f = filterOf(list, field);
    const text = value?.trim() || undefined;
    const option = text && f.options ? f.options.find((o) => o.value.toLowerCase() === text.toLowerCase() || o.label.toLowerCase() === text.toLowerCase()) : undefined;
    if (text && f.options && !option) throw new CommandError(`${f.label}: “${text}” is not a choice. Choose one of: ${choiceList(f.options)}.`, 'refused');
    changeList(ctx, list, search, { [f.key]: option?.value ?? text });
    if (!text) return { message: `${list.name}: ${f.label} filter cleared.` };
    return { message: option ? `${list.name}: ${f.label} is **${option.label}**.` : `${list.name}: ${f.label} contains “${text}”.` };
  },
});

/** The list's "Clear filters" / "Clear search": its search and every filter at once. */
export const clearListFilters = defineCommand({
  id: 'list.clear-filters',
  title: 'Clear search and filters',
  category: 'Lists',
  description: 'Empty the open list’s search box and clear its filters.',
  input: z.object({}).strict(),
  args: [],
  permission: 'read',
  enabled: needsList(() => true),
  history: false,
  run(_input, ctx) {
    const open = openList(ctx);
    if (!open) throw new CommandError(String(needsList(() => true)(ctx)), 'refused');
    const { list, search } = open;
    const cleared = Object.fromEntries([list.searchKey, ...(list.filters ?? []).map((f) => f.key)].map((k) => [k, undefined]));
    changeList(ctx, list, search, cleared);
    return { message: `${list.name}: search and filters cleared.` };
  },
});
