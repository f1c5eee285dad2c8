import type { StatusGroupInput, StatusPage } from '../../server/contract/status-pages';
import type { Api } from '../../src/api/client';
import { ApiError } from '../../src/api/client';
import { getStatusPage, listStatusPages } from '../../src/api/status-pages';
import { resolveCheck } from '../check/check-fields';
import type { ArgSpec } from '../define-command';
import { CommandError } from '../registry';
import { resolveServer } from '../server/resolve-server';
import { isUuid } from '../../server/contract/ids';

const SHOWN = 5;

export const pageArg = { name: 'page', label: 'Status page', kind: 'entity', entity: 'status-page', positional: true } as const satisfies ArgSpec;

export const itemsArg = {
  name: 'items',
  label: 'Items',
  kind: 'text',
  optional: true,
  placeholder: 'Core / server web-01 = Database; Web / check Shop front = Shop',
} as const satisfies ArgSpec;

/**
 * A page by id, slug (exact) or a unique part of its slug or title; several candidates are listed.
 */
export async function resolveStatusPage(api: Api, ref: string): Promise<StatusPage> {
  const value = ref.trim();
  if (!value) throw new CommandError('Name a status page: its slug or id');
  if (isUuid(value)) {
    try {
      return (await getStatusPage(api, value)).result;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
  }
  const lower = value.toLowerCase().replace(/^\/?status\//, '');
  const [bySlug, bySearch] = await Promise.all([
    listStatusPages(api, { pageNumber: 1, pageSize: 1, filter: { slug: { eq: lower } } }),
    listStatusPages(api, { pageNumber: 1, pageSize: 50, search: lower, sort: { by: 'slug', direction: 'asc' } }),
  ]);
  if (bySlug.result.data[0]) return bySlug.result.data[0];
  const { data, count } = bySearch.result;
  if (count === 1 && data[0]) return data[0];
  if (count > 1) {
    const more = count > SHOWN ? ` and ${count - SHOWN} more` : '';
    throw new CommandError(`${count} status pages match "${value}": ${data.slice(0, SHOWN).map((p) => p.slug).join(', ')}${more}. Use the full slug.`);
  }
  throw new CommandError(`No status page matches "${value}"`);
}

const ITEM = /^(?:(.*?)\s*\/\s*)?(server|check)\s+(.+?)\s*=\s*(.+)$/i;

/**
 * `--items` as groups: entries separated by ";" or new lines, each `[Group /] server|check <name or
 * id> = Display name`. The display name is required: the public page never shows a hostname or a
 * check name unless someone typed it as the display name. Addresses stay hidden unless an item
 * already on the page showed its address (`keep`).
 */
export async function parseItems(api: Api, text: string, keep: StatusPage['groups'] = []): Promise<StatusGroupInput[]> {
  const groups: StatusGroupInput[] = [];
  const shown = new Set(keep.flatMap((g) => g.items.filter((i) => i.showAddress).map((i) => `${i.kind}:${i.id}`)));
  for (const raw of text.split(/[;\n]/)) {
    const entry = raw.trim();
    if (!entry) continue;
    const m = ITEM.exec(entry);
    if (!m) throw new CommandError(`items: "${entry}" is not "[Group /] server|check <name> = Display name"`);
    const [, group = '', kind, ref, displayName] = m;
    const k = kind!.toLowerCase() as 'server' | 'check';
    const id = k === 'server' ? (await resolveServer(api, ref!))._id : (await resolveCheck(api, ref!))._id;
    let g = groups.find((x) => x.name === group.trim());
    if (!g) groups.push((g = { name: group.trim(), items: [] }));
    g.items.push({ kind: k, id, displayName: displayName!.trim(), showAddress: shown.has(`${k}:${id}`) });
  }
  return groups;
}

/** The page's public address, for messages. */
export const publicPath = (slug: string) => `/status/${slug}`;
