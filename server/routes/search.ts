import type { FastifyInstance } from 'fastify';
import { can, whyNot, type Permission } from '../contract/permissions';
import { searchKinds, searchQuerySchema, searchWords, type SearchKind, type SearchResult } from '../contract/search';
import type { Db } from '../db/client';
import { fromZod, HttpError } from '../http/errors';
import { requirePermission, requireUser } from '../http/session';
import { searchEntities } from '../search/entity-search';

/** Users are listed only to those who may read them (admin, sysadmin); the rest to every role. */
const readPermission = (kind: SearchKind): Permission => (kind === 'user' ? 'users.read' : 'read');

/** The palette's entity search (server/contract/search.ts): one request, one query per keystroke. */
export function registerSearch(app: FastifyInstance, db: Db): void {
  app.get('/api/search', { preHandler: requirePermission('read') }, async (request): Promise<SearchResult> => {
    const parsed = searchQuerySchema.safeParse(request.query ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const user = requireUser(request);
    const { q, kinds, limit } = parsed.data;
    // Asked for by name, a kind this role may not read is refused; by default it is left out.
    const refused = kinds?.find((k) => !can(user.role, readPermission(k)));
    if (refused) throw new HttpError(403, `kinds: ${refused}: ${whyNot(readPermission(refused))}`, 'kinds');
    const wanted = kinds ?? searchKinds.filter((k) => can(user.role, readPermission(k)));
    return { result: { hits: await searchEntities(db, searchWords(q), wanted, limit) } };
  });
}
