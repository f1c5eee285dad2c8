/**
 * Real-sized payloads (issue 17 §1). A real node_exporter serves 1,000–3,000 samples and a
 * windows_exporter with its default collectors (services above all) several thousand; the
 * simulated hosts model only what the console reads (~250–700). Every figure measured against a
 * light fleet flatters the scraper, so hosts add the families real exporters also carry and the
 * console ignores — per-CPU schedstat, softnet, cpufreq and interrupt counters, timex, sockstat,
 * hwmon on Linux; per-core CPU detail, system counters and more services' status and info rows
 * on Windows — until the host serves `target` samples. Their values move like counters and
 * gauges do, so each scrape parses fresh numbers; what the console derives is unchanged.
 */
import { seriesLine, type BuiltSeries, type MetricType } from './exposition';
import type { Kit } from './kit';
import { Rng } from './signals';

/** DEMO_PAYLOAD: `real` (the default) pads hosts to these sizes; `light` serves only what the console reads. */
export type DemoPayload = 'real' | 'light';
export const REAL_SAMPLES = { linux: 1500, windows: 3500 } as const;

/** Samples a host serves with this payload setting (0: no padding). */
export function payloadTarget(payload: DemoPayload | undefined, os: 'linux' | 'windows'): number {
  return payload === 'light' ? 0 : REAL_SAMPLES[os];
}

interface Row {
  id: number;
  /** Per-second growth (counters) or 0 (gauges hold `base`). */
  rate: number;
  base: number;
  /** Counters of whole numbers (interrupts, packets) round down; seconds keep hundredths. */
  step: number;
}

interface FamilyRef {
  name: string;
  type: MetricType;
  help: string;
}

/** One padding series: its family, its line's text (shared by every host of the plan), how it moves. */
interface PlanRow {
  family: FamilyRef;
  built: BuiltSeries;
  kind: 'counter' | 'gauge';
  scale: number;
  step: number;
}

/**
 * Plans by host shape: hosts of one template get the same padding rows, so the lines' text is
 * built once per shape, not once per host (a 1,000-host bench fleet starts in seconds).
 */
const plans = new Map<string, PlanRow[]>();

/** Adds families (or rows of existing ones) until the exposition holds `target` series. */
export function addBallast(kit: Kit, target: number): void {
  const { x, spec } = kit;
  // A plan lists rows in a fixed order and stops when it has enough, so one plan for the most a
  // host of this shape could need serves them all: each takes the rows it needs from the start.
  const shape = [spec.os, spec.cores, target, spec.os === 'windows' ? spec.services.join(',') : ''].join('|');
  let full = plans.get(shape);
  if (!full) {
    full = makePlan(spec, (name) => x.has(name), target);
    plans.set(shape, full);
  }
  const plan = full.slice(0, Math.max(0, target - x.size));
  const rng = new Rng(spec.seed ^ 0x5a17);
  const handles = new Map<string, ReturnType<typeof x.extend>>();
  const rows: Row[] = plan.map((p) => {
    let f = handles.get(p.family.name);
    if (!f) handles.set(p.family.name, (f = x.extend(p.family.name, p.family.type, p.family.help)));
    const counter = p.kind === 'counter';
    return {
      id: f.series({}, '', p.built),
      rate: counter ? p.scale * rng.range(0.5, 1.5) : 0,
      base: counter ? rng.range(1e3, 1e5) : Math.round((p.scale * rng.range(0.8, 1.2)) / p.step) * p.step,
      step: p.step,
    };
  });
  kit.step((t) => {
    for (const r of rows) kit.set(r.id, r.rate ? Math.floor((r.base + r.rate * t) / r.step) * r.step : r.base);
  });
}

function makePlan(spec: Kit['spec'], has: (name: string) => boolean, need: number): PlanRow[] {
  const rows: PlanRow[] = [];
  const rng = new Rng(spec.seed ^ 0x7b11);
  const left = () => need - rows.length;
  const fam = (name: string, type: MetricType, help: string): FamilyRef | null => (has(name) ? null : { name, type, help });
  const add = (f: FamilyRef | null, labels: Record<string, string>, kind: 'counter' | 'gauge', scale: number, step = 1) => {
    if (!f || left() <= 0) return;
    rows.push({ family: f, built: seriesLine(f.name, labels), kind, scale, step });
  };
  const cpus = Array.from({ length: spec.cores }, (_, c) => String(c));

  if (spec.os === 'linux') {
    const guest = fam('node_cpu_guest_seconds_total', 'counter', 'Seconds the CPUs spent in guests (VMs) for each mode.');
    const freq = fam('node_cpu_scaling_frequency_hertz', 'gauge', 'Current scaled CPU thread frequency in hertz.');
    const freqMax = fam('node_cpu_scaling_frequency_max_hertz', 'gauge', 'Maximum scaled CPU thread frequency in hertz.');
    const freqMin = fam('node_cpu_scaling_frequency_min_hertz', 'gauge', 'Minimum scaled CPU thread frequency in hertz.');
    const running = fam('node_schedstat_running_seconds_total', 'counter', 'Number of seconds CPU spent running a process.');
    const slices = fam('node_schedstat_timeslices_total', 'counter', 'Number of timeslices executed by CPU.');
    const waiting = fam('node_schedstat_waiting_seconds_total', 'counter', 'Number of seconds spent by processing waiting for this CPU.');
    const processed = fam('node_softnet_processed_total', 'counter', 'Number of processed packets');
    const dropped = fam('node_softnet_dropped_total', 'counter', 'Number of dropped packets');
    const squeezed = fam('node_softnet_times_squeezed_total', 'counter', 'Number of times processing packets ran out of quota');
    for (const cpu of cpus) {
      add(guest, { cpu, mode: 'nice' }, 'counter', 0);
      add(guest, { cpu, mode: 'user' }, 'counter', 0);
      add(freq, { cpu }, 'gauge', 2.6e9, 1e3);
      add(freqMax, { cpu }, 'gauge', 3.5e9, 1e6);
      add(freqMin, { cpu }, 'gauge', 8e8, 1e6);
      add(running, { cpu }, 'counter', 0.3, 0.000001);
      add(slices, { cpu }, 'counter', 400);
      add(waiting, { cpu }, 'counter', 0.02, 0.000001);
      add(processed, { cpu }, 'counter', 150);
      add(dropped, { cpu }, 'counter', 0);
      add(squeezed, { cpu }, 'counter', 0.01);
    }
    const single = (prefix: string, help: string, names: string[], kind: 'counter' | 'gauge', scale: number) => {
      for (const n of names) add(fam(`${prefix}${n}`, kind === 'counter' ? 'counter' : 'gauge', `${help} ${n}.`), {}, kind, scale);
    };
    single('node_timex_', 'Kernel clock (adjtimex):', ['estimated_error_seconds', 'frequency_adjustment_ratio', 'loop_time_constant', 'maxerror_seconds', 'offset_seconds', 'pps_frequency_hertz', 'pps_jitter_seconds', 'pps_shift_seconds', 'pps_stability_hertz', 'status', 'sync_status', 'tai_offset_seconds', 'tick_seconds'], 'gauge', 1);
    single('node_timex_', 'Kernel clock (adjtimex):', ['pps_calibration_total', 'pps_error_total', 'pps_jitter_total', 'pps_stability_exceeded_total'], 'counter', 0);
    single('node_sockstat_', 'Number of sockets in state', ['FRAG_inuse', 'FRAG_memory', 'RAW_inuse', 'TCP_alloc', 'TCP_inuse', 'TCP_mem', 'TCP_mem_bytes', 'TCP_orphan', 'TCP_tw', 'UDPLITE_inuse', 'UDP_inuse', 'UDP_mem', 'UDP_mem_bytes', 'sockets_used', 'TCP6_inuse', 'UDP6_inuse', 'RAW6_inuse', 'FRAG6_inuse', 'FRAG6_memory', 'UDPLITE6_inuse'], 'gauge', 40);
    single('node_pressure_', 'Total time in seconds that processes have', ['cpu_waiting_seconds_total', 'io_stalled_seconds_total', 'io_waiting_seconds_total', 'memory_stalled_seconds_total', 'memory_waiting_seconds_total'], 'counter', 0.01);
    single('node_', 'Kernel figure', ['filefd_allocated', 'filefd_maximum', 'nf_conntrack_entries', 'nf_conntrack_entries_limit', 'selinux_enabled', 'textfile_scrape_error', 'arp_entries', 'time_zone_offset_seconds'], 'gauge', 256);
    const temp = fam('node_hwmon_temp_celsius', 'gauge', 'Hardware monitor for temperature (input)');
    const tempCrit = fam('node_hwmon_temp_crit_celsius', 'gauge', 'Hardware monitor for temperature (crit)');
    const tempMax = fam('node_hwmon_temp_max_celsius', 'gauge', 'Hardware monitor for temperature (max)');
    for (let s = 1; s <= spec.cores + 1; s++) {
      const labels = { chip: 'platform_coretemp_0', sensor: `temp${s}` };
      add(temp, labels, 'gauge', 48);
      add(tempCrit, labels, 'gauge', 100);
      add(tempMax, labels, 'gauge', 84);
    }
    // The rest: per-CPU interrupt counters, as node_exporter's interrupts collector writes them.
    const irqs = fam('node_interrupts_total', 'counter', 'Interrupt details.');
    const named = [['NMI', 'Non-maskable interrupts'], ['LOC', 'Local timer interrupts'], ['SPU', 'Spurious interrupts'], ['PMI', 'Performance monitoring interrupts'], ['IWI', 'IRQ work interrupts'], ['RES', 'Rescheduling interrupts'], ['CAL', 'Function call interrupts'], ['TLB', 'TLB shootdowns'], ['TRM', 'Thermal event interrupts'], ['THR', 'Threshold APIC interrupts'], ['MCE', 'Machine check exceptions'], ['MCP', 'Machine check polls']] as const;
    for (let i = 0; left() > 0 && irqs; i++) {
      const [type, devices] = i < named.length ? named[i]! : [String(i - named.length + 24), `IR-PCI-MSI ${524288 + i}-edge virtio${Math.floor(i / 4)}-${i % 2 ? 'output' : 'input'}.${i % 4}`];
      for (const cpu of cpus) add(irqs, { cpu, devices, type }, 'counter', i < 2 ? 250 : 2);
    }
  } else {
    const core = (c: string) => `0,${c}`;
    const perCore: [string, string, 'counter' | 'gauge', number][] = [
      ['clock_interrupts_total', 'Total number of received and serviced clock tick interrupts', 'counter', 64],
      ['idle_break_events_total', 'Total number of time processor was woken from idle', 'counter', 300],
      ['parking_status', 'Parking Status represents whether a processor is parked or not', 'gauge', 0],
      ['core_frequency_mhz', 'Core frequency in megahertz', 'gauge', 2600],
      ['processor_performance_total', 'Processor Performance is the average performance of the processor while it is executing instructions', 'counter', 1e5],
      ['processor_mperf_total', 'Processor MPerf is the number of TSC ticks incremented while executing instructions', 'counter', 2.6e9],
      ['processor_rtc_total', 'Processor RTC represents the number of RTC ticks made since the system booted', 'counter', 64],
      ['processor_utility_total', 'Processor Utility represents is the amount of time the core spends executing instructions', 'counter', 2e5],
      ['processor_privileged_utility_total', 'Processor Privileged Utility represents is the amount of time the core has spent executing instructions inside the kernel', 'counter', 5e4],
    ];
    const cstate = fam('windows_cpu_cstate_seconds_total', 'counter', 'Time spent in low-power idle state');
    const fams = perCore.map(([n, help, kind, scale]) => ({ f: fam(`windows_cpu_${n}`, kind, help), kind, scale }));
    for (const c of cpus) {
      for (const state of ['c1', 'c2', 'c3']) add(cstate, { core: core(c), state }, 'counter', state === 'c1' ? 0.5 : 0);
      for (const { f, kind, scale } of fams) add(f, { core: core(c) }, kind, scale);
    }
    for (const [n, scale] of [['context_switches_total', 9000], ['exception_dispatches_total', 3], ['processor_queue_length', 0], ['system_calls_total', 30000]] as const) {
      add(fam(`windows_system_${n}`, n.endsWith('_total') ? 'counter' : 'gauge', `Windows system figure ${n}.`), {}, n.endsWith('_total') ? 'counter' : 'gauge', scale);
    }
    // The rest: the status and info rows of the many services every Windows Server runs (the
    // console reads the state rows of the services a host is monitored for, not these).
    const status: FamilyRef = { name: 'windows_service_status', type: 'gauge', help: 'The status of the service (Status)' };
    const info: FamilyRef = { name: 'windows_service_info', type: 'gauge', help: "A metric with a constant '1' value labeled with service information" };
    const own = new Set(spec.services.map((s) => s.toLowerCase()));
    for (let i = 0; left() > 0; i++) {
      const base = WINDOWS_SERVICES[i % WINDOWS_SERVICES.length]!;
      const name = i < WINDOWS_SERVICES.length ? base.toLowerCase() : `${base.toLowerCase()}_${(0x1a2b3 + i * 7919).toString(16)}`;
      if (own.has(name)) continue;
      for (const s of ['degraded', 'error', 'ok', 'unknown']) add(status, { name, status: s }, 'gauge', s === 'ok' ? 1 : 0);
      add(info, { display_name: base, name, process_id: String(rng.int(600, 9000)), run_as: 'LocalSystem' }, 'gauge', 1);
    }
  }

  return rows;
}

/** Service names of a stock Windows Server 2019 (per-user services get a suffix when repeated). */
const WINDOWS_SERVICES = [
  'AeLookupSvc', 'ALG', 'AppIDSvc', 'Appinfo', 'AppMgmt', 'AppReadiness', 'AppXSvc', 'AudioEndpointBuilder', 'Audiosrv', 'BFE', 'BITS', 'BrokerInfrastructure',
  'CDPSvc', 'CertPropSvc', 'ClipSVC', 'COMSysApp', 'CoreMessagingRegistrar', 'CryptSvc', 'DcomLaunch', 'DeviceAssociationService', 'DeviceInstall', 'Dhcp',
  'DiagTrack', 'DmEnrollmentSvc', 'dmwappushservice', 'Dnscache', 'DoSvc', 'DPS', 'DsmSvc', 'DsSvc', 'EventLog', 'EventSystem', 'FontCache', 'gpsvc',
  'hidserv', 'IKEEXT', 'InstallService', 'iphlpsvc', 'KeyIso', 'KPSSVC', 'LanmanServer', 'LanmanWorkstation', 'lfsvc', 'LicenseManager', 'lmhosts',
  'LSM', 'MapsBroker', 'mpssvc', 'MSDTC', 'MSiSCSI', 'msiserver', 'NcaSvc', 'Netlogon', 'Netman', 'netprofm', 'NetSetupSvc', 'NetTcpPortSharing',
  'NlaSvc', 'nsi', 'PcaSvc', 'PerfHost', 'PhoneSvc', 'PlugPlay', 'PolicyAgent', 'Power', 'PrintNotify', 'ProfSvc', 'QWAVE', 'RasAuto', 'RasMan',
  'RemoteAccess', 'RemoteRegistry', 'RmSvc', 'RpcEptMapper', 'RpcLocator', 'RpcSs', 'RSoPProv', 'sacsvr', 'SamSs', 'SCardSvr', 'ScDeviceEnum',
  'Schedule', 'SCPolicySvc', 'seclogon', 'SENS', 'SensorDataService', 'SensorService', 'SessionEnv', 'SgrmBroker', 'SharedAccess', 'ShellHWDetection',
  'smphost', 'SNMPTRAP', 'Spooler', 'sppsvc', 'SSDPSRV', 'SstpSvc', 'StateRepository', 'stisvc', 'StorSvc', 'svsvc', 'swprv', 'SysMain', 'SystemEventsBroker',
  'TabletInputService', 'tapisrv', 'TermService', 'Themes', 'TieringEngineService', 'TimeBrokerSvc', 'TokenBroker', 'TrkWks', 'TrustedInstaller',
  'tzautoupdate', 'UALSVC', 'UevAgentService', 'UmRdpService', 'UserManager', 'UsoSvc', 'VaultSvc', 'vds', 'vmicguestinterface', 'vmicheartbeat',
  'vmickvpexchange', 'vmicrdv', 'vmicshutdown', 'vmictimesync', 'vmicvmsession', 'vmicvss', 'VSS', 'WaaSMedicSvc', 'WalletService', 'WbioSrvc',
  'Wcmsvc', 'WdiServiceHost', 'WdiSystemHost', 'WdNisSvc', 'Wecsvc', 'WEPHOSTSVC', 'wercplsupport', 'WerSvc', 'WiaRpc', 'WinDefend', 'WinHttpAutoProxySvc',
  'Winmgmt', 'WIPSVC', 'wisvc', 'wlidsvc', 'wmiApSrv', 'WPDBusEnum', 'WpnService', 'WpnUserService', 'wuauserv', 'CDPUserSvc', 'OneSyncSvc',
  'PimIndexMaintenanceSvc', 'UnistoreSvc', 'UserDataSvc', 'cbdhsvc', 'DevicesFlowUserSvc', 'PrintWorkflowUserSvc', 'BcastDVRUserService',
];
