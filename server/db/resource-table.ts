import { eq, getTableColumns, inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { isUuid } from '../contract/ids';
import type { Db } from './client';
import type { ListSource } from './list-query';

/**
 * The rows of one resource's table, as SPEC §7's generic calls read and change them
 * (server/routes/resource.ts): by id, by ids, inserted, updated and deleted by id, and the list's
 * source (every row, or only the ids when the resource reads a page's items itself).
 */
export function resourceTable<Row extends Record<string, unknown>>(def: { table: PgTable; id: PgColumn; listColumns?: Partial<Record<keyof Row, PgColumn>>; total?: (db: Db) => Promise<number> }) {
  const table = def.table as any;
  const idKey = Object.entries(getTableColumns(table)).find(([, column]) => column === def.id)![0];
  const source: ListSource<Row> = {
    from: (d, fields) => d.select(fields as never).from(table),
    rows: (d) => (def.listColumns ? d.select(def.listColumns as Record<string, PgColumn>) : d.select()).from(table),
    idOf: (row) => (row as Record<string, unknown>)[idKey] as string,
    id: def.id,
    ties: [{ key: def.id, direction: 'asc' }],
    total: def.total,
  };
  return {
    source,
    /** The list's source when a page is found by its ids alone (`listItems` reads the items). */
    idsOnly: { ...source, rows: (d: Db) => d.select({ [idKey]: def.id }).from(table), idsOnly: (id: string) => ({ [idKey]: id }) as Row } as ListSource<Row>,
    async findOne(db: Db, id: string): Promise<Row | undefined> {
      if (!isUuid(id)) return undefined;
      const rows = await db.select().from(table).where(eq(def.id, id)).limit(1);
      return rows[0] as Row | undefined;
    },
    async findMany(db: Db, ids: string[]): Promise<Row[]> {
      return (await db.select().from(table).where(inArray(def.id, ids))) as Row[];
    },
    async insert(tx: Db, values: Record<string, unknown>): Promise<Row> {
      const [created] = (await tx.insert(table).values(values).returning()) as Row[];
      return created!;
    },
    async update(tx: Db, id: string, values: Record<string, unknown>): Promise<Row | undefined> {
      const [updated] = (await tx.update(table).set(values).where(eq(def.id, id)).returning()) as Row[];
      return updated;
    },
    /** Whether a row was there to delete. */
    async remove(tx: Db, id: string): Promise<boolean> {
      const gone = await tx.delete(table).where(eq(def.id, id)).returning({ id: def.id });
      return gone.length > 0;
    },
  };
}
