import type { SearchKind } from '../../server/contract/search';
import type { Api } from './client';
import { call } from './call';

/**
 * The palette's entity search (GET /api/search): a few things of each kind matching every word
 * of the text, in one request. Not cached through TanStack Query: the palette keeps what came
 * back in its own index and asks again as the text changes.
 */
export const searchEntities = (api: Api, q: string, kinds: readonly SearchKind[], limit: number) =>
  call(api, 'search.entities', { query: { q, kinds: kinds.join(','), limit: String(limit) } });
