import type { CommandShape } from './arg-spec';
import { commandLineFor, quote, spanWords, spell } from './format-command-line';
import { parseCommandLine } from './parse-command-line';
import { matcherText, type Matcher } from './routing';

/** What a record touched, named as it was then (server/contract/command-history.ts's target). */
export interface NamedTarget {
  kind: string;
  id: string;
  name: string;
}

/** A target as the command line names it: an alert as `alertname@host`, anything else by its name. */
export function targetWord(t: NamedTarget): string {
  if (t.kind === 'alert') {
    const m = /^(.*?\S)\s+@\s+(\S.*)$/.exec(t.name);
    if (m) return `${m[1]}@${m[2]}`;
  }
  return t.name;
}

const isMatcher = (v: unknown): v is Matcher =>
  !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).sort().join() === 'name,op,value' && typeof (v as Matcher).value === 'string';

/** `{"name":"hostname","op":"=","value":"cache-01"}, …` (how older lines spelled matchers) as `hostname=cache-01, …`. */
function matchersInWords(value: unknown): string | null {
  let list: unknown = value;
  if (typeof value === 'string') {
    if (!value.trim().startsWith('{')) return null;
    try {
      list = JSON.parse(`[${value}]`);
    } catch {
      return null;
    }
  }
  return Array.isArray(list) && list.length && list.every(isMatcher) ? list.map(matcherText).join(', ') : null;
}

/**
 * A recorded command line as people read it (issue 24 §4): ids replaced by what they named then
 * (`alert.resolve high_cpu_usage@api-01`, `server.toggle-maintenance web-01`), matchers and
 * durations in words (`silence.create hostname=cache-01 --for 2h`), positional arguments without
 * their flag. The stored line is kept for re-running exactly; this one is shown, recalled with ↑
 * and exported beside it. `line` null: the line is built from the recorded input (a run whose
 * line could not be recorded, a browser report); null when there is nothing a person would type.
 */
export function displayLine(
  command: string,
  line: string | null,
  input: unknown,
  targets: readonly NamedTarget[],
  find: (id: string) => CommandShape | undefined,
): string | null {
  const def = find(command);
  if (!def) return line;
  let values: Record<string, unknown>;
  if (line) {
    try {
      values = parseCommandLine(line, find).input;
    } catch {
      return line;
    }
  } else if (input && typeof input === 'object' && !Array.isArray(input)) {
    values = Object.fromEntries(Object.entries(input as Record<string, unknown>).filter(([, v]) => v !== undefined && v !== null && v !== '••••'));
  } else return null;
  const args = def.args ?? [];
  const byId = new Map(targets.map((t) => [t.id.toLowerCase(), t]));
  const named: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const spec = args.find((a) => a.name === name);
    if (typeof value === 'string' && byId.has(value.toLowerCase())) named[name] = targetWord(byId.get(value.toLowerCase())!);
    else if (Array.isArray(value) && spec?.kind === 'entity' && value.every((v) => typeof v === 'string')) named[name] = value.map((v: string) => (byId.has(v.toLowerCase()) ? targetWord(byId.get(v.toLowerCase())!) : v));
    else if (name === 'for' && typeof value === 'number') named[name] = spanWords(value);
    else named[name] = matchersInWords(value) ?? value;
  }
  // Positional arguments first, in their order, while each one before is given; the rest as flags.
  const parts = [def.id];
  const rest = { ...named };
  for (const spec of args.filter((a) => a.positional)) {
    const v = rest[spec.name];
    if (v === undefined || v === null || spec.kind === 'boolean' || spec.kind === 'password') break;
    const text = spell(v);
    if (text.startsWith('-') || text === '') break;
    parts.push(quote(text));
    delete rest[spec.name];
  }
  const flags = commandLineFor(def.id, rest, args).slice(def.id.length).trim();
  return flags ? `${parts.join(' ')} ${flags}` : parts.join(' ');
}
