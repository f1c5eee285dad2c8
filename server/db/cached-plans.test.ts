import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../tests/api/harness';
import { executeCached } from './cached-plans';
import type { Database } from './client';

describe.each(await backends())('executeCached on $name', (backend) => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await backend.open());
  });
  afterAll(() => drop());

  // Parameters of the types the tick passes (timestamps, uuid and text arrays, numbers, null)
  // and results of the types it reads (timestamps as drizzle gives them, json, booleans, ints).
  const statement = (at: string, ids: string[], names: (string | null)[], n: number | null, divisor: number) => sql`
    select x.id, x.name, ${at}::timestamptz + make_interval(secs => x.k) as due,
           x.k * ${n}::int / ${divisor}::int as product, x.name is null as unnamed,
           json_build_array(x.id, x.name) as pair
    from unnest(${sql.param(ids)}::uuid[], ${sql.param(names)}::text[]) with ordinality as x(id, name, k)
    order by x.k`;
  const ids = ['0b7d4c52-3f0e-4d57-9c83-3a4f2f0f8b11', '5e0c3a91-8d0b-4c84-a0a7-7c2c4e8f1d22'];
  const names = ["it's 'quoted'", null];

  it('gives exactly the rows tx.execute gives, run after run, inside a transaction', async () => {
    const at = '2026-06-01T00:00:00.000Z';
    const plain = await database.db.transaction(async (tx) => (await tx.execute(statement(at, ids, names, 7, 2))).rows);
    expect(plain).toHaveLength(2);
    for (let i = 0; i < 8; i++) {
      const cached = await database.db.transaction(async (tx) => (await executeCached(database, tx as never, statement(at, ids, names, 7, 2))).rows);
      expect(cached).toEqual(plain);
    }
    const other = await database.db.transaction(async (tx) => (await executeCached(database, tx as never, statement('2026-06-02T00:00:00.000Z', ids.slice(0, 1), ['x'], null, 1))).rows);
    expect(other).toEqual([{ id: ids[0], name: 'x', due: expect.stringMatching(/^2026-06-02 00:00:01/), product: null, unnamed: false, pair: [ids[0], 'x'] }]);
  });

  it('a failing run rolls its transaction back and the next run of the statement works', async () => {
    await database.query('create table if not exists cached_plan_probe (n int)');
    const at = '2026-06-01T00:00:00.000Z';
    const failed = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into cached_plan_probe values (1)`);
        await executeCached(database, tx as never, statement(at, ids, names, 7, 0));
      })
      .then(() => null, (err: Error & { cause?: Error }) => `${err.message} ${err.cause?.message ?? ''}`);
    // drizzle's PostgreSQL driver names the failed query, with the database's message as its cause.
    expect(failed).toMatch(/division by zero/);
    expect(await database.query('select * from cached_plan_probe')).toEqual([]);
    const rows = await database.db.transaction(async (tx) => (await executeCached(database, tx as never, statement(at, ids, names, 7, 2))).rows);
    expect(rows.map((r) => Number(r.product))).toEqual([3, 7]);
    // The session answers plain statements as before.
    expect(await database.query('select 1 as one')).toEqual([{ one: 1 }]);
  });
});
