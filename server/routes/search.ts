import type { FastifyInstance } from 'fastify';
import { endpoints } from '../contract/api-routes';
import { can, whyNot, type Permission } from '../contract/permissions';
import { searchKinds, searchWords, type SearchKind } from '../contract/search';
import type { Db } from '../db/client';
import { HttpError } from '../http/errors';
import { serve } from '../http/serve';
import { searchEntities } from '../search/entity-search';

/** Users are listed only to those who may read them (admin, sysadmin); the rest to every role. */
const readPermission = (kind: SearchKind): Permission => (kind === 'user' ? 'users.read' : 'read');

/** The palette's entity search (server/contract/search.ts): one request, one query per keystroke. */
export function registerSearch(app: FastifyInstance, db: Db): void {
  serve(app, endpoints['search.entities'], async ({ query, user }) => {
    const { q, kinds, limit } = query;
    // Asked for by name, a kind this role may not read is refused; by default it is left out.
    const refused = kinds?.find((k) => !can(user.role, readPermission(k)));
    if (refused) throw new HttpError(403, `kinds: ${refused}: ${whyNot(readPermission(refused))}`, 'kinds');
    const wanted = kinds ?? searchKinds.filter((k) => can(user.role, readPermission(k)));
    return { result: { hits: await searchEntities(db, searchWords(q), wanted, limit) } };
  });
}
