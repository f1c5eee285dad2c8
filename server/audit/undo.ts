import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { commandHistory } from '../db/schema';
import { badRequest } from '../http/errors';

/**
 * An undo names a run of the same person that succeeded: nobody can mark their run as the undo
 * of a colleague's, of a failure, or of a record that does not exist. `field` is where the id
 * came from (the run's `x-opsdeck-undo-of` header).
 */
export async function checkUndoOf(db: Db, id: string, userId: string | undefined, field: string): Promise<void> {
  const [row] = await db.select({ userId: commandHistory.userId, outcome: commandHistory.outcome }).from(commandHistory).where(eq(commandHistory.id, id)).limit(1);
  if (!row) throw badRequest(`${field}: no history record "${id}"`, field);
  if (!userId || row.userId !== userId) throw badRequest(`${field}: you can only undo your own runs`, field);
  if (row.outcome !== 'ok') throw badRequest(`${field}: that run ended "${row.outcome}", so there is nothing to undo`, field);
}
