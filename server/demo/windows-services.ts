/**
 * windows_exporter's process and service collectors for a simulated Windows host: the few
 * processes a whitelisted process collector reports, and every listed service's state.
 */
import { gauge, type Kit } from './kit';
import { rate, whole } from './signals';
import { serviceCondition } from './spec';

const SERVICE_STATES = ['continue pending', 'pause pending', 'paused', 'running', 'start pending', 'stop pending', 'stopped', 'unknown'] as const;
const START_MODES = ['auto', 'boot', 'disabled', 'manual', 'system'] as const;
const SERVICE_STATUSES = ['degraded', 'error', 'ok', 'unknown'] as const;
const MIB = 2 ** 20;

/** Display name, account and the process a service runs in, for the services the fleet uses. */
const SERVICES: Record<string, { display: string; runAs: string; process: string }> = {
  ntds: { display: 'Active Directory Domain Services', runAs: 'LocalSystem', process: 'lsass' },
  dns: { display: 'DNS Server', runAs: 'LocalSystem', process: 'dns' },
  netlogon: { display: 'Netlogon', runAs: 'LocalSystem', process: 'lsass' },
  kdc: { display: 'Kerberos Key Distribution Center', runAs: 'LocalSystem', process: 'lsass' },
  w32time: { display: 'Windows Time', runAs: 'NT AUTHORITY\\LocalService', process: 'svchost' },
  w3svc: { display: 'World Wide Web Publishing Service', runAs: 'LocalSystem', process: 'svchost' },
  was: { display: 'Windows Process Activation Service', runAs: 'LocalSystem', process: 'svchost' },
  mssqlserver: { display: 'SQL Server (MSSQLSERVER)', runAs: 'NT Service\\MSSQLSERVER', process: 'sqlservr' },
  sqlserveragent: { display: 'SQL Server Agent (MSSQLSERVER)', runAs: 'NT Service\\SQLSERVERAGENT', process: 'sqlagent' },
  lanmanserver: { display: 'Server', runAs: 'LocalSystem', process: 'svchost' },
  dfsr: { display: 'DFS Replication', runAs: 'LocalSystem', process: 'dfsrs' },
  spooler: { display: 'Print Spooler', runAs: 'LocalSystem', process: 'spoolsv' },
  termservice: { display: 'Remote Desktop Services', runAs: 'NT Authority\\NetworkService', process: 'svchost' },
  winrm: { display: 'Windows Remote Management (WS-Management)', runAs: 'NT AUTHORITY\\NetworkService', process: 'svchost' },
  windows_exporter: { display: 'windows_exporter', runAs: 'LocalSystem', process: 'windows_exporter' },
};

/** A handful of processes, as a process collector limited by a whitelist reports them. */
export function processes(kit: Kit, idleSeconds: () => number): void {
  const { x, spec, boot } = kit;
  const rng = kit.rng.fork('processes');
  const fam = (n: string, type: 'gauge' | 'counter', h: string) => x.family(`windows_process_${n}`, type, h);
  const f = {
    start: fam('start_time', 'gauge', 'Time of process start.'),
    threads: fam('threads', 'gauge', 'Number of threads currently active in this process.'),
    // The exporter's docs and Grafana dashboard 14694 name it thread_count while the exporter
    // writes `threads`; both are served so either spelling finds data.
    threadCount: fam('thread_count', 'gauge', 'Number of threads currently active in this process.'),
    handles: fam('handles', 'gauge', 'Total number of handles the process has open. This number is the sum of the handles currently open by each thread in the process.'),
    cpu: fam('cpu_time_total', 'counter', 'Returns elapsed time that all of the threads of this process used the processor to execute instructions by mode (privileged, user).'),
    workingSet: fam('working_set_private_bytes', 'gauge', 'Size of the working set, in bytes, that is use for this process only and not shared nor shareable by other processes.'),
  };
  const services = rng.int(600, 720);
  const roles = [...new Set(spec.services.map((s) => SERVICES[s]?.process).filter((p): p is string => !!p && !['svchost', 'lsass', 'windows_exporter'].includes(p)))];
  const list = [
    { process: 'Idle', pid: 0, parent: 0, threads: spec.cores, handles: 0, mem: 8192, after: 0, load: 0 },
    { process: 'System', pid: 4, parent: 0, threads: rng.int(140, 260), handles: rng.int(2500, 6000), mem: 40960, after: 0, load: 0.01 },
    { process: 'lsass', pid: rng.int(700, 800), parent: rng.int(520, 600), threads: rng.int(9, 40), handles: rng.int(1400, 3800), mem: rng.range(8, 90) * MIB, after: 6, load: 0.004 },
    { process: 'svchost', pid: rng.int(900, 1200), parent: services, threads: rng.int(12, 30), handles: rng.int(500, 1500), mem: rng.range(8, 40) * MIB, after: 9, load: 0.003 },
    ...roles.map((p) => ({ process: p, pid: rng.int(1500, 6000), parent: services, threads: rng.int(20, 120), handles: rng.int(400, 2500), mem: rng.range(80, 2048) * MIB, after: rng.range(20, 60), load: 0.05 })),
    { process: 'windows_exporter', pid: rng.int(6000, 9000), parent: services, threads: rng.int(9, 14), handles: rng.int(260, 400), mem: rng.range(18, 30) * MIB, after: 35, load: 0.004 },
  ];
  const rows = list.map((p) => {
    const labels = { process: p.process, process_id: String(p.pid), creating_process_id: String(p.parent) };
    return {
      p,
      ids: {
        start: f.start.series(labels), threads: f.threads.series(labels), threadCount: f.threadCount.series(labels), handles: f.handles.series(labels),
        user: f.cpu.series({ ...labels, mode: 'user' }), priv: f.cpu.series({ ...labels, mode: 'privileged' }), ws: f.workingSet.series(labels),
      },
      cpu: rate(rng, p.load * spec.cores * (0.3 + kit.levels.cpuBusy), 0.6),
      threadWobble: gauge(rng, p.threads, Math.max(0, p.threads * 0.1 - 1), 1),
    };
  });
  kit.step((t) => {
    for (const r of rows) {
      const threads = r.p.process === 'Idle' ? spec.cores : Math.round(r.threadWobble(t));
      const cpuS = r.cpu.integral(Math.max(0, t - r.p.after));
      kit.set(r.ids.start, boot + r.p.after);
      kit.set(r.ids.threads, threads);
      kit.set(r.ids.threadCount, threads);
      kit.set(r.ids.handles, r.p.handles);
      // The Idle process's time is the processors' idle time.
      kit.set(r.ids.priv, r.p.process === 'Idle' ? idleSeconds() : whole(cpuS * 0.35, 1 / 64));
      kit.set(r.ids.user, r.p.process === 'Idle' ? 0 : whole(cpuS * 0.65, 1 / 64));
      kit.set(r.ids.ws, whole(r.p.mem, 4096));
    }
  });
}

export function services(kit: Kit): void {
  const { x, spec, levels } = kit;
  const state = x.family('windows_service_state', 'gauge', 'The state of the service (State)');
  const startMode = x.family('windows_service_start_mode', 'gauge', 'The start mode of the service (StartMode)');
  const status = x.family('windows_service_status', 'gauge', 'The status of the service (Status)');
  const info = x.family('windows_service_info', 'gauge', "A metric with a constant '1' value labeled with service information");
  const rng = kit.rng.fork('services');
  const rows = spec.services.map((raw, index) => {
    // The exporter lower-cases service names.
    const name = raw.toLowerCase();
    const known = SERVICES[name];
    const down = serviceCondition(spec, levels, index, 0) === 'down';
    return {
      index,
      states: SERVICE_STATES.map((s) => ({ s, id: state.series({ name, state: s }) })),
      modes: START_MODES.map((m) => ({ m, id: startMode.series({ name, start_mode: m }) })),
      statuses: SERVICE_STATUSES.map((s) => ({ s, id: status.series({ name, status: s }) })),
      info: info.series({ display_name: known?.display ?? raw, name, process_id: down ? '0' : String(rng.int(1200, 9000)), run_as: known?.runAs ?? 'LocalSystem' }),
    };
  });
  kit.step((t) => {
    for (const r of rows) {
      const c = serviceCondition(spec, levels, r.index, t);
      const current = c === 'up' ? 'running' : c === 'down' ? 'stopped' : 'start pending';
      for (const s of r.states) kit.set(s.id, s.s === current ? 1 : 0);
      for (const m of r.modes) kit.set(m.id, m.m === 'auto' ? 1 : 0);
      for (const s of r.statuses) kit.set(s.id, s.s === 'ok' ? 1 : 0);
      kit.set(r.info, 1);
    }
  });
}
