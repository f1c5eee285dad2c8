import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { backends } from '../../tests/api/harness';
import type { Database } from '../db/client';
import { ObservationWriter } from './observations';
import { usageFields, type Usage } from './types';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const usage = (fields: Partial<Usage>): Usage => ({ ...(Object.fromEntries(usageFields.map((f) => [f, null])) as unknown as Usage), ...fields });

interface Row {
  state: string;
  stateChangedAt: Date | null;
  lastScrapedAt: Date | null;
  lastError: string | null;
  cpuUsage: number | null;
  memoryTotal: number | null;
  uptime: number | null;
}

describe.each(await backends())('ObservationWriter on $name', (backend) => {
  let database: Database;
  let drop: () => Promise<void>;
  let writer: ObservationWriter;
  let octet = 0;

  const server = async () => {
    const n = ++octet;
    const [row] = await database.query<{ id: string }>(`insert into servers (hostname, ipaddress, operating_system) values ($1, $2, 'linux') returning id`, [
      `obs-${n}`,
      `10.30.0.${n}`,
    ]);
    return row!.id;
  };
  const row = async (id: string) =>
    (
      await database.query<Row>(
        `select state, state_changed_at as "stateChangedAt", last_scraped_at as "lastScrapedAt", last_error as "lastError",
           cpu_usage as "cpuUsage", memory_total as "memoryTotal", uptime from servers where id = $1`,
        [id],
      )
    )[0]!;
  /** The statements a call makes that change server rows. */
  const updates = async (run: () => Promise<void>) => {
    const spy = vi.spyOn(database, 'query');
    try {
      await run();
      return spy.mock.calls.map(([text]) => String(text)).filter((text) => /^\s*update servers/.test(text));
    } finally {
      spy.mockRestore();
    }
  };

  beforeAll(async () => {
    ({ database, drop } = await backend.open());
  });
  afterAll(async () => {
    await drop();
  });
  beforeEach(() => {
    writer = new ObservationWriter(database, null);
  });

  it('writes a round of readings with one UPDATE, every figure as given, non-finite ones as null', async () => {
    const [a, b, c] = [await server(), await server(), await server()];
    await writer.queueUp(a, T0, usage({ cpuUsage: 12.5, memoryTotal: 16_777_216_123, uptime: 1234567.25 }), null);
    await writer.queueUp(b, T0 + 1, usage({ cpuUsage: Number.NaN, memoryTotal: Number.POSITIVE_INFINITY }), null);
    await writer.queueUp(c, T0 + 2, usage({}), null);
    expect((await row(a)).state).toBe('unknown');
    expect(await updates(() => writer.flush())).toHaveLength(1);
    // Double precision all the way: a byte count or an uptime keeps every digit.
    expect(await row(a)).toEqual({ state: 'up', stateChangedAt: new Date(T0), lastScrapedAt: new Date(T0), lastError: null, cpuUsage: 12.5, memoryTotal: 16_777_216_123, uptime: 1234567.25 });
    expect(await row(b)).toMatchObject({ state: 'up', lastScrapedAt: new Date(T0 + 1), cpuUsage: null, memoryTotal: null });
    expect((await row(c)).state).toBe('up');
    expect(await updates(() => writer.flush())).toEqual([]);
  });

  it('keeps state_changed_at while the state stays, and the first reading of a run when it changes', async () => {
    const id = await server();
    await writer.up(id, T0, usage({ cpuUsage: 1 }), null);
    await writer.queueUp(id, T0 + 15_000, usage({ cpuUsage: 2 }), null);
    await writer.queueUp(id, T0 + 30_000, usage({ cpuUsage: 3 }), null);
    await writer.flush();
    expect(await row(id)).toMatchObject({ state: 'up', stateChangedAt: new Date(T0), lastScrapedAt: new Date(T0 + 30_000), cpuUsage: 3 });
    await writer.queueDown(id, T0 + 45_000, 'first');
    await writer.queueDown(id, T0 + 60_000, 'second');
    await writer.flush();
    // Down keeps the last figures, dated by last_scraped_at.
    expect(await row(id)).toMatchObject({ state: 'down', stateChangedAt: new Date(T0 + 45_000), lastScrapedAt: new Date(T0 + 30_000), lastError: 'second', cpuUsage: 3 });
    await writer.queueUp(id, T0 + 75_000, usage({ cpuUsage: 4 }), null);
    await writer.flush();
    expect(await row(id)).toMatchObject({ state: 'up', stateChangedAt: new Date(T0 + 75_000), lastError: null, cpuUsage: 4 });
  });

  it('writes a server that went down between two flushes in the order seen: its figures, then down', async () => {
    const id = await server();
    await writer.queueUp(id, T0, usage({ cpuUsage: 7 }), null);
    await writer.queueDown(id, T0 + 15_000, 'Connection refused');
    await writer.flush();
    expect(await row(id)).toEqual({
      state: 'down',
      stateChangedAt: new Date(T0 + 15_000),
      lastScrapedAt: new Date(T0),
      lastError: 'Connection refused',
      cpuUsage: 7,
      memoryTotal: null,
      uptime: null,
    });
    await writer.queueUp(id, T0 + 30_000, usage({ cpuUsage: 8 }), null);
    await writer.down(id, T0 + 45_000, 'again');
    expect(await row(id)).toMatchObject({ state: 'down', stateChangedAt: new Date(T0 + 45_000), lastScrapedAt: new Date(T0 + 30_000), cpuUsage: 8 });
  });

  it('skips a server deleted before the flush and writes the others', async () => {
    const [gone, kept, down] = [await server(), await server(), await server()];
    await writer.queueUp(gone, T0, usage({ cpuUsage: 1 }), null);
    await writer.queueUp(kept, T0, usage({ cpuUsage: 2 }), null);
    await writer.queueDown(down, T0, 'refused');
    await database.query('delete from servers where id = $1', [gone]);
    await writer.flush();
    expect(await row(kept)).toMatchObject({ state: 'up', cpuUsage: 2 });
    expect(await row(down)).toMatchObject({ state: 'down', lastError: 'refused' });
  });

  it('drops what was queued for a forgotten server', async () => {
    const id = await server();
    await writer.queueUp(id, T0, usage({ cpuUsage: 1 }), null);
    writer.forget(id);
    expect(await updates(() => writer.flush())).toEqual([]);
    expect((await row(id)).state).toBe('unknown');
  });
});
