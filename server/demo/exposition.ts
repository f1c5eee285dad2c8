/**
 * Writing the Prometheus text exposition format (version 0.0.4) the way Go's client_golang does,
 * so simulated exporters are byte-for-byte plausible: families sorted by name, label pairs sorted
 * by label name, samples sorted by label values, numbers in Go's shortest `%g` form.
 *
 * Everything that does not change between scrapes (HELP/TYPE lines, `name{labels} ` prefixes) is
 * built once per host; a scrape only formats numbers.
 */

export type MetricType = 'counter' | 'gauge' | 'untyped' | 'summary';
export type LabelSet = Readonly<Record<string, string>>;

/** Go's strconv.FormatFloat(v, 'g', -1, 64), which client_golang uses for every sample value. */
export function formatGoFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const abs = Math.abs(v);
  // Go's shortest %g decides with precision 6: exponent form below 1e-4 and from 1e6.
  // JavaScript prints the same shortest digits, in plain form over that whole range.
  if (abs >= 1e-4 && abs < 1e6) return String(v);
  // Most samples are whole numbers of 1e6 and more (counters, bytes): their digits come from
  // String() directly, which is several times cheaper than toExponential().
  if (abs < 1e21 && Number.isInteger(v)) {
    const digits = String(abs);
    let end = digits.length;
    while (end > 1 && digits.charCodeAt(end - 1) === 48) end--;
    const exp = digits.length - 1;
    const mantissa = end === 1 ? digits[0]! : `${digits[0]}.${digits.slice(1, end)}`;
    return `${v < 0 ? '-' : ''}${mantissa}e+${exp < 10 ? '0' : ''}${exp}`;
  }
  const exp = v.toExponential();
  const at = exp.indexOf('e');
  const e = Number(exp.slice(at + 1));
  const digits = String(Math.abs(e)).padStart(2, '0');
  return `${exp.slice(0, at)}e${e < 0 ? '-' : '+'}${digits}`;
}

function escapeLabelValue(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function escapeHelp(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

/**
 * Strings kept for the life of a host are built with join(), which yields one flat string;
 * template concatenation would keep a rope of small pieces per line, several times the size.
 */
function flat(parts: string[]): string {
  return parts.join('');
}

/**
 * Most lines are the same on every host of a fleet (`node_load1 `, the HELP texts…): one
 * shared copy each. Distinct strings are bounded by what the fleet's specs can produce.
 */
const shared = new Map<string, string>();
function intern(s: string): string {
  const known = shared.get(s);
  if (known !== undefined) return known;
  shared.set(s, s);
  return s;
}

function labelString(labels: LabelSet): string {
  const names = Object.keys(labels).sort();
  if (names.length === 0) return '';
  return flat(['{', names.map((n) => flat([n, '="', escapeLabelValue(labels[n] ?? ''), '"'])).join(','), '}']);
}

/**
 * The label values in label-name order, joined by a character no label value sorts below: the
 * string order of keys is the order of their values, label by label, as client_golang sorts them.
 */
function sortKey(labels: LabelSet): string {
  return Object.keys(labels)
    .sort()
    .map((n) => labels[n] ?? '')
    .join('\u0000');
}

interface SeriesDef {
  id: number;
  /** Suffix appended to the family name, for summaries' _sum and _count rows. */
  suffix: string;
  labels: LabelSet;
  built?: BuiltSeries;
}

interface FamilyDef {
  name: string;
  header: string;
  series: SeriesDef[];
}

/** Handle to declare the series of one metric family. */
export interface Family {
  /**
   * Declares one sample line and returns the slot its value is written to at each scrape.
   * `built` (from seriesLine) skips building the line's text again for every host.
   */
  series(labels?: LabelSet, suffix?: string, built?: BuiltSeries): number;
}

/** A sample line's text up to the value, and its sort key within its family. */
export interface BuiltSeries {
  prefix: string;
  key: string;
}

/** The text of one series of `name` (no suffix), to be shared by every host that has it. */
export function seriesLine(name: string, labels: LabelSet): BuiltSeries {
  return { prefix: intern(flat([name, labelString(labels), ' '])), key: sortKey(labels) };
}

/**
 * The static shape of one exporter's output. Declare families and series, `freeze()`, then each
 * scrape fills a Float64Array indexed by the slots `series()` returned and calls `render()`.
 */
export class Exposition {
  private families = new Map<string, FamilyDef>();
  private nextId = 0;
  private prefixes: string[] = [];
  private order: { header: string; ids: number[] }[] | null = null;

  family(name: string, type: MetricType, help: string): Family {
    if (this.order) throw new Error('Exposition is frozen');
    if (this.families.has(name)) throw new Error(`duplicate metric family ${name}`);
    const def: FamilyDef = { name, header: intern(flat(['# HELP ', name, ' ', escapeHelp(help), '\n# TYPE ', name, ' ', type, '\n'])), series: [] };
    this.families.set(name, def);
    return this.handle(def);
  }

  /** Whether a family of this name is declared (before freeze). */
  has(name: string): boolean {
    return this.families.has(name);
  }

  /** The family of this name, declared now if it is not yet (more series for an existing family). */
  extend(name: string, type: MetricType, help: string): Family {
    const def = this.families.get(name);
    return def ? this.handle(def) : this.family(name, type, help);
  }

  private handle(def: FamilyDef): Family {
    return {
      series: (labels: LabelSet = {}, suffix = '', built?: BuiltSeries) => {
        if (this.order) throw new Error('Exposition is frozen');
        const id = this.nextId++;
        def.series.push({ id, suffix, labels, built });
        return id;
      },
    };
  }

  /** Number of value slots a scrape must fill. */
  get size(): number {
    return this.nextId;
  }

  freeze(): this {
    const names = [...this.families.keys()].sort();
    this.prefixes = new Array<string>(this.nextId).fill('');
    this.order = names.map((name) => {
      const def = this.families.get(name)!;
      // Summaries keep quantile rows first, then _sum, then _count, as client_golang writes them.
      const rank = (s: SeriesDef) => (s.suffix === '' ? 0 : s.suffix === '_sum' ? 1 : 2);
      // One sort key per series (its label values in label-name order), not one per comparison:
      // a real-sized host has families of a thousand series (server/demo/ballast.ts).
      const keyed = def.series.map((s) => ({ s, rank: rank(s), key: s.built?.key ?? sortKey(s.labels) }));
      keyed.sort((a, b) => a.rank - b.rank || (a.key === b.key ? 0 : a.key < b.key ? -1 : 1));
      const sorted = keyed.map((k) => k.s);
      for (const s of sorted) this.prefixes[s.id] = s.built?.prefix ?? intern(flat([name, s.suffix, labelString(s.labels), ' ']));
      return { header: def.header, ids: sorted.map((s) => s.id) };
    });
    // Only the prefixes are needed from now on; the label objects would cost every host memory.
    this.families.clear();
    return this;
  }

  render(values: Float64Array): string {
    if (!this.order) throw new Error('Exposition is not frozen');
    const parts: string[] = [];
    for (const fam of this.order) {
      if (fam.ids.length === 0) continue;
      parts.push(fam.header);
      for (const id of fam.ids) parts.push(this.prefixes[id]!, formatGoFloat(values[id]!), '\n');
    }
    return parts.join('');
  }
}
