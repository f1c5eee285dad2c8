/**
 * CPU time a request costs, for benchmarks on a machine other work shares: wall-clock figures
 * grow with the load average, CPU time hardly does. PGlite runs in this process, so this
 * process's CPU is the whole cost; PostgreSQL's share is read from its backends' schedstat
 * (nanoseconds on CPU, world-readable) for every connection to the benchmark's database.
 */
import { readFileSync } from 'node:fs';
import type { Database } from '../../server/db/client';

function onCpuNs(pid: number, path = `/proc/${pid}/schedstat`): number {
  try {
    return Number(readFileSync(path, 'utf8').split(' ')[0]);
  } catch {
    return 0; // a backend that ended meanwhile
  }
}

/** Where a measurement's CPU went (milliseconds). */
export interface CpuSplit {
  /** This process's main thread: the app's JavaScript, and PGlite, which runs on it. */
  mainThread: number;
  /** This process's other threads (V8's GC helpers, libuv, the scrape worker when there is one). */
  otherThreads: number;
  /** PostgreSQL's backends (0 on PGlite). */
  backends: number;
}

export interface CpuMeter {
  /** Starts a measurement; the returned function gives the CPU milliseconds used since. */
  start(): Promise<() => Promise<number>>;
  /** The last finished measurement's total, split by where it ran. */
  lastSplit?: CpuSplit;
}

/** The main thread's time on CPU (ns): its schedstat, whatever the other threads do. */
const mainThreadNs = () => onCpuNs(process.pid, `/proc/self/task/${process.pid}/schedstat`);

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
  const meter: CpuMeter = {
    async start() {
      const pids = await backends();
      const before = new Map(pids.map((p) => [p, onCpuNs(p)]));
      const self = process.cpuUsage();
      const main = mainThreadNs();
      return async () => {
        const used = process.cpuUsage(self);
        const mainThread = (mainThreadNs() - main) / 1e6;
        const own = (used.user + used.system) / 1000;
        let ms = 0;
        for (const p of new Set([...pids, ...(await backends())])) ms += (onCpuNs(p) - (before.get(p) ?? 0)) / 1e6;
        meter.lastSplit = { mainThread, otherThreads: Math.max(0, own - mainThread), backends: ms };
        return own + ms;
      };
    },
  };
  return meter;
}
