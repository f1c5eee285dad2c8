/**
 * What a simulated host is (HostSpec) and how each profile bends its figures. Kept apart from
 * the renderers so linux.ts and windows.ts share one notion of "hot", "full" or "failing".
 */
import { Rng } from './signals';

export type DemoOs = 'linux' | 'windows';

export const demoProfiles = ['normal', 'hot-cpu', 'disk-full', 'memory-high', 'down', 'failing-services', 'busy-network'] as const;
export type DemoProfile = (typeof demoProfiles)[number];

export interface VolumeSpec {
  /** Linux block device (`/dev/sda1`); on Windows the volume name again. */
  device: string;
  /** Linux mount point (`/`, `/data`) or Windows volume (`C:`, `D:`, `HarddiskVolume1`). */
  mountpoint: string;
  /** ext4, xfs, NTFS… */
  fstype: string;
  sizeBytes: number;
}

export interface HostSpec {
  /** Stable id, e.g. "demo-web-01": the console finds the same host again after a restart. */
  key: string;
  hostname: string;
  os: DemoOs;
  profile: DemoProfile;
  cores: number;
  memoryBytes: number;
  /** The first volume mounted at "/" (Linux) or "C:" (Windows) is the root/system volume. */
  volumes: VolumeSpec[];
  /** Linux interface names (`eth0`, `ens18`; `lo` is added) or Windows adapter names. */
  nics: string[];
  /**
   * systemd units (a bare name means `<name>.service`) or Windows service names. On a
   * 'failing-services' host the last one stays failed and the one before it keeps restarting,
   * so list the application services last.
   */
  services: string[];
  seed: number;
}

/** The ranges a profile draws its levels from; each host picks its own point in them. */
export interface Levels {
  /** Share of each core's time spent busy, and how far it swings (relative). */
  cpuBusy: number;
  cpuSwing: number;
  /** Share of RAM in use (1 − available/total), and its swing (absolute). */
  memUsed: number;
  memSwing: number;
  swapUsed: number;
  /** Share of the root/system volume in use, and of the other data volumes. */
  rootUsed: number;
  dataUsed: number;
  /** Received bytes/s on the main interface; transmit is a ratio of it. */
  netRx: number;
  netTxRatio: number;
  /** Bytes/s read from the main disk; writes are a ratio of it. */
  diskRead: number;
  diskWriteRatio: number;
  diskUtil: number;
  tcpEstab: number;
  /** Listen-queue overflows per second: only a saturated host drops connections. */
  listenOverflows: number;
  /** Units/services that stay failed, and ones that keep restarting. */
  failedServices: number;
  flappingServices: number;
}

export function isRootVolume(v: VolumeSpec): boolean {
  return v.mountpoint === '/' || v.mountpoint.toUpperCase() === 'C:';
}

export function levelsFor(spec: HostSpec, rng: Rng): Levels {
  const normal: Levels = {
    cpuBusy: rng.range(0.06, 0.42),
    cpuSwing: rng.range(0.35, 0.6),
    memUsed: rng.range(0.3, 0.72),
    memSwing: rng.range(0.02, 0.06),
    swapUsed: rng.range(0, 0.04),
    rootUsed: rng.range(0.22, 0.68),
    dataUsed: rng.range(0.15, 0.75),
    netRx: rng.range(30e3, 1.5e6),
    netTxRatio: rng.range(0.6, 3),
    diskRead: rng.range(20e3, 2e6),
    diskWriteRatio: rng.range(0.5, 2.5),
    diskUtil: rng.range(0.01, 0.15),
    tcpEstab: rng.range(8, 180),
    listenOverflows: 0,
    failedServices: 0,
    flappingServices: 0,
  };
  switch (spec.profile) {
    case 'hot-cpu':
      // Busy never below 0.95·(1−0.03) ≈ 92 %, so any rate window reads above 90 %.
      return { ...normal, cpuBusy: rng.range(0.95, 0.955), cpuSwing: 0.03, tcpEstab: rng.range(300, 900), listenOverflows: rng.range(0.05, 0.3) };
    case 'disk-full':
      // Every real data volume is nearly full too, whatever way the console aggregates them.
      return { ...normal, rootUsed: rng.range(0.968, 0.976), dataUsed: rng.range(0.92, 0.94), diskUtil: rng.range(0.2, 0.4) };
    case 'memory-high':
      return { ...normal, memUsed: rng.range(0.935, 0.945), memSwing: 0.015, swapUsed: rng.range(0.3, 0.55) };
    case 'failing-services':
      return { ...normal, failedServices: 1, flappingServices: spec.services.length > 2 ? 1 : 0 };
    case 'busy-network':
      return { ...normal, cpuBusy: rng.range(0.35, 0.55), netRx: rng.range(25e6, 70e6), netTxRatio: rng.range(1.2, 2.5), tcpEstab: rng.range(1500, 4000) };
    case 'normal':
    case 'down':
      return normal;
  }
}

/** Volume used share: level for the volume's role, moving a little over hours and days. */
export function volumeLevel(spec: HostSpec, levels: Levels, v: VolumeSpec, rng: Rng): { used: number; swing: number } {
  if (isRootVolume(v)) return { used: levels.rootUsed, swing: spec.profile === 'disk-full' ? 0.006 : 0.01 };
  // Small system partitions (boot, recovery) sit at a fixed, moderate level on every host.
  if (v.sizeBytes < 4 * 2 ** 30) return { used: rng.range(0.2, 0.45), swing: 0.001 };
  return { used: levels.dataUsed, swing: spec.profile === 'disk-full' ? 0.006 : 0.012 };
}

/**
 * Service state over time. Failed services are the last ones listed; a flapping one (just
 * before them) is up most of a 15-minute cycle, then down, then starting again.
 */
export function serviceCondition(spec: HostSpec, levels: Levels, index: number, tSinceBoot: number): 'up' | 'down' | 'starting' {
  const n = spec.services.length;
  if (index >= n - levels.failedServices) return 'down';
  if (index >= n - levels.failedServices - levels.flappingServices) {
    const cycle = 900;
    const phase = (tSinceBoot + (spec.seed % cycle)) % cycle;
    if (phase < 600) return 'up';
    if (phase < 780) return 'down';
    return 'starting';
  }
  return 'up';
}
