import type { Database } from '../db/client';
import type { MetricStore, SeriesValues } from './metric-store';
import type { ServiceState, Usage } from './types';

/** The server-row columns a reading fills, in the order of the batched UPDATE's VALUES list. */
const USAGE_COLUMNS = [
  ['cpu_usage', 'cpuUsage'],
  ['memory_usage', 'memoryUsage'],
  ['disk_usage', 'diskUsage'],
  ['network_usage', 'networkUsage'],
  ['swap_usage', 'swapUsage'],
  ['uptime', 'uptime'],
  ['cpu_load1', 'cpuLoad1'],
  ['cpu_load5', 'cpuLoad5'],
  ['cpu_load15', 'cpuLoad15'],
  ['cpu_cores', 'cpuCores'],
  ['memory_saturation', 'memorySaturation'],
  ['memory_total', 'memoryTotal'],
  ['swap_total', 'swapTotal'],
] as const satisfies readonly (readonly [string, keyof Usage])[];

/**
 * Rows per UPDATE, with a turn of the event loop between statements: on PGlite a statement runs
 * on the API's thread from start to end, and 1,000 rows in one took ~120 ms of CPU — every
 * request waiting behind it (issue 17 §3). 100 rows hold it ~10 ms; the whole round costs about
 * the same.
 */
const CHUNK = 100;
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * What is still to be written onto one server's row. Readings of the same state fold into one:
 * the latest figures win, and `since` keeps the first reading's time for state_changed_at.
 */
type PendingRow =
  | { state: 'up'; since: number; at: number; usage: (number | null)[] }
  | { state: 'down' | 'over_limits'; since: number; at: number; error: string };

/**
 * Writes what a collector saw (its own scrape, or a read from Prometheus) onto the server rows
 * and service records, so every screen and API reads one place whichever collector runs.
 *
 * Collectors queue their readings (`queueUp`, `queueDown`) and `flush` once per round: a round
 * of 200 servers is one `UPDATE … FROM (VALUES …)` instead of 200 statements, which were most of
 * the pipeline's CPU on PGlite (docs/benchmarks.md "npm run bench -- scrape-cost"). `up` and `down` write at once.
 */
export class ObservationWriter {
  /** The service states last written per server, to write only changes. */
  private lastServices = new Map<string, Map<string, string>>();
  private pending = new Map<string, PendingRow>();
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly database: Database,
    readonly store: MetricStore | null,
  ) {}

  /** The exporter answered: the server is up with these figures. Written before this resolves. */
  async up(serverId: string, atMs: number, usage: Usage, services: ServiceState[] | null, series?: SeriesValues): Promise<void> {
    await this.queueUp(serverId, atMs, usage, services, series);
    await this.flush();
  }

  /** The exporter did not answer: the server is down (its last figures stay, dated by lastScrapedAt). Written before this resolves. */
  async down(serverId: string, atMs: number, error: string): Promise<void> {
    await this.queueDown(serverId, atMs, error);
    await this.flush();
  }

  /**
   * `up`, with the server row left for the next `flush`. Services are written now (only their
   * changes, so rarely anything) and chart samples go to the store's own buffer.
   */
  async queueUp(serverId: string, atMs: number, usage: Usage, services: ServiceState[] | null, series?: SeriesValues): Promise<void> {
    const values = USAGE_COLUMNS.map(([, field]) => {
      const v = usage[field];
      return typeof v === 'number' && Number.isFinite(v) ? v : null;
    });
    await this.queue(serverId, { state: 'up', since: atMs, at: atMs, usage: values });
    if (services) await this.writeServices(serverId, new Date(atMs), services);
    if (series && this.store) await this.store.append(serverId, atMs, series);
  }

  /** `down`, with the server row left for the next `flush`. */
  async queueDown(serverId: string, atMs: number, error: string): Promise<void> {
    await this.queue(serverId, { state: 'down', since: atMs, at: atMs, error: error.slice(0, 500) });
  }

  /**
   * The exporter answered past SCRAPE_SERIES_LIMIT or SCRAPE_LABEL_LIMIT: the server is
   * `over_limits` with the reason as its error; its last figures stay, as on a down server.
   */
  async queueOverLimits(serverId: string, atMs: number, reason: string): Promise<void> {
    await this.queue(serverId, { state: 'over_limits', since: atMs, at: atMs, error: reason.slice(0, 500) });
  }

  private async queue(serverId: string, row: PendingRow): Promise<void> {
    let prev = this.pending.get(serverId);
    // A change of state is written before the new reading is queued, so a server's row goes
    // through its states in the order they were seen and state_changed_at stays exact.
    while (prev && prev.state !== row.state) {
      await this.flush();
      prev = this.pending.get(serverId);
    }
    this.pending.set(serverId, prev ? { ...row, since: prev.since } : row);
  }

  /**
   * Write every queued row: at most one UPDATE for the servers up and one for those down (more
   * past 1,000 servers). A server deleted meanwhile matches no row and is skipped. Safe to call
   * concurrently: writes go one after another, in the order they were queued.
   */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing.catch(() => undefined);
    if (!this.pending.size) return;
    const batch = [...this.pending];
    this.pending = new Map();
    this.flushing = this.write(batch).finally(() => {
      this.flushing = null;
    });
    await this.flushing;
  }

  private async write(batch: [string, PendingRow][]): Promise<void> {
    const ups = batch.filter((e): e is [string, Extract<PendingRow, { state: 'up' }>] => e[1].state === 'up');
    const others = batch.filter((e): e is [string, Extract<PendingRow, { error: string }>] => e[1].state !== 'up');
    const iso = (ms: number) => new Date(ms).toISOString();
    for (let i = 0; i < ups.length; i += CHUNK) {
      if (i > 0) await yieldToEventLoop();
      const params: unknown[] = [];
      // Every VALUES parameter is cast: its type would otherwise be inferred from the first
      // row only, and drivers differ in how they send untyped ones.
      const rows = ups.slice(i, i + CHUNK).map(([id, r]) => {
        const n = params.push(id, iso(r.since), iso(r.at), ...r.usage) - USAGE_COLUMNS.length - 3;
        const usage = USAGE_COLUMNS.map((_, j) => `$${n + 4 + j}::float8`);
        return `($${n + 1}::uuid, $${n + 2}::timestamptz, $${n + 3}::timestamptz, ${usage.join(', ')})`;
      });
      await this.database.query(
        `update servers set
           state = 'up',
           state_changed_at = case when servers.state = 'up' or (servers.state = 'stale' and servers.stale_from = 'up') then servers.state_changed_at else v.since end,
           stale_from = null, observed_at = v.at,
           last_scraped_at = v.at, last_error = null,
           ${USAGE_COLUMNS.map(([c]) => `${c} = v.${c}`).join(', ')}
         from (values ${rows.join(', ')}) as v(id, since, at, ${USAGE_COLUMNS.map(([c]) => c).join(', ')})
         where servers.id = v.id`,
        params,
      );
    }
    // Down and over its limits: the same columns, the state named per row.
    for (let i = 0; i < others.length; i += CHUNK) {
      if (i > 0) await yieldToEventLoop();
      const params: unknown[] = [];
      const rows = others.slice(i, i + CHUNK).map(([id, r]) => {
        const n = params.push(id, iso(r.since), iso(r.at), r.error, r.state);
        return `($${n - 4}::uuid, $${n - 3}::timestamptz, $${n - 2}::timestamptz, $${n - 1}::text, $${n}::text)`;
      });
      await this.database.query(
        `update servers set
           state = v.state,
           state_changed_at = case when servers.state = v.state or (servers.state = 'stale' and servers.stale_from = v.state) then servers.state_changed_at else v.since end,
           stale_from = null, observed_at = v.at,
           last_error = v.error
         from (values ${rows.join(', ')}) as v(id, since, at, error, state)
         where servers.id = v.id`,
        params,
      );
    }
  }

  private async writeServices(serverId: string, at: Date, services: ServiceState[]): Promise<void> {
    const next = new Map(services.map((s) => [s.name, s.status]));
    let last = this.lastServices.get(serverId);
    if (!last) {
      const rows = await this.database.query<{ service_name: string; status: string }>('select service_name, status from services where server_id = $1', [serverId]);
      last = new Map(rows.map((r) => [r.service_name, r.status]));
    }
    const changed = [...next].filter(([name, status]) => last!.get(name) !== status);
    const gone = [...last.keys()].filter((name) => !next.has(name));
    if (changed.length) {
      const params: unknown[] = [serverId, at];
      const rows = changed.map(([name, status]) => {
        params.push(name, status);
        return `($1::uuid, $${params.length - 1}, $${params.length}, $2::timestamptz, $2::timestamptz)`;
      });
      await this.database.query(
        `insert into services (server_id, service_name, status, created_at, updated_at) values ${rows.join(', ')}
         on conflict (server_id, service_name) do update set status = excluded.status, updated_at = excluded.updated_at`,
        params,
      );
    }
    if (gone.length) await this.database.query('delete from services where server_id = $1 and service_name = any($2)', [serverId, gone]);
    this.lastServices.set(serverId, next);
  }

  /** A deleted or re-pointed server: what was queued for it is about a target it no longer has. */
  forget(serverId: string): void {
    this.pending.delete(serverId);
    this.lastServices.delete(serverId);
    this.store?.forget(serverId);
  }
}
