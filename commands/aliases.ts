/** An alias as the palette and the command line use it (server/contract/aliases.ts). */
export interface AliasDef {
  name: string;
  line: string;
}

/**
 * `ack1h web-01 --note "disk"` → `alert.snooze --for 1h web-01 --note "disk"` when `ack1h` is an
 * alias: its line takes the place of the first word and what follows is kept. Other lines come
 * back unchanged. Alias names have no dot, so a command id is never taken for one.
 */
export function expandAlias(line: string, aliases: readonly AliasDef[]): string {
  const m = /^(\s*)(\S+)/.exec(line);
  if (!m || m[2]!.includes('.')) return line;
  const alias = aliases.find((a) => a.name === m[2]!.toLowerCase());
  return alias ? `${alias.line}${line.slice(m[0].length)}` : line;
}

/** The alias a line starts with, if any. */
export function aliasOf(line: string, aliases: readonly AliasDef[]): AliasDef | undefined {
  const first = /^\s*(\S+)/.exec(line)?.[1]?.toLowerCase();
  return first ? aliases.find((a) => a.name === first) : undefined;
}
