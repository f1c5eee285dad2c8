import { aliasOf, type AliasDef } from './aliases';
import type { ArgSpec, AnyCommand } from './define-command';
import { quote } from '../server/contract/format-command-line';
import { offersPrintApi, PRINT_API_FLAG } from './print-api';
import { argNamed, tokenize } from '../server/contract/parse-command-line';

export interface Completion {
  /** The line after completing (unchanged when nothing or several things match). */
  line: string;
  /** What matched, to print when there is more than one. */
  candidates: string[];
}

/**
 * An entity value Tab may complete to. A plain string is kept when it starts with the typed word;
 * `{ value, matched }` was matched by the lookup itself (an alert ref found by its host's start:
 * `db` → `high_cpu_usage@db-02`) and is kept as it is.
 */
export type CompletionValue = string | { value: string; matched: true };

function commonPrefix(words: string[]): string {
  if (!words.length) return '';
  let p = words[0]!;
  for (const w of words) while (!w.toLowerCase().startsWith(p.toLowerCase())) p = p.slice(0, -1);
  return p;
}

/**
 * Tab in the command line: completes the word under the cursor (the end of the line) — a command
 * id, an `--argument` name (and `--print-api` where it applies), or a value (enum options, or entity values the caller looks up in the
 * API). With one match the word is replaced; with several the common prefix is kept and the
 * candidates are returned for printing.
 */
export async function completeCommandLine(
  line: string,
  commands: readonly AnyCommand[],
  valuesFor: (arg: ArgSpec, prefix: string) => Promise<readonly CompletionValue[]>,
  aliases: readonly AliasDef[] = [],
): Promise<Completion> {
  // After an alias, complete as its command line would, and give the alias back.
  const alias = /^\s*\S+\s/.test(line) ? aliasOf(line, aliases) : undefined;
  if (alias) {
    const typed = /^\s*\S+/.exec(line)![0];
    const done = await completeCommandLine(`${alias.line}${line.slice(typed.length)}`, commands, valuesFor);
    return { line: `${typed}${done.line.slice(alias.line.length)}`, candidates: done.candidates };
  }
  let words: string[];
  try {
    words = tokenize(line);
  } catch {
    return { line, candidates: [] };
  }
  const endsWithSpace = /\s$/.test(line) || line === '';
  const current = endsWithSpace ? '' : (words.pop() ?? '');
  const head = words.length ? `${line.slice(0, line.length - (endsWithSpace ? 0 : rawTailLength(line)))}` : '';

  let pool: string[];
  /** Values the lookup matched to the word itself (see CompletionValue). */
  let matched: string[] = [];
  if (words.length === 0) {
    // Aliases complete like commands.
    pool = [...commands.map((c) => c.id), ...aliases.map((a) => a.name)];
  } else {
    const def = commands.find((c) => c.id === words[0]);
    if (!def) return { line, candidates: [] };
    const args = def.args ?? [];
    const prev = words[words.length - 1];
    const flag = prev?.startsWith('--') && !prev.includes('=') ? argNamed(args, prev.slice(2)) : undefined;
    const named = flag && flag.kind !== 'boolean' ? flag : undefined;
    if (current.startsWith('--') || (!named && current.startsWith('-'))) {
      const given = new Set(words.filter((w) => w.startsWith('--')));
      // `--print-api` prints the calls as curl instead of running, for commands that make calls.
      pool = [...args.map((a) => `--${a.name}`), ...(offersPrintApi(def) ? [PRINT_API_FLAG] : [])].filter((n) => !given.has(n));
    } else {
      const arg = named ?? positionalAt(def, words.slice(1));
      if (!arg) return { line, candidates: [] };
      if (arg.kind === 'enum') pool = (arg.options ?? []).map((o) => o.value);
      else if (arg.kind === 'boolean') pool = ['true', 'false'];
      else if (arg.kind === 'entity') {
        const values = await valuesFor(arg, current);
        pool = values.flatMap((v) => (typeof v === 'string' ? [v] : []));
        matched = values.flatMap((v) => (typeof v === 'string' ? [] : [v.value]));
      } else return { line, candidates: [] };
    }
  }
  const matches = [...new Set([...matched, ...pool.filter((p) => p.toLowerCase().startsWith(current.toLowerCase()))])];
  if (matches.length === 0) return { line, candidates: [] };
  if (matches.length === 1) return { line: `${head}${quote(matches[0]!)} `, candidates: matches };
  const prefix = commonPrefix(matches);
  // A shared start longer than the word replaces it (`db` → `high_cpu_usage@db-0` for db-01 and db-02).
  return { line: prefix.length > current.length ? `${head}${prefix}` : line, candidates: matches };
}

/** Length of the last word as typed (including its quotes), so completion replaces it whole. */
function rawTailLength(line: string): number {
  const m = /(?:"[^"]*"?|'[^']*'?|[^\s"'])+$/.exec(line);
  return m ? m[0].length : 0;
}

/** Which positional argument the next bare word fills, skipping `--name value` pairs. */
function positionalAt(def: AnyCommand, given: string[]): ArgSpec | undefined {
  const args = def.args ?? [];
  const positional = args.filter((a) => a.positional);
  let count = 0;
  for (let i = 0; i < given.length; i++) {
    const w = given[i]!;
    if (w.startsWith('--')) {
      const spec = argNamed(args, w.slice(2).split('=')[0]!);
      if (spec && spec.kind !== 'boolean' && !w.includes('=')) i++;
    } else count++;
  }
  return positional[count];
}
