/**
 * Pure simulation of one monitored host: `render(now)` is the /metrics text its exporter
 * (node_exporter 1.5 on Linux, windows_exporter 0.20 on Windows) would serve at that instant.
 * The text depends only on the spec (with its seed), the start time and `now`, so tests can
 * render any instant, in any order, and get the same bytes every time.
 */
import { renderLinux } from './linux';
import type { HostSpec } from './spec';
import { renderWindows } from './windows';

export { demoProfiles, type DemoOs, type DemoProfile, type HostSpec, type VolumeSpec } from './spec';

export interface SimulatedHost {
  readonly spec: HostSpec;
  /** When the simulation started (ms since the epoch); the host booted days before it. */
  readonly startMs: number;
  render(nowMs: number): string;
}

/**
 * `samples`: pad the host to this many samples with the families real exporters also carry
 * (server/demo/ballast.ts); 0 serves only what the console reads.
 */
export function createSimulatedHost(spec: HostSpec, startMs: number, samples = 0): SimulatedHost {
  if (!Number.isInteger(spec.cores) || spec.cores < 1) throw new Error(`${spec.key}: cores must be a positive whole number`);
  if (spec.volumes.length === 0) throw new Error(`${spec.key}: a host needs at least one volume`);
  if (spec.nics.length === 0) throw new Error(`${spec.key}: a host needs at least one network interface`);
  const render = spec.os === 'linux' ? renderLinux(spec, startMs, samples) : renderWindows(spec, startMs, samples);
  return { spec, startMs, render };
}
