import type { CommandShape } from '../contract/arg-spec';
import { displayLine, targetWord } from '../contract/display-line';
import type { AuditTarget } from '../contract/command-history';
import { commandArgs } from './command-args';
import { systemEventCommands } from './system-events';

/** A command as the line parser needs it: its id and argument specs (the generated table). */
export const findCommand = (id: string): CommandShape | undefined => {
  const args = Object.hasOwn(commandArgs, id) ? commandArgs[id] : undefined;
  return args ? { id, args } : undefined;
};

/**
 * A record's line as people read it (names, matchers and spans in words), from the stored line
 * and the targets the server named: what the History panel, ↑ recall, the report and the export
 * show. The stored line stays what re-runs.
 */
export function recordDisplayLine(row: { command: string; commandLine: string | null; input: unknown; targets: unknown; actorKind?: string }): string | null {
  const targets = (row.targets ?? []) as AuditTarget[];
  // What Opsdeck did: the event, the alert by its ref, what it did in words ("via email to …").
  if (row.actorKind === 'system' && (systemEventCommands as readonly string[]).includes(row.command)) {
    const detail = row.input && typeof row.input === 'object' ? (row.input as { detail?: unknown }).detail : null;
    return [row.command, ...targets.map(targetWord), ...(typeof detail === 'string' ? [detail] : [])].join(' ');
  }
  try {
    return displayLine(row.command, row.commandLine, row.input, targets, findCommand);
  } catch {
    return row.commandLine;
  }
}
