/**
 * What linux.ts and windows.ts share: reading gauges out of a scrape, per-second rates of
 * counters between this scrape and the previous one, and the chart series being built.
 */
import { seriesKey } from './series-key';
import type { CounterMemory, Labels, Sample, Scrape } from './types';

const NO_SAMPLES: readonly Sample[] = [];

export type LabelFilter = (labels: Labels) => boolean;

export class DeriveContext {
  readonly series: Record<string, number> = {};
  private readonly counters = new Map<string, number>();
  /** Seconds since the previous scrape; null on the first scrape (or a clock that went back). */
  readonly intervalS: number | null;

  constructor(
    readonly scrape: Scrape,
    readonly atMs: number,
    private readonly prev?: CounterMemory,
  ) {
    this.intervalS = prev && atMs > prev.at ? (atMs - prev.at) / 1000 : null;
  }

  memory(): CounterMemory {
    return { at: this.atMs, counters: this.counters };
  }

  /**
   * Every family the derivation looked for, present or not: the next scrape of the same target
   * need parse only these (exposition.ts `keep`; ScrapeState in scrape-worker.ts).
   */
  readonly asked = new Set<string>();

  samples(name: string): readonly Sample[] {
    this.asked.add(name);
    return this.scrape.get(name) ?? NO_SAMPLES;
  }

  has(name: string): boolean {
    return this.samples(name).length > 0;
  }

  /** The value of the first of `names` the exporter has (older and newer exporters name things differently). */
  gauge(...names: string[]): number | null {
    for (const name of names) {
      const sample = this.samples(name)[0];
      if (sample) return Number.isFinite(sample.value) ? sample.value : null;
    }
    return null;
  }

  /** Sum over the samples of the first of `names` present that pass `keep`; null if none is present. */
  sumGauge(names: string | string[], keep?: LabelFilter): number | null {
    for (const name of typeof names === 'string' ? [names] : names) {
      const samples = this.samples(name);
      if (samples.length === 0) continue;
      let sum = 0;
      for (const s of samples) if (!keep || keep(s.labels)) sum += s.value;
      return Number.isFinite(sum) ? sum : null;
    }
    return null;
  }

  /**
   * Per-second increase of one counter since the previous scrape. Null on the first scrape, when
   * the counter is new, or when it went down: a reset (exporter or host restart) gives no rate
   * for that scrape rather than a negative or made-up one.
   */
  rate(id: string, value: number): number | null {
    if (!Number.isFinite(value)) return null;
    this.counters.set(id, value);
    if (this.intervalS === null) return null;
    const before = this.prev!.counters.get(id);
    if (before === undefined || value < before) return null;
    return (value - before) / this.intervalS;
  }

  /**
   * Rates of every sample of the first of `names` present (`keep` filters by labels), each with
   * its labels. Counters are remembered under the name actually found.
   */
  rates(names: string | string[], keep?: LabelFilter): { labels: Labels; rate: number | null }[] {
    for (const name of typeof names === 'string' ? [names] : names) {
      const samples = this.samples(name);
      if (samples.length === 0) continue;
      const out: { labels: Labels; rate: number | null }[] = [];
      for (const s of samples) {
        if (keep && !keep(s.labels)) continue;
        out.push({ labels: s.labels, rate: this.rate(seriesKey(name, s.labels), s.value) });
      }
      return out;
    }
    return [];
  }

  /** Rate of a label-less counter (the first of `names` present). */
  counterRate(...names: string[]): number | null {
    const r = this.rates(names);
    return r.length === 0 ? null : (r[0]!.rate ?? null);
  }

  set(key: string, value: number | null | undefined): void {
    if (value !== null && value !== undefined && Number.isFinite(value)) this.series[key] = value;
  }
}

/** Sum of rates; null if there are none or any one of them is unknown (first scrape, reset). */
export function sumRates(rates: readonly { rate: number | null }[]): number | null {
  if (rates.length === 0) return null;
  let sum = 0;
  for (const r of rates) {
    if (r.rate === null) return null;
    sum += r.rate;
  }
  return sum;
}

/** Rates grouped by a key made from the labels (null: leave the sample out), summed per group. */
export function sumRatesBy(
  rates: readonly { labels: Labels; rate: number | null }[],
  group: (labels: Labels) => string | null,
): Map<string, number | null> {
  const members = new Map<string, { rate: number | null }[]>();
  for (const r of rates) {
    const g = group(r.labels);
    if (g === null) continue;
    let list = members.get(g);
    if (!list) members.set(g, (list = []));
    list.push(r);
  }
  const out = new Map<string, number | null>();
  for (const [g, list] of members) out.set(g, sumRates(list));
  return out;
}

/** Arithmetic over gauges that may be missing: null in, null out. */
export function all<T extends (number | null)[]>(...values: T): { [K in keyof T]: number } | null {
  return values.every((v) => v !== null) ? (values as { [K in keyof T]: number }) : null;
}

export function percent(part: number | null, whole: number | null): number | null {
  return part === null || whole === null || whole <= 0 ? null : (part / whole) * 100;
}
