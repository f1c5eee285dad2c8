import type { NotificationGroup } from '../../server/contract/alerts';
import type { Api } from '../../src/api/client';
import { ApiError } from '../../src/api/client';
import { getNotificationGroup, listNotificationGroups } from '../../src/api/notification-groups';
import { CommandError } from '../registry';
import { isUuid } from '../../server/contract/ids';

const SHOWN = 5;

/**
 * `group` arguments take an id or a name (case-insensitively, names are unique that way), and
 * forgive a unique part of a name; several candidates are listed so the person can pick one.
 */
export async function resolveGroup(api: Api, ref: string): Promise<NotificationGroup> {
  const value = ref.trim();
  if (!value) throw new CommandError('Name a notification group: its name or id');
  if (isUuid(value)) {
    try {
      return (await getNotificationGroup(api, value)).result;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
  }
  const lower = value.toLowerCase();
  const [byName, bySearch] = await Promise.all([
    listNotificationGroups(api, { pageNumber: 1, pageSize: 2, filter: { name: { eq: value } } }),
    listNotificationGroups(api, { pageNumber: 1, pageSize: 50, search: value, sort: { by: 'name', direction: 'asc' } }),
  ]);
  const exact = [...byName.result.data, ...bySearch.result.data].find((g) => g.name.toLowerCase() === lower);
  if (exact) return exact;
  const { data, count } = bySearch.result;
  if (count === 1 && data[0]) return data[0];
  if (count > 1) {
    const more = count > SHOWN ? ` and ${count - SHOWN} more` : '';
    throw new CommandError(`${count} groups match "${value}": ${data.slice(0, SHOWN).map((g) => g.name).join(', ')}${more}. Use the full name or the id.`);
  }
  throw new CommandError(`No group matches "${value}"`);
}
