/**
 * Metric history for the issue 3 benchmarks: 200 demo servers with 24 h of scrapes at 15 s in
 * metric_samples, shaped like what the console itself writes. Each server's layout (its
 * metric_series keys) comes from deriving two renders of its simulated exporter, so arrays have
 * the real widths (57 to ~75 values); the values come from a small pool of random arrays of
 * each width (their content does not change how PostgreSQL stores or reads them). The day is
 * rolled up into metric_rollups as well, as a running console would have it.
 *
 * Rows go in as a running console writes them: time step after time step, every live host's
 * row of a step together (so the table's pages and its indexes have the shape a day of scrapes
 * leaves), and only for hosts that answer (a `down` demo host never has samples or a layout).
 * The rollups come from the store's own job (MetricStore.rollup), bucket after bucket.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrationsFolder, openDatabase, type Database } from '../../server/db/client';
import { defaultFleetSpecs, demoAddress } from '../../server/demo/fleet';
import { registerDemoFleet, type RegisteredHost } from '../../server/demo/register';
import { createSimulatedHost } from '../../server/demo/simulator';
import { deriveScrape } from '../../server/monitoring/derive';
import { parseExposition } from '../../server/monitoring/exposition';
import { MetricStore } from '../../server/monitoring/metric-store';

export interface HistoryOptions {
  servers: number;
  hours: number;
  stepS: number;
}

/** The series keys the console stores for each demo host, from two renders 15 s apart. */
export function demoLayouts(count: number, atMs: number): Map<string, string[]> {
  const layouts = new Map<string, string[]>();
  for (const spec of defaultFleetSpecs(count)) {
    if (spec.profile === 'down') continue;
    const host = createSimulatedHost(spec, atMs - 3_600_000);
    const first = deriveScrape(spec.os, parseExposition(host.render(atMs - 15_000)), atMs - 15_000);
    const second = deriveScrape(spec.os, parseExposition(host.render(atMs)), atMs, first.memory);
    layouts.set(spec.key, Object.keys(second.derived.series));
  }
  return layouts;
}

/** Demo hosts at the addresses the fleet would give them; the benchmarks re-point them to the live fleet. */
export function placeholderHosts(count: number): RegisteredHost[] {
  return defaultFleetSpecs(count).map((s, i) => ({ key: s.key, hostname: s.hostname, os: s.os, ipaddress: demoAddress(i), port: 9100 }));
}

/**
 * Registers `servers` demo hosts and writes `hours` of samples every `stepS` seconds up to
 * `endMs` for each, then their five-minute rollups. One INSERT … SELECT per batch of servers: generate_series on the
 * database side is far faster than a million round trips.
 */
export async function seedHistory(database: Database, opts: HistoryOptions, endMs: number, log = (_: string) => {}): Promise<void> {
  await registerDemoFleet(database, placeholderHosts(opts.servers));
  const ids = new Map((await database.query<{ id: string; demo_key: string }>('select id, demo_key from servers where demo_key is not null')).map((r) => [r.demo_key, r.id]));
  const layouts = demoLayouts(opts.servers, endMs);
  for (const [key, keys] of layouts) {
    await database.query('insert into metric_series (server_id, keys) values ($1, $2) on conflict (server_id) do update set keys = excluded.keys', [ids.get(key), keys]);
  }
  const widths = [...new Set([...layouts.values()].map((k) => k.length))];
  await database.query('create temp table bench_pool (n int, k int, vals real[])');
  await database.query(
    `insert into bench_pool select n, k, array(select (random() * 100)::real from generate_series(1, n) where k >= 0)
     from unnest($1::int[]) as n, generate_series(0, 15) as k`,
    [widths],
  );
  const endS = Math.floor(endMs / 1000 / opts.stepS) * opts.stepS;
  const startS = endS - opts.hours * 3600 + opts.stepS;
  const entries = [...layouts].map(([key, keys]) => ({ id: ids.get(key)!, n: keys.length }));
  // An hour of every host's steps a statement, ordered by time as the collector's rounds write them.
  const hourS = 3600;
  for (let from = startS; from <= endS; from += hourS) {
    const to = Math.min(endS, from + hourS - opts.stepS);
    await database.query(
      `insert into metric_samples (server_id, ts, values)
       select s.id, to_timestamp(e), p.vals
       from generate_series($3::bigint, $4::bigint, $5::bigint) as e
       cross join unnest($1::uuid[], $2::int[]) with ordinality as s(id, n, o)
       join bench_pool p on p.n = s.n and p.k = ((e / $5) % 16)
       order by e, s.o`,
      [entries.map((p) => p.id), entries.map((p) => p.n), from, to, opts.stepS],
    );
    log(`  seeded ${Math.round((to - startS + opts.stepS) / hourS)}/${opts.hours} h of ${entries.length} hosts`);
  }
  await database.query('drop table bench_pool');
  // Sets the hint bits a live table's rows get on their first read. PGlite runs no autovacuum
  // (a standalone backend), so without this the first chart over a page would also write it.
  await database.query('vacuum analyze metric_samples');
  // Every closed five-minute bucket, in bucket order as the console's rollup job writes them.
  log('  rolling up five-minute buckets');
  await new MetricStore(database).rollup(endMs + 3_600_000, 1000);
  await database.query('vacuum analyze metric_rollups');
}

export interface SeededHistory {
  /** A DATA_DIR of its own (a copy of the cached seed): the caller may scrape into it, and removes it. */
  dataDir: string;
  /** The last sample's time; samples cover the `hours` before it. */
  endMs: number;
  seededNow: boolean;
  seedSeconds: number;
  remove: () => void;
}

const SEED_VERSION = 4;
/** A cached seed older than this is made again, so a console started on it prunes nothing. */
const MAX_AGE_MS = 20 * 3_600_000;

/**
 * A DATA_DIR holding `opts` of history. Seeding takes about a minute, so the seeded folder is
 * cached in the temp directory (keyed by the migrations and this file's seed version) and
 * every caller gets its own copy.
 */
export async function historyDataDir(opts: HistoryOptions, log = (_: string) => {}): Promise<SeededHistory> {
  const hash = createHash('sha256');
  for (const f of readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql')).sort()) hash.update(readFileSync(join(migrationsFolder, f)));
  hash.update(JSON.stringify({ ...opts, SEED_VERSION }));
  const cache = join(tmpdir(), `opsdeck-bench-history-${hash.digest('hex').slice(0, 12)}`);
  const marker = join(cache, 'bench-seed.json');
  let seededNow = false;
  let seedSeconds = 0;
  const cached = existsSync(marker) ? (JSON.parse(readFileSync(marker, 'utf8')) as { endMs: number; seedSeconds: number }) : null;
  if (!cached || Date.now() - cached.endMs > MAX_AGE_MS) {
    const building = `${cache}.building-${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    const t0 = performance.now();
    log(`seeding ${opts.servers} servers × ${opts.hours} h at ${opts.stepS} s (cached afterwards in ${cache})`);
    const database = await openDatabase({ dataDir: building });
    const endMs = Date.now();
    await seedHistory(database, opts, endMs, log);
    await database.query('checkpoint');
    await database.close();
    seedSeconds = Math.round((performance.now() - t0) / 100) / 10;
    writeFileSync(join(building, 'bench-seed.json'), JSON.stringify({ endMs, seedSeconds }));
    rmSync(cache, { recursive: true, force: true });
    renameSync(building, cache);
    seededNow = true;
  } else seedSeconds = cached.seedSeconds;
  const { endMs } = JSON.parse(readFileSync(marker, 'utf8')) as { endMs: number };
  const dataDir = mkdtempSync(join(tmpdir(), 'opsdeck-bench-data-'));
  cpSync(cache, dataDir, { recursive: true });
  return { dataDir, endMs, seededNow, seedSeconds, remove: () => rmSync(dataDir, { recursive: true, force: true }) };
}
