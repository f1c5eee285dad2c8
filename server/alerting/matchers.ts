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

/** Compiles one matcher; throws a 400 naming `field` (e.g. "matchers.1.value") when its regex does not compile. */
export function compileMatcher(m: Matcher, field = 'value'): CompiledMatcher {
  if (m.op === '=') return (f) => read(f, m.name) === m.value;
  if (m.op === '!=') return (f) => read(f, m.name) !== m.value;
  let re: RE2JS;
  try {
    re = RE2JS.compile(`^(?:${m.value})$`);
  } catch (error) {
    const why = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    throw badRequest(`${field}: the regex does not compile (${why})`, field);
  }
  const positive = m.op === '=~';
  return (f) => re.matches(read(f, m.name)) === positive;
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
