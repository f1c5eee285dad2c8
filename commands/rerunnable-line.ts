import { deepEqual } from './deep-equal';
import type { AnyCommand } from './define-command';
import { commandLineFor, spell } from '../server/contract/format-command-line';
import { parseCommandLine } from '../server/contract/parse-command-line';
import { SECRET_KEYS } from './redact';

/**
 * The command line of a run, when it re-runs exactly as written (issue 13): parsing it back gives
 * an input the command's schema reads the same as the one the run was given. Null when it would
 * not (a field the command line cannot name, a value it cannot spell): then the run is recorded
 * without a line rather than with a wrong one. Secrets are left out of the line: password
 * arguments and those the log redacts by name (a check's headers).
 */
export function rerunnableLine(def: AnyCommand, rawInput: unknown): string | null {
  if (rawInput === null || rawInput === undefined) rawInput = {};
  if (typeof rawInput !== 'object' || Array.isArray(rawInput)) return null;
  const args = def.args ?? [];
  const secret = new Set(args.filter((a) => a.kind === 'password' || SECRET_KEYS.test(a.name)).map((a) => a.name));
  const given = Object.fromEntries(Object.entries(rawInput as Record<string, unknown>).filter(([k, v]) => !secret.has(k) && v !== undefined && v !== null));
  const line = commandLineFor(def.id, given, args);
  let back: Record<string, unknown>;
  try {
    back = parseCommandLine(line, (id) => (id === def.id ? def : undefined)).input;
  } catch {
    return null;
  }
  const a = def.input.safeParse(given);
  const b = def.input.safeParse(back);
  if (a.success && b.success) return deepEqual(a.data, b.data) ? line : null;
  // Input the command refuses, or one without the secret the line leaves out: the line is
  // faithful when it spells every value as given.
  const spelled = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, spell(v)]));
  return deepEqual(spelled(given), spelled(back)) ? line : null;
}
