import { RE2JS } from 're2js';
import type { Matcher } from '../contract/routing';
import { badRequest } from '../http/errors';

/**
 * Matchers of silences and maintenance windows (issue 14 §2, §3), compiled once per rule set.
 * Regexes run on RE2 (re2js): matching is linear in the text whatever the pattern, so a pattern
 * like `(a+)+$` cannot stall the evaluator's tick (ReDoS); patterns are also length-capped in the
 * contract. Semantics are Alertmanager's: a regex must match the whole value, and a field the
 * alert does not have (no service, no such server label) reads as the empty string.
 */

/** What matchers look at: an alert's fields and its server's labels. */
export interface MatchFacts {
  hostname: string;
  alertname: string;
  type: string;
  severity: string;
  service: string | null;
  mountpoint: string | null;
  labels: Record<string, string>;
}

export type CompiledMatcher = (facts: MatchFacts) => boolean;

/** Matchers that look only at the server (hostname, labels): what a server-level preview can judge. */
export const isServerLevel = (m: Matcher) => m.name === 'hostname' || m.name.startsWith('label.');

function read(facts: MatchFacts, name: string): string {
  if (name.startsWith('label.')) return facts.labels[name.slice(6)] ?? '';
  const v = facts[name as keyof Omit<MatchFacts, 'labels'>];
  return v ?? '';
}

/**
 * A compiled regex with the answers it gave, per pattern and shared by every matcher that uses it.
 * re2js is linear but slow (a few µs a match): a sweep over 300 open alerts and 200 silences with
 * regexes took 120 ms of matching. The values matchers read repeat (a host's six rules, a few
 * alert names), and the patterns outlive reloads of the silences and windows, so answers are kept
 * per pattern and value (bench/alert-tick.ts). Bounded: past 1,000 patterns, or 5,000 answers of
 * one pattern, that cache starts over.
 */
interface Pattern {
  re: RE2JS;
  seen: Map<string, boolean>;
}
const patterns = new Map<string, Pattern>();
const MAX_PATTERNS = 1000;
const MAX_ANSWERS = 5000;

function pattern(value: string, field: string): Pattern {
  const known = patterns.get(value);
  if (known) return known;
  let re: RE2JS;
  try {
    re = RE2JS.compile(`^(?:${value})$`);
  } catch (error) {
    const why = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    throw badRequest(`${field}: the regex does not compile (${why})`, field);
  }
  if (patterns.size >= MAX_PATTERNS) patterns.clear();
  const p = { re, seen: new Map<string, boolean>() };
  patterns.set(value, p);
  return p;
}

function matches(p: Pattern, text: string): boolean {
  let hit = p.seen.get(text);
  if (hit === undefined) {
    hit = p.re.matches(text);
    if (p.seen.size >= MAX_ANSWERS) p.seen.clear();
    p.seen.set(text, hit);
  }
  return hit;
}

/** Compiles one matcher; throws a 400 naming `field` (e.g. "matchers.1.value") when its regex does not compile. */
export function compileMatcher(m: Matcher, field = 'value'): CompiledMatcher {
  if (m.op === '=') return (f) => read(f, m.name) === m.value;
  if (m.op === '!=') return (f) => read(f, m.name) !== m.value;
  const p = pattern(m.value, field);
  const positive = m.op === '=~';
  return (f) => matches(p, read(f, m.name)) === positive;
}

/** All matchers must hold (an empty list matches everything; the contract never stores one for a silence). */
export function compileAll(matchers: readonly Matcher[], prefix = 'matchers'): CompiledMatcher {
  const compiled = matchers.map((m, i) => compileMatcher(m, `${prefix}.${i}.value`));
  return (f) => compiled.every((c) => c(f));
}

/** The server-level part (hostname, labels) of some matchers, for "which servers can this match". */
export function compileServerLevel(matchers: readonly Matcher[]): (server: { hostname: string; labels: Record<string, string> }) => boolean {
  const compiled = compileAll(matchers.filter(isServerLevel));
  return (s) => compiled({ hostname: s.hostname, labels: s.labels, alertname: '', type: '', severity: '', service: null, mountpoint: null });
}
