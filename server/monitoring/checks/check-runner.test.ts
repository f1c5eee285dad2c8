import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCheckTargets, type CheckTargets } from '../../../tests/check-targets';
import { openDatabase, type Database } from '../../db/client';
import { CheckRunner } from './check-runner';

let database: Database;
let targets: CheckTargets;
const quiet = { warn: () => {}, error: () => {} };

beforeAll(async () => {
  [database, targets] = await Promise.all([openDatabase({}), startCheckTargets()]);
});
afterAll(async () => {
  await targets.close();
  await database.close();
});

async function insert(name: string, fields: Record<string, unknown>): Promise<string> {
  const cols = { name, target: name, interval_s: 1, timeout_s: 1, ...fields };
  const keys = Object.keys(cols);
  const [row] = await database.query<{ id: string }>(`insert into checks (${keys.join(', ')}) values (${keys.map((_, i) => `$${i + 1}`).join(', ')}) returning id`, Object.values(cols));
  return row!.id;
}
const samples = async (id: string) => (await database.query<{ n: number }>('select count(*)::int as n from check_samples where check_id = $1', [id]))[0]!.n;

it('runs each check at its interval; a hanging one holds only its own slot; paused ones never run; new ones run at once', async () => {
  const ok = await insert('ok', { kind: 'http', url: `${targets.httpUrl}/ok` });
  const hang = await insert('hang', { kind: 'http', url: `${targets.httpUrl}/hang` });
  const refused = await insert('refused', { kind: 'tcp', host: '127.0.0.1', port: targets.tcpClosedPort });
  const paused = await insert('paused', { kind: 'http', url: `${targets.httpUrl}/status/201`, paused: true });
  const runner = new CheckRunner(database, { concurrency: 2, retentionHours: 1 }, quiet);
  let written = 0;
  runner.onWritten = () => written++;
  runner.start();
  await new Promise((r) => setTimeout(r, 1500));
  const late = await insert('late', { kind: 'tcp', host: '127.0.0.1', port: targets.tcpOpenPort, interval_s: 60 });
  await runner.reload();
  // Three runs of each at a 1 s interval (waited for, not timed: the machine may be loaded).
  const started = Date.now();
  while ((await samples(ok)) < 3 || (await samples(refused)) < 3 || (await samples(late)) < 1) {
    if (Date.now() - started > 20_000) throw new Error('the checks did not run three times within 20 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  await runner.stop();

  // The hanging check times out after 1 s and is skipped while it still runs: it runs at most
  // as often as the others, never piles up.
  expect(await samples(hang)).toBeGreaterThanOrEqual(1);
  expect(await samples(hang)).toBeLessThanOrEqual(await samples(ok));
  expect(await samples(paused)).toBe(0);
  expect(await samples(late)).toBe(1);
  expect(written).toBeGreaterThanOrEqual(2);
  const rows = await database.query<{ name: string; state: string; last_error: string | null }>('select name, state, last_error from checks order by name');
  expect(rows).toEqual([
    { name: 'hang', state: 'down', last_error: 'No answer within 1 s' },
    { name: 'late', state: 'up', last_error: null },
    { name: 'ok', state: 'up', last_error: null },
    { name: 'paused', state: 'unknown', last_error: null },
    { name: 'refused', state: 'down', last_error: `Connection refused at 127.0.0.1:${targets.tcpClosedPort}` },
  ]);
  const [hourly] = await database.query<{ total: number; up: number }>('select total, up from check_hourly where check_id = $1', [ok]);
  expect(hourly!.total).toBe(await samples(ok));
  expect(hourly!.up).toBe(hourly!.total);
  expect(runner.latest.get(ok)).toMatchObject({ name: 'ok', kind: 'http', up: true, statusCode: 200 });
});

it('without checks keeps no tick or flush timer; a check added later runs and is written; deleting the last one stops the timers', async () => {
  await database.query('delete from checks');
  const runner = new CheckRunner(database, { concurrency: 2, retentionHours: 1 }, quiet);
  const armed = () => (runner as unknown as { fast: unknown[] | null }).fast !== null;
  runner.start();
  try {
    await runner.reload();
    expect(armed()).toBe(false);
    const id = await insert('later', { kind: 'http', url: `${targets.httpUrl}/ok` });
    await runner.reload();
    expect(armed()).toBe(true);
    const started = Date.now();
    while ((await samples(id)) < 1) {
      if (Date.now() - started > 10_000) throw new Error('the check added later did not run and get written within 10 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    await database.query('delete from checks where id = $1', [id]);
    await runner.reload();
    const gone = Date.now();
    while (armed()) {
      if (Date.now() - gone > 5_000) throw new Error('the timers still run 5 s after the last check was deleted');
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await runner.stop();
  }
});
