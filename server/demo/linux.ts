/**
 * A Linux host as node_exporter 1.5 exposes it (default collectors plus systemd), with the
 * metric names, labels and HELP texts of the real exporter so the console parses it like any
 * other target.
 */
import { addBallast } from './ballast';
import { counter, createKit, exporterRuntime, gauge, type Kit } from './kit';
import { network, netstat } from './linux-network';
import { clamp, FAST, MEDIUM, rate, SLOW, whole, wobble, type Signal } from './signals';
import { isRootVolume, serviceCondition, volumeLevel } from './spec';
import type { HostSpec } from './spec';

const CPU_MODES = ['user', 'system', 'iowait', 'nice', 'softirq', 'irq', 'steal'] as const;
const UNIT_STATES = ['active', 'activating', 'deactivating', 'failed', 'inactive'] as const;
const KIB = 1024;
const GIB = 2 ** 30;

const DISTROS = [
  { id: 'ubuntu', id_like: 'debian', name: 'Ubuntu', pretty_name: 'Ubuntu 22.04.4 LTS', version: '22.04.4 LTS (Jammy Jellyfish)', version_codename: 'jammy', version_id: '22.04', release: '5.15.0-105-generic', build: '#115-Ubuntu SMP Mon Apr 15 09:52:04 UTC 2024' },
  { id: 'debian', id_like: '', name: 'Debian GNU/Linux', pretty_name: 'Debian GNU/Linux 12 (bookworm)', version: '12 (bookworm)', version_codename: 'bookworm', version_id: '12', release: '6.1.0-18-amd64', build: '#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)' },
  { id: 'rocky', id_like: 'rhel centos fedora', name: 'Rocky Linux', pretty_name: 'Rocky Linux 9.3 (Blue Onyx)', version: '9.3 (Blue Onyx)', version_codename: '', version_id: '9.3', release: '5.14.0-362.18.1.el9_3.x86_64', build: '#1 SMP PREEMPT_DYNAMIC Mon Jan 29 07:05:48 UTC 2024' },
] as const;

/** Service types as systemd reports them for the usual daemons; anything else is "simple". */
const SERVICE_TYPES: Record<string, string> = {
  nginx: 'forking', ssh: 'notify', sshd: 'notify', cron: 'simple', docker: 'notify', containerd: 'notify',
  'postgresql@15-main': 'forking', postgresql: 'oneshot', 'redis-server': 'notify', rsyslog: 'notify', haproxy: 'notify',
  elasticsearch: 'notify', 'rabbitmq-server': 'notify', mysql: 'notify', mariadb: 'notify', kubelet: 'simple', chrony: 'forking',
  'systemd-journald': 'notify', 'prometheus-node-exporter': 'simple', memcached: 'simple', 'php8.2-fpm': 'notify',
};

export function renderLinux(spec: HostSpec, startMs: number, samples = 0): (nowMs: number) => string {
  const { kit, finish } = createKit(spec, startMs);
  cpu(kit);
  const paging = memory(kit);
  const disks = filesystems(kit);
  const traffic = network(kit);
  diskstats(kit, disks, paging);
  netstat(kit, traffic);
  system(kit);
  systemd(kit);
  exporterRuntime(kit, 'go1.19.3', 'linux');
  // Real-sized payloads (DEMO_PAYLOAD): the families real exporters carry and the console ignores.
  if (samples > kit.x.size) addBallast(kit, samples);
  return finish();
}

/** Per-core mode rates whose integrals are the counters; idle is whatever the modes leave. */
function cpu(kit: Kit): void {
  const { x, spec, levels } = kit;
  const rng = kit.rng.fork('cpu');
  const fam = x.family('node_cpu_seconds_total', 'counter', 'Seconds the CPUs spent in each mode.');
  const iowait = rng.range(0.02, 0.09);
  const steal = rng.range(0, 0.04);
  const share: Record<(typeof CPU_MODES)[number], number> = { user: 0.66 - iowait - steal, system: 0.2, iowait, nice: 0.02, softirq: 0.08, irq: 0.04, steal };
  // Cores differ a little, but a hot host stays hot on every core.
  const spread = spec.profile === 'hot-cpu' ? 0.004 : 0.15;
  const ceiling = 0.985 / (1 + levels.cpuSwing);
  const cores = Array.from({ length: spec.cores }, (_, c) => {
    const busy = Math.min(ceiling, levels.cpuBusy * rng.range(1 - spread, 1 + spread));
    const modes = CPU_MODES.map((m) => ({ id: fam.series({ cpu: String(c), mode: m }), signal: rate(rng, busy * share[m], levels.cpuSwing) }));
    return { modes, idle: fam.series({ cpu: String(c), mode: 'idle' }) };
  });
  const procsRunning = gauge(rng, levels.cpuBusy * spec.cores * 1.1 + 1, spec.cores * 0.3, 1);
  const ctxt = counter(rng, 1800 * spec.cores * (0.3 + levels.cpuBusy));
  const intr = counter(rng, 900 * spec.cores * (0.3 + levels.cpuBusy));
  const forks = counter(rng, 4 + 20 * levels.cpuBusy);
  const ids = {
    ctxt: x.family('node_context_switches_total', 'counter', 'Total number of context switches.').series(),
    intr: x.family('node_intr_total', 'counter', 'Total number of interrupts serviced.').series(),
    forks: x.family('node_forks_total', 'counter', 'Total number of forks.').series(),
    running: x.family('node_procs_running', 'gauge', 'Number of processes in runnable state.').series(),
    blocked: x.family('node_procs_blocked', 'gauge', 'Number of processes blocked waiting for I/O to complete.').series(),
  };
  const loadFam = (n: string) => x.family(`node_load${n}`, 'gauge', `${n}m load average.`).series();
  const load = { l1: loadFam('1'), l5: loadFam('5'), l15: loadFam('15') };
  // Load follows how busy the host is: the 1-minute figure jitters, the 15-minute one drifts.
  const level = spec.cores * levels.cpuBusy * (spec.profile === 'hot-cpu' ? 1.35 : 1.05);
  const l1 = wobble(rng, level, level * 0.35, [...FAST, ...MEDIUM]);
  const l5 = wobble(rng, level, level * 0.2, [...MEDIUM, ...SLOW]);
  const l15 = wobble(rng, level, level * 0.12, SLOW);
  const hundredths = (v: number) => Math.round(Math.max(0, v) * 100) / 100;

  kit.step((t) => {
    for (const core of cores) {
      let busy = 0;
      for (const m of core.modes) {
        const v = m.signal.integral(t);
        busy += v;
        // USER_HZ ticks: node_exporter's CPU counters move in hundredths of a second.
        kit.set(m.id, whole(v, 0.01));
      }
      kit.set(core.idle, whole(t - busy, 0.01));
    }
    kit.set(ids.ctxt, ctxt(t));
    kit.set(ids.intr, intr(t));
    kit.set(ids.forks, forks(t));
    kit.set(ids.running, Math.round(procsRunning(t)));
    kit.set(ids.blocked, Math.round(clamp(procsRunning(t) * 0.1 - 0.3, 0, 8)));
    kit.set(load.l1, hundredths(l1.at(t)));
    kit.set(load.l5, hundredths(l5.at(t)));
    kit.set(load.l15, hundredths(l15.at(t)));
  });
}

/** /proc/meminfo fields, consistent with each other: available = free + buffers + cache + reclaimable slab. */
function memory(kit: Kit): Paging {
  const { x, spec, levels } = kit;
  const rng = kit.rng.fork('memory');
  const field = (f: string) => x.family(`node_memory_${f}`, 'gauge', `Memory information field ${f}.`).series();
  const names = ['MemTotal_bytes', 'MemFree_bytes', 'MemAvailable_bytes', 'Buffers_bytes', 'Cached_bytes', 'Slab_bytes', 'SReclaimable_bytes', 'SUnreclaim_bytes', 'PageTables_bytes', 'SwapCached_bytes', 'SwapTotal_bytes', 'SwapFree_bytes', 'Active_bytes', 'Inactive_bytes', 'Dirty_bytes', 'Shmem_bytes', 'Committed_AS_bytes', 'CommitLimit_bytes'] as const;
  const id = Object.fromEntries(names.map((n) => [n, field(n)])) as Record<(typeof names)[number], number>;
  const vm = (f: string) => x.family(`node_vmstat_${f}`, 'untyped', `/proc/vmstat information field ${f}.`).series();
  const vmIds = { pgpgin: vm('pgpgin'), pgpgout: vm('pgpgout'), pgfault: vm('pgfault'), pgmajfault: vm('pgmajfault'), pswpin: vm('pswpin'), pswpout: vm('pswpout'), oom_kill: vm('oom_kill') };

  const total = Math.floor(spec.memoryBytes / KIB) * KIB;
  const swapTotal = Math.min(4 * GIB, Math.floor(total / 2 / GIB) * GIB || GIB);
  const used = wobble(rng, levels.memUsed, levels.memSwing);
  const cacheShare = rng.range(0.45, 0.7);
  const swapUsed = wobble(rng, levels.swapUsed, levels.swapUsed * 0.1, SLOW);
  const swapping = spec.profile === 'memory-high';
  const faults = counter(rng, 3000 * spec.cores * (0.2 + levels.cpuBusy));
  const majfaults = counter(rng, swapping ? 40 : 0.8);
  const pswpin = counter(rng, swapping ? 25 : 0.01);
  const pswpout = counter(rng, swapping ? 35 : 0.01);
  const ooms = counter(rng, swapping ? 1 / 7200 : 0, 0.9);
  const dirty = gauge(rng, 4e6, 3.5e6);
  const kb = (v: number) => Math.max(0, Math.round(v / KIB) * KIB);

  kit.step((t) => {
    const u = used.at(t);
    const avail = total * (1 - u);
    const buffers = avail * 0.03;
    const reclaimable = avail * 0.04;
    const cached = avail * cacheShare;
    const free = avail - buffers - reclaimable - cached;
    const unreclaim = total * 0.012;
    const swapFree = swapTotal * (1 - clamp(swapUsed.at(t), 0, 1));
    const values: Record<(typeof names)[number], number> = {
      MemTotal_bytes: total,
      MemFree_bytes: free,
      MemAvailable_bytes: avail,
      Buffers_bytes: buffers,
      Cached_bytes: cached,
      Slab_bytes: reclaimable + unreclaim,
      SReclaimable_bytes: reclaimable,
      SUnreclaim_bytes: unreclaim,
      PageTables_bytes: total * 0.006,
      SwapCached_bytes: (swapTotal - swapFree) * 0.05,
      SwapTotal_bytes: swapTotal,
      SwapFree_bytes: swapFree,
      Active_bytes: (total - free) * 0.62,
      Inactive_bytes: (total - free) * 0.34,
      Dirty_bytes: dirty(t),
      Shmem_bytes: total * 0.008,
      Committed_AS_bytes: total * u * 1.3,
      CommitLimit_bytes: total / 2 + swapTotal,
    };
    for (const n of names) kit.set(id[n], kb(values[n]));
    kit.set(vmIds.pgfault, faults(t));
    kit.set(vmIds.pgmajfault, majfaults(t));
    kit.set(vmIds.pswpin, pswpin(t));
    kit.set(vmIds.pswpout, pswpout(t));
    kit.set(vmIds.oom_kill, ooms(t));
  });
  // pgpgin/pgpgout mirror the disks' traffic: diskstats() fills them in.
  return { pgpgin: vmIds.pgpgin, pgpgout: vmIds.pgpgout };
}

interface Paging {
  pgpgin: number;
  pgpgout: number;
}

interface Disk {
  name: string;
  main: boolean;
}

/** Volumes plus what every host has: the initramfs `rootfs` entry and tmpfs on /run. */
function filesystems(kit: Kit): Disk[] {
  const { x, spec, levels } = kit;
  const rng = kit.rng.fork('filesystems');
  const help = {
    avail_bytes: 'Filesystem space available to non-root users in bytes.',
    device_error: 'Whether an error occurred while getting statistics for the given device.',
    files: 'Filesystem total file nodes.',
    files_free: 'Filesystem total free file nodes.',
    free_bytes: 'Filesystem free space in bytes.',
    readonly: 'Filesystem read-only status.',
    size_bytes: 'Filesystem size in bytes.',
  } as const;
  const fams = Object.fromEntries(Object.entries(help).map(([k, h]) => [k, x.family(`node_filesystem_${k}`, 'gauge', h)])) as Record<keyof typeof help, ReturnType<typeof x.family>>;
  const root = spec.volumes.find(isRootVolume);
  const mounts = [
    ...spec.volumes.map((v) => ({ ...v, level: volumeLevel(spec, levels, v, rng) })),
    ...(root ? [{ ...root, device: 'rootfs', fstype: 'rootfs', level: volumeLevel(spec, levels, root, rng) }] : []),
    { device: 'tmpfs', mountpoint: '/run', fstype: 'tmpfs', sizeBytes: Math.floor(spec.memoryBytes / 10 / 4096) * 4096, level: { used: rng.range(0.002, 0.01), swing: 0.0005 } },
  ];
  // The rootfs entry is the same filesystem seen twice: it must report the same numbers.
  const shapes = new Map<string, Signal>();
  const rows = mounts.map((m) => {
    const labels = { device: m.device, fstype: m.fstype, mountpoint: m.mountpoint };
    const key = m.mountpoint;
    if (!shapes.has(key)) shapes.set(key, wobble(rng, m.level.used, m.level.swing, [...MEDIUM, ...SLOW]));
    const ids = Object.fromEntries(Object.keys(help).map((k) => [k, fams[k as keyof typeof help].series(labels)])) as Record<keyof typeof help, number>;
    return { m, ids, used: shapes.get(key)! };
  });
  kit.step((t) => {
    for (const { m, ids, used } of rows) {
      const size = Math.floor(m.sizeBytes / 4096) * 4096;
      const avail = whole(size * (1 - clamp(used.at(t), 0, 1)), 4096);
      // ext4 keeps 5 % for root: free counts it, avail does not.
      const reserved = m.fstype === 'ext4' || (m.fstype === 'rootfs' && root?.fstype === 'ext4') ? whole(size * 0.05, 4096) : 0;
      const inodes = Math.floor(size / 16384);
      kit.set(ids.size_bytes, size);
      kit.set(ids.avail_bytes, avail);
      kit.set(ids.free_bytes, Math.min(size, avail + reserved));
      kit.set(ids.files, inodes);
      kit.set(ids.files_free, Math.floor(inodes * (1 - 0.25 * (1 - avail / size))));
      kit.set(ids.readonly, 0);
      kit.set(ids.device_error, 0);
    }
  });
  const names = new Set<string>();
  for (const v of spec.volumes) names.add(diskOf(v.device));
  return [...names].map((name) => ({ name, main: root ? diskOf(root.device) === name : false }));
}

/** Whole-disk name of a partition: node_exporter's default filter hides the partitions. */
export function diskOf(device: string): string {
  const d = device.replace(/^\/dev\//, '');
  const nvme = /^(nvme\d+n\d+)p\d+$/.exec(d);
  if (nvme) return nvme[1]!;
  const classic = /^((?:s|v|xv|h)d[a-z]+)\d*$/.exec(d);
  if (classic) return classic[1]!;
  return d.startsWith('mapper/') ? 'dm-0' : d;
}

function diskstats(kit: Kit, disks: Disk[], paging: Paging): void {
  const { x, levels } = kit;
  const rng = kit.rng.fork('diskstats');
  const fam = (n: string, h: string) => x.family(`node_disk_${n}`, 'counter', h);
  const f = {
    reads: fam('reads_completed_total', 'The total number of reads completed successfully.'),
    writes: fam('writes_completed_total', 'The total number of writes completed successfully.'),
    readBytes: fam('read_bytes_total', 'The total number of bytes read successfully.'),
    writtenBytes: fam('written_bytes_total', 'The total number of bytes written successfully.'),
    ioTime: fam('io_time_seconds_total', 'Total seconds spent doing I/Os.'),
    readTime: fam('read_time_seconds_total', 'The total number of seconds spent by all reads.'),
    writeTime: fam('write_time_seconds_total', 'This is the total number of seconds spent by all writes.'),
  };
  const rows = disks.map((d) => {
    const share = d.main ? 1 : rng.range(0.3, 0.7);
    const read = rate(rng, levels.diskRead * share, 0.7);
    const written = rate(rng, levels.diskRead * levels.diskWriteRatio * share, 0.7);
    const util = rate(rng, Math.min(0.6, levels.diskUtil * share), 0.6);
    const ids = Object.fromEntries(Object.entries(f).map(([k, fm]) => [k, fm.series({ device: d.name })])) as Record<keyof typeof f, number>;
    return { read, written, util, ids, readSize: rng.range(12, 64) * KIB, writeSize: rng.range(8, 48) * KIB };
  });
  kit.step((t) => {
    let inKb = 0;
    let outKb = 0;
    for (const r of rows) {
      // Sectors are 512 bytes: byte counters move in whole sectors.
      const rb = whole(r.read.integral(t), 512);
      const wb = whole(r.written.integral(t), 512);
      const busy = r.util.integral(t);
      kit.set(r.ids.readBytes, rb);
      kit.set(r.ids.writtenBytes, wb);
      kit.set(r.ids.reads, whole(rb / r.readSize));
      kit.set(r.ids.writes, whole(wb / r.writeSize));
      kit.set(r.ids.ioTime, whole(busy, 0.001));
      kit.set(r.ids.readTime, whole(busy * 0.45, 0.001));
      kit.set(r.ids.writeTime, whole(busy * 0.8, 0.001));
      inKb += rb / KIB;
      outKb += wb / KIB;
    }
    kit.set(paging.pgpgin, whole(inKb));
    kit.set(paging.pgpgout, whole(outKb));
  });
}

function system(kit: Kit): void {
  const { x, spec, boot } = kit;
  const distro = DISTROS[spec.seed % DISTROS.length]!;
  const bootId = x.family('node_boot_time_seconds', 'gauge', 'Node boot time, in unixtime.').series();
  const time = x.family('node_time_seconds', 'gauge', 'System time in seconds since epoch (1970).').series();
  const uname = x.family('node_uname_info', 'gauge', 'Labeled system information as provided by the uname system call.').series({
    domainname: '(none)', machine: 'x86_64', nodename: spec.hostname, release: distro.release, sysname: 'Linux', version: distro.build,
  });
  const os = x.family('node_os_info', 'gauge', "A metric with a constant '1' value labeled by build_id, id, id_like, image_id, image_version, name, pretty_name, variant, variant_id, version, version_codename, version_id.").series({
    build_id: '', id: distro.id, id_like: distro.id_like, image_id: '', image_version: '', name: distro.name, pretty_name: distro.pretty_name,
    variant: '', variant_id: '', version: distro.version, version_codename: distro.version_codename, version_id: distro.version_id,
  });
  const osVersion = x.family('node_os_version', 'gauge', 'Metric containing the major.minor part of the OS version.').series({ id: distro.id, id_like: distro.id_like, name: distro.name });
  const build = x.family('node_exporter_build_info', 'gauge', "A metric with a constant '1' value labeled by version, revision, branch, and goversion from which node_exporter was built.").series({
    branch: 'HEAD', goversion: 'go1.19.3', revision: '1b48970ffcf5630534fb00bb0687d73c66d1c959', version: '1.5.0',
  });
  const collectors = ['cpu', 'diskstats', 'filesystem', 'loadavg', 'meminfo', 'netdev', 'netstat', 'os', 'stat', 'systemd', 'time', 'uname', 'vmstat'];
  const durFam = x.family('node_scrape_collector_duration_seconds', 'gauge', 'node_exporter: Duration of a collector scrape.');
  const okFam = x.family('node_scrape_collector_success', 'gauge', 'node_exporter: Whether a collector succeeded.');
  const rng = kit.rng.fork('system');
  const timings = collectors.map((c) => ({
    dur: durFam.series({ collector: c }),
    ok: okFam.series({ collector: c }),
    took: wobble(rng, c === 'systemd' ? 0.034 : c === 'filesystem' ? 0.0021 : 0.00042, c === 'systemd' ? 0.012 : 0.0003, FAST),
  }));
  kit.step((t, now) => {
    kit.set(bootId, boot);
    kit.set(time, now);
    for (const id of [uname, os, build]) kit.set(id, 1);
    kit.set(osVersion, Number(distro.version_id));
    for (const c of timings) {
      kit.set(c.dur, Math.max(1.2e-5, Math.round(c.took.at(t) * 1e9) / 1e9));
      kit.set(c.ok, 1);
    }
  });
}

/** One row per unit and state, 1 on the unit's current state, as the systemd collector writes. */
function systemd(kit: Kit): void {
  const { x, spec, levels } = kit;
  const fam = x.family('node_systemd_unit_state', 'gauge', 'Systemd unit');
  const units = spec.services.map((s, index) => {
    // A name already ending in a unit type keeps it; `php8.2-fpm` is still a service.
    const name = /\.(service|socket|timer|mount|target|path|slice|scope|swap|device|automount)$/.test(s) ? s : `${s}.service`;
    const base = name.replace(/\.service$/, '');
    const type = name.endsWith('.service') ? (SERVICE_TYPES[base] ?? 'simple') : '';
    return { index, ids: UNIT_STATES.map((state) => ({ state, id: fam.series({ name, state, type }) })) };
  });
  kit.step((t) => {
    for (const u of units) {
      const c = serviceCondition(spec, levels, u.index, t);
      const current = c === 'up' ? 'active' : c === 'down' ? 'failed' : 'activating';
      for (const s of u.ids) kit.set(s.id, s.state === current ? 1 : 0);
    }
  });
}
