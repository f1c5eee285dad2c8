/**
 * A Windows host as windows_exporter 0.20 exposes it (collectors cpu, cs, logical_disk, memory,
 * net, os, process, service, system, tcp, time), with the real names, labels and HELP texts.
 */
import { addBallast } from './ballast';
import { counter, createKit, exporterRuntime, gauge, type Kit } from './kit';
import { clamp, FAST, MEDIUM, rate, SLOW, whole, wobble } from './signals';
import { volumeLevel } from './spec';
import { processes, services } from './windows-services';
import type { HostSpec } from './spec';

const CPU_MODES = ['user', 'privileged', 'interrupt', 'dpc'] as const;
const MIB = 2 ** 20;
const GIB = 2 ** 30;

const EDITIONS = [
  { product: 'Microsoft Windows Server 2019 Standard', version: '10.0.17763', build: '17763' },
  { product: 'Microsoft Windows Server 2022 Datacenter', version: '10.0.20348', build: '20348' },
  { product: 'Microsoft Windows Server 2022 Standard', version: '10.0.20348', build: '20348' },
] as const;

export function renderWindows(spec: HostSpec, startMs: number, samples = 0): (nowMs: number) => string {
  const { kit, finish } = createKit(spec, startMs);
  const idle = cpu(kit);
  memoryAndOs(kit);
  logicalDisks(kit);
  net(kit);
  processes(kit, idle);
  services(kit);
  systemAndTime(kit);
  exporterRuntime(kit, 'go1.19.1', 'windows');
  // Real-sized payloads (DEMO_PAYLOAD): the families real exporters carry and the console ignores.
  if (samples > kit.x.size) addBallast(kit, samples);
  return finish();
}

/** windows_cpu_time_total per core; returns the idle seconds summed over cores, for the Idle process. */
function cpu(kit: Kit): () => number {
  const { x, spec, levels } = kit;
  const rng = kit.rng.fork('cpu');
  const time = x.family('windows_cpu_time_total', 'counter', 'Time that processor spent in different modes (dpc, idle, interrupt, privileged, user)');
  const interrupts = x.family('windows_cpu_interrupts_total', 'counter', 'Total number of received and serviced hardware interrupts');
  const dpcs = x.family('windows_cpu_dpcs_total', 'counter', 'Total number of received and serviced deferred procedure calls (DPCs)');
  const share = { user: 0.58, privileged: 0.35, interrupt: 0.03, dpc: 0.04 };
  const spread = spec.profile === 'hot-cpu' ? 0.004 : 0.15;
  const ceiling = 0.985 / (1 + levels.cpuSwing);
  const cores = Array.from({ length: spec.cores }, (_, c) => {
    const core = `0,${c}`;
    const busy = Math.min(ceiling, levels.cpuBusy * rng.range(1 - spread, 1 + spread));
    return {
      modes: CPU_MODES.map((m) => ({ mode: m, id: time.series({ core, mode: m }), signal: rate(rng, busy * share[m], levels.cpuSwing) })),
      idle: time.series({ core, mode: 'idle' }),
      interrupts: { id: interrupts.series({ core }), per: rng.range(900, 1500) },
      dpcs: { id: dpcs.series({ core }), per: rng.range(80, 200) },
    };
  });
  let idleSum = 0;
  kit.step((t) => {
    idleSum = 0;
    for (const core of cores) {
      let busy = 0;
      let irq = 0;
      for (const m of core.modes) {
        const v = m.signal.integral(t);
        busy += v;
        if (m.mode === 'interrupt') irq = v;
        // Windows accounts CPU time in clock ticks of 1/64 s.
        kit.set(m.id, whole(v, 1 / 64));
      }
      const idle = whole(t - busy, 1 / 64);
      idleSum += idle;
      kit.set(core.idle, idle);
      kit.set(core.interrupts.id, whole(t * core.interrupts.per * 0.2 + irq * core.interrupts.per * 40));
      kit.set(core.dpcs.id, whole(t * core.dpcs.per * 0.3 + irq * core.dpcs.per * 20));
    }
  });
  return () => idleSum;
}

function memoryAndOs(kit: Kit): void {
  const { x, spec, levels } = kit;
  const rng = kit.rng.fork('memory');
  const edition = EDITIONS[spec.seed % EDITIONS.length]!;
  const os = (n: string, h: string, labels?: Record<string, string>) => x.family(`windows_os_${n}`, 'gauge', h).series(labels);
  const ids = {
    logical: x.family('windows_cs_logical_processors', 'gauge', 'ComputerSystem.NumberOfLogicalProcessors').series(),
    physical: x.family('windows_cs_physical_memory_bytes', 'gauge', 'ComputerSystem.TotalPhysicalMemory').series(),
    hostname: x.family('windows_cs_hostname', 'gauge', 'Labeled system hostname information as provided by ComputerSystem.DNSHostName and ComputerSystem.Domain').series({ domain: 'corp.demo', fqdn: `${spec.hostname}.corp.demo`, hostname: spec.hostname }),
    info: os('info', 'OperatingSystem.Caption, OperatingSystem.Version', { build_number: edition.build, major_version: '10', minor_version: '0', product: edition.product, version: edition.version }),
    pagingFree: os('paging_free_bytes', 'OperatingSystem.FreeSpaceInPagingFiles'),
    pagingLimit: os('paging_limit_bytes', 'OperatingSystem.SizeStoredInPagingFiles'),
    physFree: os('physical_memory_free_bytes', 'OperatingSystem.FreePhysicalMemory'),
    procMemLimit: os('process_memory_limit_bytes', 'OperatingSystem.MaxProcessMemorySize'),
    processes: os('processes', 'OperatingSystem.NumberOfProcesses'),
    processesLimit: os('processes_limit', 'OperatingSystem.MaxNumberOfProcesses'),
    time: os('time', 'OperatingSystem.LocalDateTime'),
    timezone: os('timezone', 'OperatingSystem.LocalDateTime', { timezone: 'UTC' }),
    users: os('users', 'OperatingSystem.NumberOfUsers'),
    virtual: os('virtual_memory_bytes', 'OperatingSystem.TotalVirtualMemorySize'),
    virtualFree: os('virtual_memory_free_bytes', 'OperatingSystem.FreeVirtualMemory'),
    visible: os('visible_memory_bytes', 'OperatingSystem.TotalVisibleMemorySize'),
  };
  const mem = (n: string, type: 'gauge' | 'counter', h: string) => x.family(`windows_memory_${n}`, type, h).series();
  const m = {
    available: mem('available_bytes', 'gauge', 'The amount of physical memory immediately available for allocation to a process or for system use. It is equal to the sum of memory assigned to the standby (cached), free and zero page lists (AvailableBytes)'),
    cache: mem('cache_bytes', 'gauge', '(CacheBytes)'),
    commitLimit: mem('commit_limit', 'gauge', '(CommitLimit)'),
    committed: mem('committed_bytes', 'gauge', '(CommittedBytes)'),
    faults: mem('page_faults_total', 'counter', 'Overall rate at which faulted pages are handled by the processor (Page Faults/sec)'),
    swapOps: mem('swap_page_operations_total', 'counter', 'Total number of swap page read and writes (PagesPersec)'),
    swapReads: mem('swap_page_reads_total', 'counter', 'Number of disk page reads (a single read operation reading several pages is still only counted once) (PageReadsPersec)'),
    swapWrites: mem('swap_page_writes_total', 'counter', 'Number of disk page writes (a single write operation writing several pages is still only counted once) (PageWritesPersec)'),
  };
  const physical = spec.memoryBytes;
  // Firmware keeps a little RAM back: Windows "sees" slightly less than is installed.
  const visible = physical - 6 * MIB;
  const pageFile = Math.min(16 * GIB, Math.max(GIB, Math.round(physical / 4 / GIB) * GIB));
  const used = wobble(rng, levels.memUsed, levels.memSwing);
  const pageUsed = wobble(rng, 0.05 + levels.swapUsed, 0.02, SLOW);
  const paging = spec.profile === 'memory-high';
  const faults = counter(rng, 2500 * spec.cores * (0.2 + levels.cpuBusy));
  const swapReads = counter(rng, paging ? 45 : 1.5);
  const swapWrites = counter(rng, paging ? 18 : 0.1);
  const processes = gauge(rng, rng.range(85, 160), 6, 60);
  const users = rng.int(1, 3);
  const kb = (v: number) => Math.max(0, Math.round(v / 1024) * 1024);
  kit.step((t, now) => {
    const free = kb(visible * (1 - clamp(used.at(t), 0, 1)));
    const pageFree = kb(pageFile * (1 - clamp(pageUsed.at(t), 0, 1)));
    kit.set(ids.logical, spec.cores);
    kit.set(ids.physical, physical);
    kit.set(ids.hostname, 1);
    kit.set(ids.info, 1);
    kit.set(ids.pagingLimit, pageFile);
    kit.set(ids.pagingFree, pageFree);
    kit.set(ids.physFree, free);
    kit.set(ids.procMemLimit, 1.40737488224256e14);
    kit.set(ids.processes, Math.round(processes(t)));
    kit.set(ids.processesLimit, 4294967295);
    kit.set(ids.time, Math.floor(now));
    kit.set(ids.timezone, 1);
    kit.set(ids.users, users);
    kit.set(ids.virtual, visible + pageFile);
    kit.set(ids.virtualFree, free + pageFree);
    kit.set(ids.visible, visible);
    kit.set(m.available, free);
    kit.set(m.cache, kb(free * 0.18));
    kit.set(m.commitLimit, visible + pageFile);
    kit.set(m.committed, kb((visible - free) * 1.12 + (pageFile - pageFree)));
    kit.set(m.faults, faults(t));
    const r = swapReads(t);
    const w = swapWrites(t);
    kit.set(m.swapReads, r);
    kit.set(m.swapWrites, w);
    kit.set(m.swapOps, r * 9 + w * 16);
  });
}

function logicalDisks(kit: Kit): void {
  const { x, spec, levels } = kit;
  const rng = kit.rng.fork('disks');
  const fam = (n: string, type: 'gauge' | 'counter', h: string) => x.family(`windows_logical_disk_${n}`, type, h);
  const f = {
    free: fam('free_bytes', 'gauge', 'Free space in bytes, updates every 10-15 min (LogicalDisk.PercentFreeSpace)'),
    size: fam('size_bytes', 'gauge', 'Total space in bytes, updates every 10-15 min (LogicalDisk.PercentFreeSpace_Base)'),
    readBytes: fam('read_bytes_total', 'counter', 'The number of bytes transferred from the disk during read operations (LogicalDisk.DiskReadBytesPerSec)'),
    writeBytes: fam('write_bytes_total', 'counter', 'The number of bytes transferred to the disk during write operations (LogicalDisk.DiskWriteBytesPerSec)'),
    reads: fam('reads_total', 'counter', 'The number of read operations on the disk (LogicalDisk.DiskReadsPerSec)'),
    writes: fam('writes_total', 'counter', 'The number of write operations on the disk (LogicalDisk.DiskWritesPerSec)'),
    split: fam('split_ios_total', 'counter', 'The number of I/Os to the disk were split into multiple I/Os (LogicalDisk.SplitIOPerSec)'),
    idle: fam('idle_seconds_total', 'counter', 'Seconds that the disk was idle (LogicalDisk.PercentIdleTime)'),
    readTime: fam('read_seconds_total', 'counter', 'Seconds that the disk was busy servicing read requests (LogicalDisk.PercentDiskReadTime)'),
    writeTime: fam('write_seconds_total', 'counter', 'Seconds that the disk was busy servicing write requests (LogicalDisk.PercentDiskWriteTime)'),
    queued: fam('requests_queued', 'gauge', 'The number of requests queued to the disk (LogicalDisk.CurrentDiskQueueLength)'),
  };
  const rows = spec.volumes.map((v, i) => {
    const lvl = volumeLevel(spec, levels, v, rng);
    const share = i === 0 ? 1 : v.sizeBytes < 4 * GIB ? 0.0005 : rng.range(0.2, 0.6);
    const ids = Object.fromEntries(Object.entries(f).map(([k, fm]) => [k, fm.series({ volume: v.mountpoint })])) as Record<keyof typeof f, number>;
    return {
      v,
      ids,
      used: wobble(rng, lvl.used, lvl.swing, [...MEDIUM, ...SLOW]),
      read: rate(rng, levels.diskRead * share, 0.7),
      written: rate(rng, levels.diskRead * levels.diskWriteRatio * share, 0.7),
      util: rate(rng, Math.min(0.6, levels.diskUtil * Math.max(share, 0.002)), 0.6),
      queue: gauge(rng, levels.diskUtil * 2 * share, levels.diskUtil * 2 * share),
      ioSize: rng.range(16, 64) * 1024,
    };
  });
  kit.step((t) => {
    for (const r of rows) {
      // The perflib counters behind size and free are in megabytes.
      const size = whole(r.v.sizeBytes, MIB);
      const rb = whole(r.read.integral(t), 512);
      const wb = whole(r.written.integral(t), 512);
      const busy = r.util.integral(t);
      const ops = whole(rb / r.ioSize) + whole(wb / r.ioSize);
      kit.set(r.ids.size, size);
      kit.set(r.ids.free, whole(size * (1 - clamp(r.used.at(t), 0, 1)), MIB));
      kit.set(r.ids.readBytes, rb);
      kit.set(r.ids.writeBytes, wb);
      kit.set(r.ids.reads, whole(rb / r.ioSize));
      kit.set(r.ids.writes, whole(wb / r.ioSize));
      kit.set(r.ids.split, whole(ops * 0.04));
      kit.set(r.ids.idle, whole(t - busy, 1e-7));
      kit.set(r.ids.readTime, whole(busy * 0.4, 1e-7));
      kit.set(r.ids.writeTime, whole(busy * 0.7, 1e-7));
      kit.set(r.ids.queued, Math.round(r.queue(t) * 0.5));
    }
  });
}

function net(kit: Kit): void {
  const { x, spec, levels } = kit;
  const rng = kit.rng.fork('net');
  const names = ['bytes_received_total', 'bytes_sent_total', 'bytes_total', 'packets_outbound_discarded_total', 'packets_outbound_errors_total', 'packets_received_discarded_total', 'packets_received_errors_total', 'packets_received_total', 'packets_received_unknown_total', 'packets_sent_total', 'packets_total', 'current_bandwidth_bytes'] as const;
  const help: Record<(typeof names)[number], string> = {
    bytes_received_total: 'BytesReceivedPerSec', bytes_sent_total: 'BytesSentPerSec', bytes_total: 'BytesTotalPerSec',
    packets_outbound_discarded_total: 'PacketsOutboundDiscarded', packets_outbound_errors_total: 'PacketsOutboundErrors',
    packets_received_discarded_total: 'PacketsReceivedDiscarded', packets_received_errors_total: 'PacketsReceivedErrors',
    packets_received_total: 'PacketsReceivedPerSec', packets_received_unknown_total: 'PacketsReceivedUnknown',
    packets_sent_total: 'PacketsSentPerSec', packets_total: 'PacketsPerSec', current_bandwidth_bytes: 'CurrentBandwidth',
  };
  const fams = names.map((n) => x.family(`windows_net_${n}`, n === 'current_bandwidth_bytes' ? 'gauge' : 'counter', `(Network.${help[n]})`));
  const nics = spec.nics.map((name, i) => {
    // windows_exporter replaces every non-alphanumeric character of the adapter name.
    const nic = name.replace(/[^a-zA-Z0-9]/g, '_');
    const share = i === 0 ? 1 : 0.1;
    const ids = Object.fromEntries(names.map((n, k) => [n, fams[k]!.series({ nic })])) as Record<(typeof names)[number], number>;
    return {
      ids,
      rx: rate(rng, levels.netRx * share, 0.6),
      tx: rate(rng, levels.netRx * levels.netTxRatio * share, 0.6),
      discards: counter(rng, spec.profile === 'busy-network' ? 0.15 : 0.0003, 0.8),
      unknown: counter(rng, 0.01, 0.8),
    };
  });
  kit.step((t) => {
    for (const n of nics) {
      const rx = whole(n.rx.integral(t));
      const tx = whole(n.tx.integral(t));
      const rp = whole(rx / 900);
      const tp = whole(tx / 1100);
      const set = (k: (typeof names)[number], v: number) => kit.set(n.ids[k], v);
      set('bytes_received_total', rx);
      set('bytes_sent_total', tx);
      set('bytes_total', rx + tx);
      set('packets_received_total', rp);
      set('packets_sent_total', tp);
      set('packets_total', rp + tp);
      set('packets_received_discarded_total', n.discards(t));
      set('packets_received_unknown_total', n.unknown(t));
      set('packets_received_errors_total', 0);
      set('packets_outbound_discarded_total', 0);
      set('packets_outbound_errors_total', 0);
      set('current_bandwidth_bytes', 1.25e9);
    }
  });
}

function systemAndTime(kit: Kit): void {
  const { x, spec, levels, boot } = kit;
  const rng = kit.rng.fork('system');
  const fam = (n: string, type: 'gauge' | 'counter', h: string) => x.family(n, type, h).series();
  const ids = {
    ctx: fam('windows_system_context_switches_total', 'counter', 'Total number of context switches (WMI source: PerfOS_System.ContextSwitchesPersec)'),
    exc: fam('windows_system_exception_dispatches_total', 'counter', 'Total number of exceptions dispatched (WMI source: PerfOS_System.ExceptionDispatchesPersec)'),
    queue: fam('windows_system_processor_queue_length', 'gauge', 'Length of processor queue (WMI source: PerfOS_System.ProcessorQueueLength)'),
    calls: fam('windows_system_system_calls_total', 'counter', 'Total number of system calls (WMI source: PerfOS_System.SystemCallsPersec)'),
    upTime: fam('windows_system_system_up_time', 'gauge', 'System boot time (WMI source: PerfOS_System.SystemUpTime)'),
    threads: fam('windows_system_threads', 'gauge', 'Current number of threads (WMI source: PerfOS_System.Threads)'),
    offset: fam('windows_time_computed_time_offset_seconds', 'gauge', 'Absolute time offset between the system clock and the chosen time source, in seconds'),
    delay: fam('windows_time_ntp_round_trip_delay_seconds', 'gauge', 'Roundtrip delay experienced by the NTP client in receiving a response from the server for the most recent request, in seconds'),
    sources: fam('windows_time_ntp_client_time_sources', 'gauge', 'Active number of NTP Time sources being used by the client'),
  };
  const tcp = (n: string, type: 'gauge' | 'counter', h: string) => {
    const f = x.family(`windows_tcp_${n}`, type, h);
    return [f.series({ af: 'ipv4' }), f.series({ af: 'ipv6' })] as const;
  };
  const estab = tcp('connections_established', 'gauge', '(TCP.ConnectionsEstablished)');
  const failures = tcp('connection_failures_total', 'counter', '(TCP.ConnectionFailures)');
  const retrans = tcp('segments_retransmitted_total', 'counter', '(TCP.SegmentsRetransmittedTotal)');
  const hot = spec.profile === 'hot-cpu';
  const ctx = counter(rng, 2200 * spec.cores * (0.3 + levels.cpuBusy));
  const exc = counter(rng, 1.5);
  const calls = counter(rng, 9000 * spec.cores * (0.3 + levels.cpuBusy));
  const queue = gauge(rng, hot ? spec.cores * 1.5 : levels.cpuBusy * 2, hot ? spec.cores : 1.5);
  const threads = gauge(rng, rng.range(1100, 2200), 60, 500);
  const offset = wobble(rng, 0.0012, 0.0011, [...FAST, ...MEDIUM]);
  const delay = gauge(rng, 0.004, 0.002, 0.0005);
  const conns = gauge(rng, levels.tcpEstab, levels.tcpEstab * 0.3, 1);
  const fail = counter(rng, 0.003);
  const retr = counter(rng, hot ? 2 : 0.1);
  // Time sync moves in steps between polls, not smoothly.
  const poll = 64;
  kit.step((t) => {
    kit.set(ids.ctx, ctx(t));
    kit.set(ids.exc, exc(t));
    kit.set(ids.queue, Math.round(queue(t)));
    kit.set(ids.calls, calls(t));
    kit.set(ids.upTime, boot + 0.4187351);
    kit.set(ids.threads, Math.round(threads(t)));
    kit.set(ids.offset, Math.abs(Math.round(offset.at(Math.floor(t / poll) * poll) * 1e7) / 1e7));
    kit.set(ids.delay, Math.round(delay(Math.floor(t / poll) * poll) * 1e7) / 1e7);
    kit.set(ids.sources, 1);
    kit.set(estab[0], Math.round(conns(t)));
    kit.set(estab[1], Math.round(conns(t) * 0.02));
    kit.set(failures[0], fail(t));
    kit.set(failures[1], whole(fail(t) / 3));
    kit.set(retrans[0], retr(t));
    kit.set(retrans[1], whole(retr(t) / 5));
  });
  exporterMeta(kit);
}

function exporterMeta(kit: Kit): void {
  const { x } = kit;
  const rng = kit.rng.fork('meta');
  const build = x.family('windows_exporter_build_info', 'gauge', "A metric with a constant '1' value labeled by version, revision, branch, and goversion from which windows_exporter was built.").series({
    branch: 'heads/tags/v0.20.0', goversion: 'go1.19.1', revision: '677a7c8d67deb99b92f4f24b8c890e0a4c152b0c', version: '0.20.0',
  });
  const dur = x.family('windows_exporter_collector_duration_seconds', 'gauge', 'windows_exporter: Duration of a collection.');
  const ok = x.family('windows_exporter_collector_success', 'gauge', 'windows_exporter: Whether the collector was successful.');
  const timeout = x.family('windows_exporter_collector_timeout', 'gauge', 'windows_exporter: Whether the collector timed out.');
  const snapshot = x.family('windows_exporter_perflib_snapshot_duration_seconds', 'gauge', 'Duration of perflib snapshot capture').series();
  const collectors = ['cpu', 'cs', 'logical_disk', 'memory', 'net', 'os', 'process', 'service', 'system', 'tcp', 'time'].map((c) => ({
    dur: dur.series({ collector: c }),
    ok: ok.series({ collector: c }),
    timeout: timeout.series({ collector: c }),
    // WMI-backed collectors (cs, os, service) are the slow ones.
    took: wobble(rng, ['cs', 'os', 'service'].includes(c) ? 0.035 : 0.0008, ['cs', 'os', 'service'].includes(c) ? 0.015 : 0.0006, FAST),
  }));
  const snap = wobble(rng, 0.021, 0.008, FAST);
  kit.step((t) => {
    kit.set(build, 1);
    for (const c of collectors) {
      kit.set(c.dur, Math.max(0, Math.round(c.took.at(t) * 1e7) / 1e7));
      kit.set(c.ok, 1);
      kit.set(c.timeout, 0);
    }
    kit.set(snapshot, Math.round(snap.at(t) * 1e7) / 1e7);
  });
}
