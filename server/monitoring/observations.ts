import type { Database } from '../db/client';
import type { MetricStore } from './metric-store';
import type { ServiceState, Usage } from './types';

/**
 * Writes what a collector saw (its own scrape, or a read from Prometheus) onto the server rows
 * and service records, so every screen and API reads one place whichever collector runs.
 */
export class ObservationWriter {
  /** The service states last written per server, to write only changes. */
  private lastServices = new Map<string, Map<string, string>>();

  constructor(
    private readonly database: Database,
    readonly store: MetricStore | null,
  ) {}

  async up(serverId: string, atMs: number, usage: Usage, services: ServiceState[] | null, series?: Record<string, number>): Promise<void> {
    const at = new Date(atMs);
    await this.database.query(
      `update servers set
         state = 'up',
         state_changed_at = case when state = 'up' then state_changed_at else $2 end,
         last_scraped_at = $2, last_error = null,
         cpu_usage = $3, memory_usage = $4, disk_usage = $5, network_usage = $6, swap_usage = $7, uptime = $8,
         cpu_load1 = $9, cpu_load5 = $10, cpu_load15 = $11, cpu_cores = $12, memory_saturation = $13,
         memory_total = $14, swap_total = $15
       where id = $1`,
      [
        serverId,
        at,
        usage.cpuUsage,
        usage.memoryUsage,
        usage.diskUsage,
        usage.networkUsage,
        usage.swapUsage,
        usage.uptime,
        usage.cpuLoad1,
        usage.cpuLoad5,
        usage.cpuLoad15,
        usage.cpuCores,
        usage.memorySaturation,
        usage.memoryTotal,
        usage.swapTotal,
      ].map((v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v)),
    );
    if (services) await this.writeServices(serverId, at, services);
    if (series && this.store) await this.store.append(serverId, atMs, series);
  }

  /** The exporter did not answer: the server is down (its last figures stay, dated by lastScrapedAt). */
  async down(serverId: string, atMs: number, error: string): Promise<void> {
    await this.database.query(
      `update servers set state = 'down', state_changed_at = case when state = 'down' then state_changed_at else $2 end, last_error = $3 where id = $1`,
      [serverId, new Date(atMs), error.slice(0, 500)],
    );
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

  forget(serverId: string): void {
    this.lastServices.delete(serverId);
    this.store?.forget(serverId);
  }
}
