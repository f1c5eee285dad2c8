import type { AnyCommand } from '../../commands/define-command';
import { parseCommandLine } from '../../server/contract/parse-command-line';
import { SECRET_KEYS } from '../../commands/redact';
import type { KeyValue } from './recents';

/**
 * The lines a person typed on the `:` line, newest first, kept in this browser so ↑ recalls them
 * after a reload. History holds only what the server recorded (a run's API writes), so views and
 * refused lines live here; a line that gives a secret (a password, a check's headers) is never
 * kept.
 */
const KEEP = 50;

/** True when the line names a secret argument: parsed where the command is known, by flag name where not. */
export function givesSecret(line: string, lookup: (id: string) => AnyCommand | undefined): boolean {
  try {
    const parsed = parseCommandLine(line, lookup);
    const def = lookup(parsed.id);
    const secret = (def?.args ?? []).filter((a) => a.kind === 'password' || SECRET_KEYS.test(a.name)).map((a) => a.name);
    const input = (parsed.input ?? {}) as Record<string, unknown>;
    if (secret.some((name) => input[name] !== undefined)) return true;
  } catch {
    // Not a line the registry reads: judged by its flags below.
  }
  return line.split(/\s+/).some((word) => word.startsWith('--') && SECRET_KEYS.test(word.slice(2).split('=')[0]!));
}

export function createTypedLines(storage: KeyValue, userId: string) {
  const key = `opsdeck.lines.${userId}`;
  const load = (): string[] => {
    try {
      const saved = JSON.parse(storage.get(key) ?? '[]') as unknown;
      return Array.isArray(saved) ? saved.filter((l): l is string => typeof l === 'string').slice(0, KEEP) : [];
    } catch {
      return [];
    }
  };
  return {
    load,
    /** Puts `line` first (once) and answers the list as kept. */
    add(line: string): string[] {
      const lines = [line, ...load().filter((l) => l !== line)].slice(0, KEEP);
      storage.set(key, JSON.stringify(lines));
      return lines;
    },
  };
}
