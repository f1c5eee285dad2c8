/**
 * CPU time a request costs, for benchmarks on a machine other work shares: wall-clock figures
 * grow with the load average, CPU time hardly does. PGlite runs in this process, so this
 * process's CPU is the whole cost; PostgreSQL's share is read from its backends' schedstat
 * (nanoseconds on CPU, world-readable) for every connection to the benchmark's database.
 */
import { readFileSync } from 'node:fs';
import type { Database } from '../../server/db/client';

function onCpuNs(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return 0; // a backend that ended meanwhile
  }
}

export interface CpuMeter {
  /** Starts a measurement; the returned function gives the CPU milliseconds used since. */
  start(): Promise<() => Promise<number>>;
}

export async function cpuMeter(database: Database): Promise<CpuMeter> {
  const backends = async () =>
    database.kind === 'postgres'
      ? (await database.query<{ pid: number }>(`select pid from pg_stat_activity where datname = current_database() and backend_type in ('client backend', 'parallel worker')`)).map((r) => Number(r.pid))
      : [];
  // The backends are looked up before and after (not timed); their pool reuses its connections.
  // The backend answering the look is included: left out, whichever pool connection answered the
  // first look was missing from it, and its whole life's CPU (seconds) counted as this
  // measurement's at the second (checks-list's PostgreSQL "CPU p95 2.9 s"). A connection opened
  // meanwhile counts from its start. Autovacuum is left out. A parallel worker that came and went
  // between the two looks is missed.
  return {
    async start() {
      const pids = await backends();
      const before = new Map(pids.map((p) => [p, onCpuNs(p)]));
      const self = process.cpuUsage();
      return async () => {
        const used = process.cpuUsage(self);
        let ms = (used.user + used.system) / 1000;
        for (const p of new Set([...pids, ...(await backends())])) ms += (onCpuNs(p) - (before.get(p) ?? 0)) / 1e6;
        return ms;
      };
    },
  };
}
