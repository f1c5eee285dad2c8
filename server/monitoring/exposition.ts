/**
 * Prometheus text exposition format 0.0.4 parser.
 *
 * Written as one hand-rolled scanner over the body's bytes because it sits on the hot path of
 * every scrape of every server: no regex, no per-line split, no intermediate token objects, and
 * no string of the whole body (the scrape worker hands over the bytes as they came off the
 * socket: decoding 100–300 KB a scrape to text was a copy per scrape and most of the worker's
 * garbage, issue 17 §2). Strings are only decoded out of the input when they are new: a metric
 * name, label name or label value equal to the one at the same place on the previous line (the
 * common case: exporters print families together and labels in a fixed order) is reused instead
 * of decoded again. Names are ASCII by the format; label values are decoded as UTF-8.
 *
 * Unlike Prometheus, which rejects the whole scrape at the first bad line, a bad line here is
 * skipped and counted, so one broken textfile-collector line does not blank a server's charts.
 */
import type { Labels, Sample, Scrape } from './types';

export interface ExpositionError {
  /** 1-based line number in the input. */
  line: number;
  reason: string;
}

export interface ExpositionResult {
  scrape: Scrape;
  /** Sample lines accepted. */
  samples: number;
  /** Lines that were neither blank, comment nor a valid sample; each was skipped. */
  malformed: number;
  /** The first few malformed lines, for logs; `malformed` has the full count. */
  errors: ExpositionError[];
  /** Set when the body broke a limit given to the parser: parsing stopped there, and the scrape must not be used. */
  overLimit?: string;
}

/**
 * Bounds on what one scrape may hold (SCRAPE_SERIES_LIMIT, SCRAPE_LABEL_LIMIT): like
 * Prometheus's `sample_limit` and `label_name_length_limit`/`label_value_length_limit`, a body
 * past them is refused as a whole, and parsing stops at the first sample past them, so a hostile
 * body costs no more than the limit.
 */
export interface ExpositionLimits {
  /** Sample lines, of every family (skipped ones too). */
  samples: number;
  /** Bytes of a label name or value (as written, escapes included), in the families parsed. */
  labelBytes: number;
}

const count = (n: number) => n.toLocaleString('en-US');

const MAX_REPORTED_ERRORS = 10;
const EMPTY_LABELS: Labels = Object.freeze({});

// Char classes for ASCII; anything >= 128 is in no class (names are ASCII in format 0.0.4).
const NAME_START = 1;
const NAME_CHAR = 2;
const LABEL_START = 4;
const LABEL_CHAR = 8;
const DIGIT = 16;
const charClass = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  const letter = /[A-Za-z_]/.test(ch);
  const digit = c >= 48 && c <= 57;
  if (letter || ch === ':') charClass[c]! |= NAME_START | NAME_CHAR;
  if (digit) charClass[c]! |= NAME_CHAR | LABEL_CHAR | DIGIT;
  if (letter) charClass[c]! |= LABEL_START | LABEL_CHAR;
}

// Exact powers of ten: m * 10^e with m < 2^53 and |e| <= 22 is then one correctly rounded
// IEEE operation, i.e. bit-identical to Number() (Clinger's fast path).
const POW10: number[] = [];
for (let i = 0, p = 1; i <= 22; i++, p *= 10) POW10.push(p);

// Label names are few and repeat across every scrape of every server: keep one copy of each.
const labelNamePool = new Map<string, string>();
const LABEL_NAME_POOL_LIMIT = 10_000;

function internLabelName(name: string): string {
  const pooled = labelNamePool.get(name);
  if (pooled !== undefined) return pooled;
  if (labelNamePool.size >= LABEL_NAME_POOL_LIMIT) labelNamePool.clear();
  labelNamePool.set(name, name);
  return name;
}

/** Whether bytes[start, end) equals the `length` bytes at `at` in the same body. */
function samePrefix(bytes: Buffer, start: number, end: number, at: number, length: number): boolean {
  if (end - start !== length) return false;
  const shift = at - start;
  for (let k = start; k < end; k++) if (bytes[k] !== bytes[k + shift]) return false;
  return true;
}

/** Parses exporter output; never throws. Malformed lines are skipped (see parseExpositionDetailed). */
export function parseExposition(text: string | Uint8Array): Scrape {
  return parseExpositionDetailed(text).scrape;
}

// A multi-byte UTF-8 sequence never holds a byte below 128, so cutting at a backslash never
// splits a character and each segment decodes on its own.
function unescapeLabelValue(bytes: Buffer, start: number, end: number): string {
  let out = '';
  let from = start;
  for (let i = start; i < end; i++) {
    if (bytes[i] !== 92) continue;
    out += bytes.toString('utf8', from, i);
    const next = bytes[i + 1];
    // Prometheus's lexer accepts any escaped char but only rewrites these three; others stay as written.
    if (next === 110) out += '\n';
    else if (next === 92) out += '\\';
    else if (next === 34) out += '"';
    else {
      // Kept as written: the backslash now, the char (maybe several bytes) with what follows.
      out += '\\';
      from = i + 1;
      continue;
    }
    i++;
    from = i + 1;
  }
  return out + bytes.toString('utf8', from, end);
}

/** Values Go's strconv.ParseFloat takes that the fast path leaves: NaN/Inf spellings, long mantissas, hex. */
function parseSlowFloat(token: string): number {
  const lower = token.toLowerCase();
  if (lower === 'nan') return NaN;
  if (lower === 'inf' || lower === '+inf' || lower === 'infinity' || lower === '+infinity') return Infinity;
  if (lower === '-inf' || lower === '-infinity') return -Infinity;
  if (token.length === 0 || lower.includes('inf') || lower.includes('nan')) return NaN;
  return Number(token);
}

/**
 * `keep`: parse only the families named in it. Lines of any other family are counted as samples
 * and skipped at the end of their name (found by indexOf, not read byte by byte): a real host
 * serves 1,500–3,500 samples of which the console reads a few hundred (issue 17 §2). Their
 * values and labels are then not checked, so a malformed line in a skipped family is not
 * counted as malformed. Text is parsed as its UTF-8 bytes; the scrape worker passes the bytes.
 */
export function parseExpositionDetailed(body: string | Uint8Array, keep?: ReadonlySet<string>, limits?: ExpositionLimits): ExpositionResult {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return parseBytes(bytes, keep, limits);
}

function parseBytes(b: Buffer, keep: ReadonlySet<string> | undefined, limits: ExpositionLimits | undefined): ExpositionResult {
  const maxSamples = limits?.samples ?? Infinity;
  const maxLabel = limits?.labelBytes ?? Infinity;
  let overLimit: string | undefined;
  const tooMany = () => `The exporter exposes more than ${count(maxSamples)} samples, over the limit (SCRAPE_SERIES_LIMIT)`;
  const scrape: Scrape = new Map();
  const errors: ExpositionError[] = [];
  const n = b.length;
  let samples = 0;
  let malformed = 0;
  let line = 0;
  let pos = 0;

  let prevName = '';
  let prevNameStart = 0;
  let prevList: Sample[] | undefined;
  // The family of the last line and whether `keep` has it: families come in runs of lines.
  let lastName = '';
  let lastNameStart = 0;
  let lastKept = true;
  // Label names/values of the previous sample line and where they start in `text`, by position.
  let prevLabelNames: string[] = [];
  let prevLabelValues: string[] = [];
  let prevLabelNameAt: number[] = [];
  let prevLabelValueAt: number[] = [];
  let prevLabelCount = 0;
  let curLabelNames: string[] = [];
  let curLabelValues: string[] = [];
  let curLabelNameAt: number[] = [];
  let curLabelValueAt: number[] = [];

  let reason = '';
  lines: while (pos < n) {
    line++;
    let c = b[pos]!;
    while (c === 32 || c === 9) c = b[++pos]!;
    if (c === 10) {
      pos++;
      continue;
    }
    if (c === 13 && b[pos + 1]! === 10) {
      pos += 2;
      continue;
    }
    if (pos >= n) break;
    if (c === 35) {
      // HELP, TYPE and plain comments: nothing in them changes how samples read.
      const nl = b.indexOf(10, pos);
      pos = nl === -1 ? n : nl + 1;
      continue;
    }

    // Another line of the family just skipped: a native prefix test and a jump to the next line.
    if (keep !== undefined && !lastKept && lastName.length > 0 && samePrefix(b, pos, Math.min(n, pos + lastName.length), lastNameStart, lastName.length)) {
      const d = b[pos + lastName.length]!;
      if (d >= 128 || (charClass[d]! & NAME_CHAR) === 0) {
        if (++samples > maxSamples) {
          overLimit = tooMany();
          break lines;
        }
        const nl = b.indexOf(10, pos + lastName.length);
        pos = nl === -1 ? n : nl + 1;
        continue;
      }
    }

    parse: {
      // Metric name.
      if (c >= 128 || (charClass[c]! & NAME_START) === 0) {
        reason = 'metric name expected';
        break parse;
      }
      const nameStart = pos;
      let p = pos + 1;
      while (p < n) {
        const d = b[p]!;
        if (d >= 128 || (charClass[d]! & NAME_CHAR) === 0) break;
        p++;
      }
      if (keep !== undefined) {
        if (!(lastName.length > 0 && samePrefix(b, nameStart, p, lastNameStart, lastName.length))) {
          lastName = b.toString('latin1', nameStart, p);
          lastKept = keep.has(lastName);
        }
        lastNameStart = nameStart;
        if (!lastKept) {
          if (++samples > maxSamples) {
            overLimit = tooMany();
            break lines;
          }
          const nl = b.indexOf(10, p);
          pos = nl === -1 ? n : nl + 1;
          continue lines;
        }
      }
      const name =
        prevName.length > 0 && samePrefix(b, nameStart, p, prevNameStart, prevName.length)
          ? prevName
          : b.toString('latin1', nameStart, p);

      c = b[p]!;
      const afterName = p;
      while (c === 32 || c === 9) c = b[++p]!;
      let blankBeforeValue = p > afterName;

      // Labels.
      let labels: Labels = EMPTY_LABELS;
      let labelCount = 0;
      if (c === 123) {
        p++;
        let obj: Record<string, string> | undefined;
        for (;;) {
          c = b[p]!;
          while (c === 32 || c === 9) c = b[++p]!;
          if (c === 125) {
            p++;
            break;
          }
          if (c >= 128 || (charClass[c]! & LABEL_START) === 0) {
            reason = c === 10 || p >= n ? 'unterminated label set' : 'label name expected';
            break parse;
          }
          const lnStart = p;
          const known = labelCount < prevLabelCount;
          p++;
          while (p < n) {
            const d = b[p]!;
            if (d >= 128 || (charClass[d]! & LABEL_CHAR) === 0) break;
            p++;
          }
          if (p - lnStart > maxLabel) {
            overLimit = `A label name of ${name} is ${count(p - lnStart)} bytes long, over the limit of ${count(maxLabel)} (SCRAPE_LABEL_LIMIT)`;
            break lines;
          }
          let labelName: string;
          if (known && samePrefix(b, lnStart, p, prevLabelNameAt[labelCount]!, prevLabelNames[labelCount]!.length)) {
            labelName = prevLabelNames[labelCount]!;
          } else labelName = internLabelName(b.toString('latin1', lnStart, p));

          c = b[p]!;
          while (c === 32 || c === 9) c = b[++p]!;
          if (c !== 61) {
            reason = `'=' expected after label ${labelName}`;
            break parse;
          }
          c = b[++p]!;
          while (c === 32 || c === 9) c = b[++p]!;
          if (c !== 34) {
            reason = `'"' expected for label ${labelName}`;
            break parse;
          }
          const vStart = ++p;
          let escaped = false;
          for (;;) {
            if (p >= n) {
              reason = 'unterminated label value';
              break parse;
            }
            const d = b[p]!;
            if (d === 34) break;
            if (d === 10) {
              reason = 'unterminated label value';
              break parse;
            }
            if (d === 92) {
              const e = b[p + 1]!;
              if (e === 10 || p + 1 >= n) {
                reason = 'unterminated label value';
                break parse;
              }
              escaped = true;
              p += 2;
            } else p++;
          }
          if (p - vStart > maxLabel) {
            overLimit = `The value of label "${labelName}" of ${name} is ${count(p - vStart)} bytes long, over the limit of ${count(maxLabel)} (SCRAPE_LABEL_LIMIT)`;
            break lines;
          }
          let value: string;
          if (escaped) value = unescapeLabelValue(b, vStart, p);
          else if (
            known &&
            prevLabelValueAt[labelCount]! >= 0 &&
            samePrefix(b, vStart, p, prevLabelValueAt[labelCount]!, prevLabelValues[labelCount]!.length)
          ) {
            value = prevLabelValues[labelCount]!;
          } else value = b.toString('utf8', vStart, p);
          p++;

          if (obj === undefined) obj = {};
          else {
            // Scanning the few names already on this line, not `labelName in obj`, which would
            // also see inherited keys such as "constructor".
            for (let k = 0; k < labelCount; k++) {
              if (curLabelNames[k] === labelName) {
                reason = `duplicate label ${labelName}`;
                break parse;
              }
            }
          }
          if (labelName === '__proto__') {
            Object.defineProperty(obj, labelName, { value, enumerable: true, writable: false });
          } else obj[labelName] = value;
          curLabelNames[labelCount] = labelName;
          curLabelNameAt[labelCount] = lnStart;
          curLabelValues[labelCount] = value;
          // An unescaped copy is not comparable with the raw text, so never reuse it by position.
          curLabelValueAt[labelCount] = escaped ? -1 : vStart;
          labelCount++;

          c = b[p]!;
          while (c === 32 || c === 9) c = b[++p]!;
          if (c === 44) p++;
          else if (c === 125) {
            p++;
            break;
          } else {
            reason = c === 10 || p >= n ? 'unterminated label set' : "',' or '}' expected";
            break parse;
          }
        }
        if (obj !== undefined) labels = obj;
        c = b[p]!;
        const afterLabels = p;
        while (c === 32 || c === 9) c = b[++p]!;
        blankBeforeValue = p > afterLabels;
      }

      // Value: after at least one blank.
      if (p >= n || c === 10 || c === 13) {
        reason = 'value missing';
        break parse;
      }
      if (!blankBeforeValue) {
        reason = 'blank expected before value';
        break parse;
      }
      const vStart = p;
      let q = p;
      let negative = false;
      if (c === 45) {
        negative = true;
        c = b[++q]!;
      } else if (c === 43) c = b[++q]!;
      let mantissa = 0;
      let significant = 0;
      let exp10 = 0;
      let digits = 0;
      let fast = true;
      while (c >= 48 && c <= 57) {
        if (significant > 0 || c !== 48) {
          if (significant < 15) mantissa = mantissa * 10 + (c - 48);
          else exp10++;
          significant++;
        }
        digits++;
        c = b[++q]!;
      }
      if (c === 46) {
        c = b[++q]!;
        while (c >= 48 && c <= 57) {
          if (significant > 0 || c !== 48) {
            if (significant < 15) {
              mantissa = mantissa * 10 + (c - 48);
              exp10--;
            }
            significant++;
          } else exp10--;
          digits++;
          c = b[++q]!;
        }
      }
      if (significant > 15) fast = false;
      if (digits > 0 && (c === 101 || c === 69)) {
        c = b[++q]!;
        let expNegative = false;
        if (c === 45) {
          expNegative = true;
          c = b[++q]!;
        } else if (c === 43) c = b[++q]!;
        let e = 0;
        let expDigits = 0;
        while (c >= 48 && c <= 57) {
          if (e < 10_000) e = e * 10 + (c - 48);
          expDigits++;
          c = b[++q]!;
        }
        if (expDigits === 0) fast = false;
        exp10 += expNegative ? -e : e;
      }
      const tokenEnds = q >= n || c === 32 || c === 9 || c === 13 || c === 10;
      let value: number;
      if (fast && digits > 0 && tokenEnds && exp10 >= -22 && exp10 <= 22) {
        value = exp10 >= 0 ? mantissa * POW10[exp10]! : mantissa / POW10[-exp10]!;
        if (negative) value = -value;
      } else {
        while (!(q >= n || c === 32 || c === 9 || c === 13 || c === 10)) c = b[++q]!;
        const token = b.toString('utf8', vStart, q);
        value = parseSlowFloat(token);
        if (Number.isNaN(value) && token.toLowerCase() !== 'nan') {
          reason = `bad value ${JSON.stringify(token)}`;
          break parse;
        }
      }
      p = q;

      // Optional integer timestamp (ms): checked, then dropped; a scrape is stamped when fetched.
      while (c === 32 || c === 9) c = b[++p]!;
      if (c === 45 || (c >= 48 && c <= 57)) {
        if (c === 45) c = b[++p]!;
        const tsStart = p;
        while (c >= 48 && c <= 57) c = b[++p]!;
        if (p === tsStart) {
          reason = 'bad timestamp';
          break parse;
        }
        while (c === 32 || c === 9) c = b[++p]!;
      }
      if (c === 13) c = b[++p]!;
      if (p < n && c !== 10) {
        reason = 'unexpected text after value';
        break parse;
      }
      pos = p + 1;

      if (name !== prevName || prevList === undefined) {
        let list = scrape.get(name);
        if (list === undefined) {
          list = [];
          scrape.set(name, list);
        }
        prevName = name;
        prevList = list;
      }
      prevNameStart = nameStart;
      if (++samples > maxSamples) {
        overLimit = tooMany();
        break lines;
      }
      prevList.push({ labels, value });
      const swapNames = prevLabelNames;
      prevLabelNames = curLabelNames;
      curLabelNames = swapNames;
      const swapValues = prevLabelValues;
      prevLabelValues = curLabelValues;
      curLabelValues = swapValues;
      const swapNameAt = prevLabelNameAt;
      prevLabelNameAt = curLabelNameAt;
      curLabelNameAt = swapNameAt;
      const swapValueAt = prevLabelValueAt;
      prevLabelValueAt = curLabelValueAt;
      curLabelValueAt = swapValueAt;
      prevLabelCount = labelCount;
      continue lines;
    }

    malformed++;
    if (errors.length < MAX_REPORTED_ERRORS) errors.push({ line, reason });
    const nl = b.indexOf(10, pos);
    pos = nl === -1 ? n : nl + 1;
  }

  return overLimit === undefined ? { scrape, samples, malformed, errors } : { scrape, samples, malformed, errors, overLimit };
}
