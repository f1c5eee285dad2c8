/**
 * The scaffolding both renderers share: one Exposition per host, a value table the per-scrape
 * steps write into, and the Go runtime / promhttp families every Go exporter carries.
 */
import { Exposition } from './exposition';
import { clamp, FAST, MEDIUM, rate, Rng, whole, wobble } from './signals';
import { levelsFor, type HostSpec, type Levels } from './spec';

/** Seconds since the host booted, and wall-clock seconds since the epoch. */
export type Step = (tSinceBoot: number, nowS: number) => void;

export interface Kit {
  spec: HostSpec;
  levels: Levels;
  rng: Rng;
  x: Exposition;
  /** Unix seconds the host booted (whole seconds, as the kernel reports it). */
  boot: number;
  startMs: number;
  set(id: number, value: number): void;
  step(fn: Step): void;
}

export function createKit(spec: HostSpec, startMs: number): { kit: Kit; finish(): (nowMs: number) => string } {
  const rng = new Rng(spec.seed);
  const levels = levelsFor(spec, rng.fork('levels'));
  // Uptimes of days to months, so uptime columns and counters look like a fleet in service.
  const boot = Math.floor(startMs / 1000 - rng.fork('boot').range(1.5, 95) * 86400);
  const x = new Exposition();
  const steps: Step[] = [];
  let values = new Float64Array(0);
  const kit: Kit = {
    spec,
    levels,
    rng,
    x,
    boot,
    startMs,
    set: (id, value) => {
      values[id] = value;
    },
    step: (fn) => {
      steps.push(fn);
    },
  };
  return {
    kit,
    finish() {
      x.freeze();
      values = new Float64Array(x.size);
      return (nowMs: number) => {
        const nowS = nowMs / 1000;
        const t = Math.max(0, nowS - boot);
        for (const s of steps) s(t, nowS);
        return x.render(values);
      };
    },
  };
}

/** A gauge that wanders around `base` but never below `floor`. */
export function gauge(rng: Rng, base: number, swing: number, floor = 0) {
  const s = wobble(rng, base, swing);
  return (t: number) => Math.max(floor, s.at(t));
}

/** A whole-number counter growing at about `perSecond`. */
export function counter(rng: Rng, perSecond: number, rel = 0.5) {
  const s = rate(rng, perSecond, rel);
  return (t: number) => whole(s.integral(t));
}

/**
 * go_*, process_* and promhttp_* as client_golang writes them for the exporter's own process,
 * which started a few seconds after boot. The request count assumes a scrape every 15 s since
 * the simulation started, so it is deterministic too.
 */
export function exporterRuntime(kit: Kit, goVersion: string, os: 'linux' | 'windows'): void {
  const { x, rng: root, boot, startMs } = kit;
  const rng = root.fork('runtime');
  const started = boot + rng.range(6, 40);
  const goroutines = x.family('go_goroutines', 'gauge', 'Number of goroutines that currently exist.').series();
  const goInfo = x.family('go_info', 'gauge', 'Information about the Go environment.').series({ version: goVersion });
  const alloc = x.family('go_memstats_alloc_bytes', 'gauge', 'Number of bytes allocated and still in use.').series();
  const allocTotal = x.family('go_memstats_alloc_bytes_total', 'counter', 'Total number of bytes allocated, even if freed.').series();
  const sys = x.family('go_memstats_sys_bytes', 'gauge', 'Number of bytes obtained from system.').series();
  const threads = x.family('go_threads', 'gauge', 'Number of OS threads created.').series();
  const gc = x.family('go_gc_duration_seconds', 'summary', 'A summary of the pause duration of garbage collection cycles.');
  const quantiles = ['0', '0.25', '0.5', '0.75', '1'].map((q) => gc.series({ quantile: q }));
  const gcSum = gc.series({}, '_sum');
  const gcCount = gc.series({}, '_count');
  const cpu = x.family('process_cpu_seconds_total', 'counter', 'Total user and system CPU time spent in seconds.').series();
  const rss = x.family('process_resident_memory_bytes', 'gauge', 'Resident memory size in bytes.').series();
  const start = x.family('process_start_time_seconds', 'gauge', 'Start time of the process since unix epoch in seconds.').series();
  const vms = x.family('process_virtual_memory_bytes', 'gauge', 'Virtual memory size in bytes.').series();
  const fds: number[] = [];
  if (os === 'linux') {
    fds.push(x.family('process_max_fds', 'gauge', 'Maximum number of open file descriptors.').series());
    fds.push(x.family('process_open_fds', 'gauge', 'Number of open file descriptors.').series());
    fds.push(x.family('process_virtual_memory_max_bytes', 'gauge', 'Maximum amount of virtual memory available in bytes.').series());
  } else {
    fds.push(x.family('process_handles', 'gauge', 'Number of open handles.').series());
  }
  const inFlight = x.family('promhttp_metric_handler_requests_in_flight', 'gauge', 'Current number of scrapes being served.').series();
  const reqs = x.family('promhttp_metric_handler_requests_total', 'counter', 'Total number of scrapes by HTTP status code.');
  const ok = reqs.series({ code: '200' });
  const failed = [reqs.series({ code: '500' }), reqs.series({ code: '503' })];
  const errs = x.family('promhttp_metric_handler_errors_total', 'counter', 'Total number of internal errors encountered by the promhttp metric handler.');
  const errIds = [errs.series({ cause: 'encoding' }), errs.series({ cause: 'gathering' })];

  const heap = wobble(rng, 3.2e6, 1.2e6, [...FAST, ...MEDIUM]);
  const allocRate = rate(rng, 9e3, 0.4);
  const cpuRate = rate(rng, os === 'linux' ? 0.0015 : 0.004, 0.5);
  const gcRate = rate(rng, 0.05, 0.4);
  const rssG = gauge(rng, os === 'linux' ? 2.1e7 : 2.9e7, 3e6);
  const routines = gauge(rng, 9, 2.5, 7);
  const openFds = gauge(rng, 10, 2.5, 8);
  kit.step((t, now) => {
    const up = Math.max(0, now - started);
    kit.set(goroutines, Math.round(routines(t)));
    kit.set(goInfo, 1);
    kit.set(alloc, whole(heap.at(t)));
    kit.set(allocTotal, whole(heap.at(0) + allocRate.integral(up)));
    kit.set(sys, os === 'linux' ? 1.7908744e7 : 2.4199176e7);
    kit.set(threads, os === 'linux' ? 8 : 11);
    const pauses = whole(gcRate.integral(up));
    quantiles.forEach((id, i) => kit.set(id, i === 0 ? 2.46e-5 : 2.46e-5 + i * i * 1.9e-5));
    kit.set(gcSum, pauses * 6.1e-5);
    kit.set(gcCount, pauses);
    kit.set(cpu, whole(cpuRate.integral(up), 0.01));
    kit.set(rss, whole(rssG(t), 4096));
    kit.set(start, Math.round(started * 100) / 100);
    kit.set(vms, os === 'linux' ? 7.35768576e8 : 4.3483136e7);
    if (os === 'linux') {
      kit.set(fds[0]!, 1048576);
      kit.set(fds[1]!, Math.round(openFds(t)));
      kit.set(fds[2]!, 1.8446744073709552e19);
    } else {
      kit.set(fds[0]!, Math.round(clamp(openFds(t) * 24, 180, 400)));
    }
    kit.set(inFlight, 1);
    kit.set(ok, Math.max(0, Math.floor((now * 1000 - startMs) / 15000)));
    for (const id of [...failed, ...errIds]) kit.set(id, 0);
  });
}
