import { z } from 'zod';
import { MAX_TEXT } from '../../server/contract/common';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { choiceList } from '../argument-error';
import { changeList, needsList, openList, pageSizes } from './list-views';

function current(ctx: Parameters<typeof openList>[0], which: Parameters<typeof needsList>[0]) {
  const open = openList(ctx);
  if (!open || !which(open.list)) throw new CommandError(String(needsList(which)(ctx)), 'refused');
  return open;
}

const withViews = (l: { views: boolean }) => l.views;
const anyList = () => true;
const sortable = (l: { sort: readonly unknown[] }) => l.sort.length > 0;

function viewCommand<const Id extends 'view.table' | 'view.cards'>(id: Id, view: 'table' | 'cards') {
  return defineCommand({
    id,
    title: view === 'table' ? 'Show as table' : 'Show as cards',
    category: 'Lists',
    description: `Switch the open list (Servers, Notifications, Users) to ${view}.`,
    input: z.object({}).strict(),
    args: [],
    permission: 'read',
    enabled: needsList(withViews),
    history: false,
    run(_input, ctx) {
      const { list, search } = current(ctx, withViews);
      if (list.viewClearsFilters) {
        changeList(ctx, list, {}, { view, pageSize: search.pageSize });
        return { message: `${list.name} as **${view}**; filters cleared.` };
      }
      changeList(ctx, list, search, { view, page: search.page });
      return { message: `${list.name} as **${view}**.` };
    },
  });
}

/** SPEC §2's card / table switch of the Servers, Notifications and Users lists. */
export const viewTable = viewCommand('view.table', 'table');
export const viewCards = viewCommand('view.cards', 'cards');

/** The open list's search box: servers by hostname, alerts by hostname, users by any field, groups by name. Empty clears. */
export const searchList = defineCommand({
  id: 'list.search',
  title: 'Search this list',
  category: 'Lists',
  description: 'Type into the open list’s search box (empty clears it).',
  input: z.object({ text: z.string().max(MAX_TEXT).optional() }).strict(),
  args: [{ name: 'text', label: 'Search text', kind: 'text', positional: true, optional: true }],
  permission: 'read',
  enabled: needsList(anyList),
  history: false,
  run({ text }, ctx) {
    const { list, search } = current(ctx, anyList);
    const value = text?.trim() || undefined;
    changeList(ctx, list, search, { [list.searchKey]: value });
    return { message: value ? `${list.name}: ${list.searchLabel} contains “${value}”.` : `${list.name}: search cleared.` };
  },
});

export const setPageSize = defineCommand({
  id: 'list.page-size',
  title: 'Set page size',
  category: 'Lists',
  description: 'Rows per page of the open list: 25, 50, 75 or 100.',
  input: z.object({ size: z.coerce.number().pipe(z.union(pageSizes.map((n) => z.literal(n)) as unknown as [z.ZodLiteral<25>, z.ZodLiteral<50>, z.ZodLiteral<75>, z.ZodLiteral<100>])) }).strict(),
  args: [{ name: 'size', label: 'Page size', kind: 'enum', positional: true, options: pageSizes.map((n) => ({ value: String(n), label: `${n} / page` })) }],
  permission: 'read',
  enabled: needsList(anyList),
  history: false,
  run({ size }, ctx) {
    const { list, search } = current(ctx, anyList);
    changeList(ctx, list, search, { pageSize: size });
    return { message: `${list.name}: **${size}** per page.` };
  },
});

export const sortList = defineCommand({
  id: 'list.sort',
  title: 'Sort this list',
  category: 'Lists',
  description: 'Sort the open list (Servers, Users, Notification Groups, Checks) by a column, ascending or descending.',
  input: z.object({ by: z.string().trim().min(1), direction: z.enum(['asc', 'desc']).optional() }).strict(),
  args: [
    {
      name: 'by',
      label: 'Column',
      kind: 'text',
      positional: true,
      async choices(_values, ctx) {
        return openList(ctx)?.list.sort ?? [];
      },
    },
    { name: 'direction', label: 'Direction', kind: 'enum', positional: true, optional: true, options: [{ value: 'asc', label: 'Ascending' }, { value: 'desc', label: 'Descending' }] },
  ],
  permission: 'read',
  enabled: needsList(sortable),
  history: false,
  run({ by, direction }, ctx) {
    const { list, search } = current(ctx, sortable);
    const column = list.sort.find((c) => c.value.toLowerCase() === by.toLowerCase() || c.label.toLowerCase() === by.toLowerCase());
    if (!column) throw new CommandError(`Column: “${by}” is not a column ${list.name} sorts by. Choose one of: ${choiceList(list.sort)}.`, 'refused');
    // Same column again without a direction flips it, as a header click does.
    const dir = direction ?? (search.sortBy === column.value && search.sortDir === 'asc' ? 'desc' : 'asc');
    changeList(ctx, list, search, { sortBy: column.value, sortDir: dir });
    return { message: `${list.name} sorted by **${column.label}**, ${dir === 'asc' ? 'ascending' : 'descending'}.` };
  },
});
