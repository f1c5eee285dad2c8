import type { Server } from '../../server/contract/servers';
import type { Api } from '../../src/api/client';
import { ApiError } from '../../src/api/client';
import { getServer, listServers } from '../../src/api/servers';
import { CommandError } from '../registry';
import { isUuid } from '../../server/contract/ids';

const IP_LIKE = /^[0-9a-f.:]+$/i;
const SHOWN = 5;

const label = (s: Server) => `${s.hostname} (${s.ipaddress}:${s.agentPort})`;

function several(value: string, matches: Server[], total: number, how: string): CommandError {
  const list = matches.slice(0, SHOWN).map(label).join(', ');
  const more = total > SHOWN ? ` and ${total - SHOWN} more` : '';
  return new CommandError(`${total} servers ${how} "${value}": ${list}${more}. Use the full hostname, the IP address or the id.`);
}

/**
 * `server` arguments take an id, a hostname or an IP address, and forgive a partial name:
 * an exact match (hostname case-insensitively, or IP) wins; otherwise a single server whose
 * hostname or IP contains the text; otherwise a readable error listing the candidates.
 */
export async function resolveServer(api: Api, ref: string): Promise<Server> {
  const value = ref.trim();
  if (!value) throw new CommandError('Name a server: its hostname, IP address or id');
  if (isUuid(value)) {
    try {
      return (await getServer(api, value)).result;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
  }
  const lower = value.toLowerCase();
  const [byHostname, byIp, bySearch] = await Promise.all([
    listServers(api, { pageNumber: 1, pageSize: SHOWN + 1, filter: { hostname: { eq: value } } }),
    IP_LIKE.test(value) ? listServers(api, { pageNumber: 1, pageSize: SHOWN + 1, filter: { ipaddress: { eq: value } } }) : null,
    listServers(api, { pageNumber: 1, pageSize: 50, search: value, sort: { by: 'hostname', direction: 'asc' } }),
  ]);
  const exact = new Map<string, Server>();
  for (const s of [...byHostname.result.data, ...(byIp?.result.data ?? []), ...bySearch.result.data]) {
    if (s.hostname.toLowerCase() === lower || s.ipaddress === value) exact.set(s._id, s);
  }
  if (exact.size === 1) return [...exact.values()][0]!;
  if (exact.size > 1) throw several(value, [...exact.values()], exact.size, 'are called');
  const { data, count } = bySearch.result;
  if (count === 1 && data[0]) return data[0];
  if (count > 1) throw several(value, data, count, 'match');
  throw new CommandError(`No server matches "${value}"`);
}
