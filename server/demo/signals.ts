/**
 * Deterministic building blocks for the simulated hosts. Every quantity is a sum of sinusoids
 * in the host's time since boot, so a value depends only on (seed, time): no state between
 * scrapes, any instant can be rendered in any order, and a counter is the exact integral of its
 * rate, so `rate()` between two scrapes gives back the simulated figure.
 */

/** FNV-1a, to turn a string (a host key) into a seed. */
export function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: small, fast and good enough to scatter parameters. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  int(lo: number, hi: number): number {
    return Math.floor(this.range(lo, hi + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** An independent stream, so adding a draw in one place does not shift every other value. */
  fork(label: string): Rng {
    return new Rng(hashSeed(`${label}:${this.next()}`));
  }
}

/** Periods (s) of the default wobble: scrape-to-scrape jitter, minutes, hours, the day. */
export const FAST = [23, 41, 67] as const;
export const MEDIUM = [300, 780, 1900] as const;
export const SLOW = [5400, 21600, 86400] as const;
export const ALL_PERIODS = [...FAST, ...MEDIUM, ...SLOW] as const;

/**
 * base + Σ amp·sin(ω·t + φ), bounded by base ± Σ|amp|. Waves are packed as (amp, ω, φ)
 * triples in one Float64Array: a big fleet holds tens of thousands of signals.
 */
export class Signal {
  constructor(
    readonly base: number,
    private readonly waves: Float64Array,
  ) {}

  at(t: number): number {
    const w = this.waves;
    let v = this.base;
    for (let i = 0; i < w.length; i += 3) v += w[i]! * Math.sin(w[i + 1]! * t + w[i + 2]!);
    return v;
  }

  /** ∫₀ᵗ at(s) ds, in closed form. */
  integral(t: number): number {
    const w = this.waves;
    let v = this.base * t;
    for (let i = 0; i < w.length; i += 3) v += (w[i]! / w[i + 1]!) * (Math.cos(w[i + 2]!) - Math.cos(w[i + 1]! * t + w[i + 2]!));
    return v;
  }

  get swing(): number {
    let s = 0;
    for (let i = 0; i < this.waves.length; i += 3) s += Math.abs(this.waves[i]!);
    return s;
  }

  scaled(k: number): Signal {
    const w = Float64Array.from(this.waves);
    for (let i = 0; i < w.length; i += 3) w[i]! *= k;
    return new Signal(this.base * k, w);
  }
}

/**
 * A signal around `base` that never strays more than `swing` (absolute) from it: the swing is
 * shared out between waves of the given periods, each period and phase jittered by the seed.
 */
export function wobble(rng: Rng, base: number, swing: number, periods: readonly number[] = ALL_PERIODS): Signal {
  const weights = periods.map(() => 0.3 + rng.next());
  const total = weights.reduce((a, b) => a + b, 0);
  const waves = new Float64Array(periods.length * 3);
  periods.forEach((p, i) => {
    waves[i * 3] = (swing * (weights[i] ?? 0)) / total;
    waves[i * 3 + 1] = (2 * Math.PI) / (p * rng.range(0.85, 1.2));
    waves[i * 3 + 2] = rng.range(0, 2 * Math.PI);
  });
  return new Signal(base, waves);
}

/** A counter's rate: positive around `base`, swinging by a fraction `rel` (< 1) of it. */
export function rate(rng: Rng, base: number, rel = 0.5, periods: readonly number[] = ALL_PERIODS): Signal {
  return wobble(rng, base, base * Math.min(rel, 0.95), periods);
}

export function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}

/** Counters that count whole things must stay whole; flooring keeps them monotonic. */
export function whole(v: number, unit = 1): number {
  // Fractional units go through their reciprocal so 0.01 steps print as 3903.2, not 3903.2000000000003.
  if (unit < 1) {
    const k = Math.round(1 / unit);
    return Math.floor(v * k) / k;
  }
  return Math.floor(v / unit) * unit;
}

/** A deterministic 0..1 value per time bucket, for discrete events (a restart, a service flap). */
export function bucketNoise(seed: number, bucket: number): number {
  return new Rng(hashSeed(`${seed}/${bucket}`)).next();
}
