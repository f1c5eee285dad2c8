import { eq } from 'drizzle-orm';
import type { AuditScope } from '../audit/trail';
import { previewMatch } from '../alerting/preview';
import type { Matcher, MatchPreview, Silence } from '../contract/routing';
import { isUuid } from '../contract/ids';
import type { Db } from '../db/client';
import { silences } from '../db/schema';
import { conflict, notFound } from '../http/errors';
import { silenceState, silenceTarget, silenceToApi } from './resource';

/** Ends a silence now (a pending one never starts); one already over is a 409. `changed` runs after the commit. */
export async function expireSilence(tx: Db, input: { id: string }, audit: AuditScope, changed: () => void): Promise<Silence> {
  const { id } = input;
  const [row] = isUuid(id) ? await tx.select().from(silences).where(eq(silences.id, id)) : [];
  if (!row) throw notFound(`No silence with id "${id}"`);
  audit.target(silenceTarget(row));
  const now = new Date();
  if (silenceState(row, now.getTime()) === 'expired') throw conflict('This silence has already expired', 'endsAt');
  const [done] = await tx
    .update(silences)
    .set({ endsAt: now, startsAt: row.startsAt > now ? now : row.startsAt, updatedAt: now })
    .where(eq(silences.id, id))
    .returning();
  audit.afterCommit(changed);
  return silenceToApi(done!);
}

/** Which firing alerts these matchers would silence now. */
export const previewSilence = (db: Db, input: { matchers: Matcher[] }): Promise<MatchPreview> => previewMatch(db, { matchers: input.matchers });
