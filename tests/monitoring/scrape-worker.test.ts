/**
 * Scraping off the main thread (issue 17 §3), with real parts: the demo fleet in a process of
 * its own (so it answers while this one is busy), PGlite, the collector and its worker thread.
 * While the main thread is held up — as a slow synchronous query on the embedded database holds
 * it — rounds still start on time and their results are written once it is free; stopping the
 * collector ends the worker thread.
 */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnFleet, type Child } from '../../bench/lib/processes';
import type { DemoHost } from '../../server/demo/fleet';
import { openDatabase, type Database } from '../../server/db/client';
import { MetricStore } from '../../server/monitoring/metric-store';
import { ObservationWriter } from '../../server/monitoring/observations';
import { ScrapeCollector } from '../../server/monitoring/scrape-collector';
import { waitFor } from './processes';

const INTERVAL_S = 0.5;
const threads = () => readdirSync('/proc/self/task').length;

describe('the scrape worker thread', () => {
  let database: Database;
  let fleet: Child & { hosts: DemoHost[] };
  let collector: ScrapeCollector;
  const ids: string[] = [];
  const problems: string[] = [];
  const log = { warn: (_o: object, msg: string) => void problems.push(msg), error: (_o: object, msg: string) => void problems.push(msg) };
  let threadsBefore = 0;

  beforeAll(async () => {
    database = await openDatabase({});
    fleet = await spawnFleet(4, 'light');
    for (const h of fleet.hosts.filter((x) => x.profile !== 'down')) {
      const [row] = await database.query<{ id: string }>(
        `insert into servers (hostname, ipaddress, agent_port, operating_system, is_agent_configured, is_agent_installed) values ($1, $2, $3, $4, true, true) returning id`,
        [h.hostname, h.ipaddress, h.port, h.os],
      );
      ids.push(row!.id);
    }
    // Let the thread pools this process starts anyway (PGlite's, libuv's) come up first.
    await new Promise((resolve) => setTimeout(resolve, 500));
    threadsBefore = threads();
    collector = new ScrapeCollector(database, new ObservationWriter(database, new MetricStore(database)), { intervalS: INTERVAL_S, timeoutS: 2, concurrency: 4, retentionHours: 1 }, log);
    collector.start();
    await collector.ready();
  }, 120_000);

  afterAll(async () => {
    await collector?.stop();
    await fleet?.stop();
    await database?.close();
  });

  const scrapeTimes = async (fromMs: number, toMs: number) =>
    (await database.query<{ server_id: string; ts: Date }>('select server_id, ts from metric_samples where ts >= $1 and ts <= $2', [new Date(fromMs), new Date(toMs)])).map(
      (r) => r.ts.getTime(),
    );

  it('runs in a thread of its own', () => {
    expect(threads()).toBeGreaterThan(threadsBefore);
  });

  it('keeps scraping on schedule while the main thread is blocked, and writes those rounds once it is free', async () => {
    await waitFor('first samples of every host', async () => (await database.query<{ n: number }>('select count(distinct server_id)::int as n from metric_samples'))[0]!.n === ids.length, 30_000, 100);
    const blockedFrom = Date.now();
    // Synchronous work on the main thread (a long query on the embedded database is one): no
    // timer, no socket and no promise callback of this thread runs until it ends.
    while (Date.now() - blockedFrom < 3000);
    const blockedTo = Date.now();
    // Written once the main thread is free again: at the next round's end at the latest.
    await waitFor(
      'the rounds of the blocked seconds to be written',
      async () => (await scrapeTimes(blockedFrom, blockedTo)).length >= ids.length * 3,
      10_000,
      100,
    );
    const times = await scrapeTimes(blockedFrom, blockedTo);
    // Rounds every 0.5 s: six in the three blocked seconds; on a loaded machine at least three.
    // Scraped on the main thread, none could start while it was blocked.
    const rounds = new Set(times.map((t) => Math.floor((t - blockedFrom) / (INTERVAL_S * 1000))));
    expect(rounds.size).toBeGreaterThanOrEqual(3);
    expect(problems).toEqual([]);
  });

  it('starts the worker again when it dies on its own, and says so once', async () => {
    // As an uncaught error or running out of memory in the thread would end it.
    const client = (collector as unknown as { client: { worker: { terminate: () => Promise<number> } } }).client;
    await client.worker.terminate();
    await waitFor('the crash to be logged', async () => problems.includes('The scrape worker stopped unexpectedly; starting it again'), 5000, 50);
    const after = Date.now();
    await waitFor('samples from the restarted worker', async () => (await scrapeTimes(after, Date.now() + 1000)).length >= ids.length, 20_000, 100);
    expect(problems).toEqual(['The scrape worker stopped unexpectedly; starting it again']);
    problems.length = 0;
  });

  it('ends the worker thread on stop, and starts a fresh one on start', async () => {
    await collector.stop();
    await waitFor('the worker thread to end', async () => threads() <= threadsBefore, 5000, 50);
    collector.start();
    await collector.ready();
    expect(threads()).toBeGreaterThan(threadsBefore);
    const restarted = Date.now();
    await waitFor('samples from the new worker', async () => (await scrapeTimes(restarted, Date.now() + 1000)).length >= ids.length, 15_000, 100);
    await collector.stop();
    await waitFor('the worker thread to end again', async () => threads() <= threadsBefore, 5000, 50);
  });
});
