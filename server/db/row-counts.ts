import { count, eq, sql, sum } from 'drizzle-orm';
import { rawQueryOf, type Db } from './client';
import { rowCounts } from './schema';

/** The tables migrations 0024 and 0025 count with triggers (row_counts). */
export type CountedTable = 'users' | 'servers' | 'notification_groups' | 'services' | 'command_history' | 'checks';

const SUM_SQL = 'select sum(n) as n, count(*)::int as deltas from row_counts where tbl = $1';

/** Deltas above this many are folded into one row by the next reader. */
const FOLD_ABOVE = 64;

/**
 * The exact number of rows in a table, from its trigger-kept deltas (migration 0024): a sum over
 * a few rows instead of a pass over 100,000 (13 ms of CPU on PGlite, every unfiltered page).
 * Folding is one statement that deletes the deltas it sees and inserts their sum: a delta
 * committed meanwhile is not seen and stays, and two readers folding at once each move only the
 * rows they deleted, so the sum never changes.
 */
export async function rowCount(db: Db, table: CountedTable): Promise<number> {
  const raw = rawQueryOf(db);
  // Fixed SQL when not in a transaction: a third of the CPU of the built statement
  // (docs/decisions.md "The request path every list pays").
  const [row] = raw
    ? (await raw<{ n: string | null; deltas: number }>(SUM_SQL, [table])).map((r) => ({ n: r.n === null ? null : Number(r.n), deltas: r.deltas }))
    : await db.select({ n: sum(rowCounts.n).mapWith(Number), deltas: count() }).from(rowCounts).where(eq(rowCounts.tbl, table));
  if ((row?.deltas ?? 0) > FOLD_ABOVE) {
    await db.execute(sql`with gone as (delete from ${rowCounts} where ${rowCounts.tbl} = ${table} returning ${rowCounts.n})
      insert into ${rowCounts} (tbl, n) select ${table}, sum(n) from gone having count(*) > 0`);
  }
  return row?.n ?? 0;
}
