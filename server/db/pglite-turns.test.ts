import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paceStatements, SLICE_MS } from './pglite-turns';

/** A statement that costs a few ms of this thread's time. */
const SLOW = 'select count(*)::int as n from generate_series(1, 150000)';

describe('PGlite statements give the event loop its turns (issue 17 §3)', () => {
  let paced: PGlite;
  let plain: PGlite;
  beforeAll(async () => {
    [paced, plain] = await Promise.all([PGlite.create(), PGlite.create()]);
    paceStatements(paced);
  });
  afterAll(async () => {
    await Promise.all([paced.close(), plain.close()]);
  });

  /** Asks for 16 slow statements at once; when did a timer set beside them run, and when did the last statement end? */
  async function timerAmongStatements(db: PGlite) {
    const started = performance.now();
    let timerAt = Number.NaN;
    const timer = new Promise<void>((resolve) =>
      setTimeout(() => {
        timerAt = performance.now() - started;
        resolve();
      }, 0),
    );
    const ends: number[] = [];
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        const { rows } = await db.query<{ n: number }>(SLOW);
        expect(rows[0]?.n).toBe(150000);
        ends.push(performance.now() - started);
      }),
    );
    await timer;
    return { timerAt, lastEnd: Math.max(...ends), firstEnd: Math.min(...ends) };
  }

  it('a timer waits for all the queued statements without pacing, and runs among them with it', async () => {
    const without = await timerAmongStatements(plain);
    // PGlite's lock hands each statement to the next inside one chain of callbacks.
    expect(without.timerAt).toBeGreaterThanOrEqual(without.lastEnd);
    const paced_ = await timerAmongStatements(paced);
    expect(paced_.timerAt).toBeLessThan(paced_.lastEnd);
    // It ran after at most a slice and the statement under way (generous: a loaded machine).
    expect(paced_.timerAt).toBeLessThan(paced_.firstEnd + SLICE_MS + 200);
  });

  it('keeps statements in order, and transactions whole and paced', async () => {
    await paced.exec('create table log (i int)');
    const order: number[] = [];
    let timerRan = false;
    setTimeout(() => {
      timerRan = true;
    }, 0);
    await Promise.all([
      paced.transaction(async (tx) => {
        for (let i = 0; i < 8; i += 1) {
          await tx.query(SLOW);
          await tx.query('insert into log values ($1)', [i]);
        }
        // The transaction holds the queue: statements asked for meanwhile wait for it.
        expect(timerRan).toBe(true);
        order.push(1);
      }),
      paced.query('select count(*)::int as n from log').then(({ rows }) => {
        order.push(2);
        expect((rows[0] as { n: number }).n).toBe(8);
      }),
    ]);
    expect(order).toEqual([1, 2]);
    await expect(
      paced.transaction(async (tx) => {
        await tx.query('insert into log values (99)');
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    const { rows } = await paced.query<{ n: number }>('select count(*)::int as n from log where i = 99');
    expect(rows[0]?.n).toBe(0);
    // A failed statement does not stop the queue.
    await expect(paced.query('select * from nowhere')).rejects.toThrow();
    expect((await paced.query<{ one: number }>('select 1 as one')).rows[0]?.one).toBe(1);
  });
});
