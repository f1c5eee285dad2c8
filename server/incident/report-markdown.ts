import { commandLineFor } from '../contract/format-command-line';
import { formatDuration } from '../contract/duration';
import { codeSpan, escapeMarkdown, oneLine, parseAlertText, runToMarkdown } from '../contract/alert-text';
import type { TimelineEventType } from '../contract/alerts';

/**
 * The incident report as markdown (issue 5 §4): what an on-call engineer pastes into a
 * post-mortem. Pure, so the route stays a query and this stays testable with a fixed dataset.
 * Everything people typed (notes, hostnames, alert names, command inputs, error messages) is
 * escaped: a note cannot open a heading, a table cell, a code block, a link or HTML.
 */

export type ReportEventType = TimelineEventType;

export interface ReportEvent {
  type: ReportEventType;
  at: Date;
  note: string | null;
  /** Who; null when the evaluator did it. */
  by: string | null;
}

export interface ReportAlert {
  id: string;
  alertname: string;
  hostname: string;
  instance: string;
  /** Plain text (a host's service name may be in it). */
  summary: string;
  /** The host's own names the summary may hold. */
  service: string | null;
  mountpoint: string | null;
  /** The alert's description as the API has it (server/contract/alert-text.ts). */
  description: string;
  severity: string;
  /** Status now (firing, resolved, snoozed). */
  status: string;
  createdAt: Date;
  resolvedAt: Date | null;
  /** Oldest first: the alert's whole timeline, also what happened outside the window. */
  timeline: ReportEvent[];
  /** Opened inside a maintenance window (issue 14 §3): planned, not an incident. */
  plannedDowntime?: { window: string; start: Date | null; end: Date | null } | null;
}

export interface ReportCommand {
  id?: string;
  /** The line as people read it (names, matchers and spans in words): server/audit/display.ts. */
  displayLine?: string | null;
  /** The run this one undid, by its display line; null when it is no undo. */
  undoOf?: string | null;
  at: Date;
  username: string;
  command: string;
  input: unknown;
  outcome: 'ok' | 'error' | 'cancelled' | 'refused';
  error: string | null;
  /** The line the browser ran (server records of command runs); else it is built from `input`. */
  commandLine?: string | null;
  /** What the call touched, named as it was then. */
  targets?: { kind: string; id: string; name: string }[];
  /** client: reported by the browser for a run that made no API write. */
  origin?: 'server' | 'client';
  actorKind?: 'user' | 'token' | 'agent' | 'anonymous' | 'system';
  actorLabel?: string | null;
}

export interface ReportData {
  from: Date;
  to: Date;
  /** The server the report is restricted to, or null for all servers. */
  server: { hostname: string; ipaddress: string } | null;
  generatedAt: Date;
  /** Oldest first. */
  alerts: ReportAlert[];
  /** Oldest first. */
  commands: ReportCommand[];
  /** How many matched in all; more than listed when the report was cut short. */
  totalAlerts: number;
  totalCommands: number;
  /** Occurrences of maintenance windows overlapping the window, oldest first (issue 14 §3). */
  plannedWindows?: { name: string; start: Date; end: Date; covers: string }[];
  /**
   * Set when the window starts before the alert retention cutoff (ALERT_RETENTION_DAYS): alerts
   * resolved before `cutoff` have been deleted with their timelines, so the report says so.
   */
  retention?: { days: number; cutoff: Date } | null;
}

// ---------------------------------------------------------------------------------------------
// Escaping

/**
 * Text on one line: newlines become spaces and every character with inline meaning is
 * backslash-escaped (CommonMark lets any ASCII punctuation be escaped, and `\|` keeps a pipe
 * inside a GFM table cell). `#` is escaped too so a heading's closing `#`s stay text.
 */
export function escapeInline(text: string): string {
  const line = text.replace(/\s*(\r\n?|\n)\s*/g, ' ');
  // GFM links a bare address (name@host, www.…, scheme://…) whatever is escaped in it: only a
  // code span keeps such a word text. Its pipes stay escaped (GFM honours that inside a cell's code).
  return line
    .split(/( +)/)
    .map((word) => (AUTOLINK.test(word) ? codeSpan(word).replace(/\|/g, '\\|') : word.replace(/[\\`*_[\]<>#|~&]/g, (c) => `\\${c}`)))
    .join('');
}

/** What GFM's autolink literals start from: an email address, `www.`, or a URL scheme. */
const AUTOLINK = /[\w.+-]@[\w-]|\bwww\.|[a-z][\w+.-]*:\/\//i;

/**
 * Free text (a note) as the lines of a block quote, line breaks kept: each line escaped as
 * inline text, then what would start a block at the beginning of a line (list markers, a setext
 * underline, an ordered-list number, indentation) made plain too. Returned without the `> `.
 */
export function escapeBlockLines(text: string): string[] {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) =>
      escapeInline(l.trim())
        .replace(/^([-+=])/, '\\$1')
        .replace(/^(\d+)([.)])/, '$1\\$2'),
    );
  while (lines.length && !lines[0]) lines.shift();
  while (lines.length && !lines[lines.length - 1]) lines.pop();
  // A trailing backslash is a hard line break, so consecutive lines do not run together.
  return lines.map((l, i) => (l && lines[i + 1] ? `${l}\\` : l));
}

function quote(text: string, indent: string): string[] {
  return escapeBlockLines(text).map((l) => (l ? `${indent}> ${l}` : `${indent}>`));
}

// ---------------------------------------------------------------------------------------------
// Formatting

/** `2026-11-23 09:10:00`, always UTC. */
export function formatUtc(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/** A span of the report in milliseconds, to the two largest units: `45s`, `12m 5s`, `1h 5m`, `2d 3h`. */
export const spanOf = (ms: number): string => formatDuration(Math.max(0, ms) / 1000, 2);

const eventLabels: Record<ReportEventType, string> = {
  firing: 'Triggered',
  resolved: 'Resolved',
  snoozed: 'Snoozed',
  playbook_action: 'Note',
  acknowledged: 'Acknowledged',
  unacknowledged: 'Acknowledgement released',
};
/** Events that change what an alert is (firing, resolved, snoozed); notes and acknowledgements do not. */
const STATUS_EVENTS: ReadonlySet<ReportEventType> = new Set(['firing', 'resolved', 'snoozed']);
const statusLabels: Record<string, string> = { firing: 'Active', resolved: 'Resolved', snoozed: 'Snoozed' };
const statusLabel = (s: string) => statusLabels[s] ?? s;

/** The evaluator has no account; it shows under the product's name. */
const SYSTEM = 'Opsdeck';

function inWindow(d: Date, data: ReportData): boolean {
  return d.getTime() >= data.from.getTime() && d.getTime() <= data.to.getTime();
}

/** Firing, resolved or snoozed as of the end of the window (a note changes nothing). */
function statusAtEnd(alert: ReportAlert, to: Date): string {
  let status = alert.createdAt.getTime() <= to.getTime() ? 'firing' : 'none';
  for (const e of alert.timeline) if (STATUS_EVENTS.has(e.type) && e.at.getTime() <= to.getTime()) status = e.type;
  return status;
}

function commandLine(c: ReportCommand): string {
  if (c.displayLine) return c.displayLine;
  if (c.commandLine) return c.commandLine;
  // A call made without a command (curl, a script) has no line: its command is "METHOD /api/…".
  if (c.origin === 'server' && !c.input) return c.command;
  const input = c.input && typeof c.input === 'object' && !Array.isArray(c.input) ? (c.input as Record<string, unknown>) : {};
  return commandLineFor(c.command, input);
}

/** The line, then what it touched by name: "… (server web-01, alert high_cpu_usage @ web-01)". */
function whatText(c: ReportCommand): string {
  // An undo reads as one: "undo of alert.resolve high_cpu_usage@api-01", not the reopening it made.
  if (c.undoOf) return `undo of ${c.undoOf}`;
  // A line with names says what it touched; a call without one (curl) names its targets after it.
  if (c.displayLine) return c.displayLine;
  const targets = c.targets ?? [];
  return targets.length ? `${commandLine(c)} (${targets.map((t) => `${t.kind} ${t.name}`).join(', ')})` : commandLine(c);
}

/** A person's alert event made by one of their runs: within a few seconds, by them, naming the alert. */
const CAUSED_WITHIN_MS = 5000;
function causedBy(e: ReportEvent, alertId: string, commands: readonly ReportCommand[]): ReportCommand | undefined {
  if (!e.by) return undefined;
  // The nearest such run: the one that made it wrote it in the same transaction, milliseconds apart.
  let best: ReportCommand | undefined;
  for (const c of commands) {
    const gap = Math.abs(c.at.getTime() - e.at.getTime());
    if (c.username !== e.by || c.outcome !== 'ok' || c.origin === 'client' || gap > CAUSED_WITHIN_MS) continue;
    if (!(c.targets ?? []).some((t) => t.kind === 'alert' && t.id === alertId)) continue;
    if (!best || gap < Math.abs(best.at.getTime() - e.at.getTime())) best = c;
  }
  return best;
}

function whoText(c: ReportCommand): string {
  if (c.actorKind === 'token' && c.actorLabel) return `${c.username} (token ${c.actorLabel})`;
  return c.username;
}

function outcomeText(c: ReportCommand): string {
  const text = c.error && c.outcome !== 'ok' ? `${c.outcome}: ${c.error}` : c.outcome;
  return c.origin === 'client' ? `${text} (client-reported)` : text;
}

/**
 * The summary with the host's own text (a service, a mountpoint) in code spans, as descriptions
 * have it: escaping alone does not stop GFM renderers from linking a bare address a host sent.
 */
function summaryMarkdown(a: ReportAlert): string {
  const own = [a.service, a.mountpoint].map((v) => (v ? oneLine(v) : '')).filter((v) => !!v && a.summary.includes(v));
  if (!own.length) return escapeMarkdown(a.summary);
  const [first] = own.sort((x, y) => y.length - x.length);
  return a.summary.split(first!).map(escapeMarkdown).join(codeSpan(first!));
}

const cell = (text: string) => escapeInline(text) || ' ';
const alertTitle = (a: ReportAlert) => `${escapeInline(a.alertname)} on ${escapeInline(a.hostname)}`;

// ---------------------------------------------------------------------------------------------
// The report

export function buildIncidentMarkdown(data: ReportData): string {
  const out: string[] = [];
  const scope = data.server ? `${escapeInline(data.server.hostname)} (${escapeInline(data.server.ipaddress)})` : 'all servers';
  out.push(`# Incident report: ${scope}, ${formatUtc(data.from)} to ${formatUtc(data.to)} UTC`, '');
  out.push(`Window: ${formatUtc(data.from)} UTC to ${formatUtc(data.to)} UTC (${spanOf(data.to.getTime() - data.from.getTime())}). Generated ${formatUtc(data.generatedAt)} UTC. All times are UTC.`, '');

  // Summary ------------------------------------------------------------------------------------
  const fired = data.alerts.filter((a) => inWindow(a.createdAt, data) || a.timeline.some((e) => e.type === 'firing' && inWindow(e.at, data))).length;
  const resolved = data.alerts.filter((a) => a.timeline.some((e) => e.type === 'resolved' && inWindow(e.at, data))).length;
  const open = data.alerts.filter((a) => statusAtEnd(a, data.to) !== 'resolved').length;
  const hosts = [...new Set(data.alerts.map((a) => a.hostname))].sort();
  const people = new Set<string>(data.commands.map((c) => c.username));
  for (const a of data.alerts) for (const e of a.timeline) if (e.by && inWindow(e.at, data)) people.add(e.by);
  const outcomes = (['ok', 'error', 'refused', 'cancelled'] as const).map((o) => [o, data.commands.filter((c) => c.outcome === o).length] as const).filter(([, n]) => n > 0);

  out.push('## Summary', '');
  out.push(`- **Alerts:** ${data.alerts.length} (${fired} fired in the window, ${resolved} resolved in the window, ${open} still open at its end)`);
  out.push(`- **Hosts involved:** ${hosts.length ? hosts.map(escapeInline).join(', ') : 'none'}`);
  out.push(`- **Commands run:** ${data.commands.length}${outcomes.length ? ` (${outcomes.map(([o, n]) => `${n} ${o}`).join(', ')})` : ''}`);
  out.push(`- **People involved:** ${people.size ? [...people].sort().map(escapeInline).join(', ') : 'none'}`);
  const planned = data.alerts.filter((a) => a.plannedDowntime).length;
  const windows = data.plannedWindows ?? [];
  if (windows.length || planned) {
    const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
    out.push(`- **Planned downtime:** ${plural(windows.length, 'maintenance window', 'maintenance windows')}; ${plural(planned, 'alert', 'alerts')} opened during planned downtime (not counted as incidents)`);
    out.push(`- **Unplanned alerts:** ${data.alerts.length - planned}`);
  }
  out.push('');
  if (data.totalAlerts > data.alerts.length) out.push(`_Only the first ${data.alerts.length} of ${data.totalAlerts} alerts are listed; choose a shorter window or one server to see the rest._`, '');
  if (data.totalCommands > data.commands.length) out.push(`_Only the first ${data.commands.length} of ${data.totalCommands} commands are listed; choose a shorter window or one server to see the rest._`, '');
  if (data.retention) {
    out.push(
      `_Alerts are kept for ${data.retention.days} days after they resolve: alerts resolved before ${formatUtc(data.retention.cutoff)} UTC, and their timelines, have been deleted, so this window may miss some._`,
      '',
    );
  }

  // Planned downtime ---------------------------------------------------------------------------
  if (windows.length) {
    out.push('## Planned downtime', '');
    for (const w of windows) out.push(`- ${formatUtc(w.start)} UTC to ${formatUtc(w.end)} UTC: maintenance window “${escapeInline(w.name)}” (${spanOf(w.end.getTime() - w.start.getTime())}; ${escapeInline(w.covers)})`);
    out.push('');
  }

  // Alerts -------------------------------------------------------------------------------------
  out.push('## Alerts', '');
  if (!data.alerts.length) out.push('No alerts were open in this window.', '');
  for (const a of data.alerts) {
    out.push(`### ${alertTitle(a)}${a.plannedDowntime ? ' (planned downtime)' : ''}`, '');
    out.push(`- **Host:** ${escapeInline(a.hostname)} (${escapeInline(a.instance)})`);
    const p = a.plannedDowntime;
    if (p) out.push(`- **Planned downtime:** opened inside maintenance window “${escapeInline(p.window)}”${p.start && p.end ? ` (${formatUtc(p.start)} UTC to ${formatUtc(p.end)} UTC)` : ''}`);
    if (a.summary.trim()) out.push(`- **Summary:** ${summaryMarkdown(a)}`);
    // Written again from its runs: a host's text in code spans, on the list item's one line.
    const description = parseAlertText(a.description).map((paragraph) => paragraph.map(runToMarkdown).join('')).join(' ');
    if (description) out.push(`- **Description:** ${description}`);
    out.push(`- **Severity:** ${escapeInline(a.severity)}`);
    out.push(`- **Status now:** ${statusLabel(a.status)}`);
    out.push(`- **Fired:** ${formatUtc(a.createdAt)} UTC`);
    if (a.status === 'resolved' && a.resolvedAt) {
      out.push(`- **Resolved:** ${formatUtc(a.resolvedAt)} UTC`);
      out.push(`- **Duration:** ${spanOf(a.resolvedAt.getTime() - a.createdAt.getTime())}`);
    } else {
      out.push('- **Resolved:** not yet');
      out.push(`- **Duration:** open for ${spanOf(data.to.getTime() - a.createdAt.getTime())} at the end of the window`);
    }
    out.push('', '**Timeline**', '');
    if (!a.timeline.length) out.push('- No events recorded.');
    for (const e of a.timeline) {
      out.push(`- ${formatUtc(e.at)} UTC: ${eventLabels[e.type]}${e.by ? ` by ${escapeInline(e.by)}` : ''}`);
      if (e.note?.trim()) out.push(...quote(e.note, '  '));
    }
    out.push('');
  }

  // Timeline -----------------------------------------------------------------------------------
  type Row = { at: number; order: number; who: string; what: string; outcome: string };
  const rows: Row[] = [];
  let order = 0;
  // One row per happening: a run and the alert event it caused are the run's row when its line
  // says what was done, else (a call made without a command) the event's, which says it in words.
  const folded = new Set<ReportCommand>();
  for (const a of data.alerts) {
    for (const e of a.timeline) {
      if (!inWindow(e.at, data)) continue;
      const cause = causedBy(e, a.id, data.commands);
      if (cause?.displayLine) continue;
      if (cause) folded.add(cause);
      const what =
        e.type === 'playbook_action'
          ? `Note on alert ${a.alertname} on ${a.hostname}`
          : STATUS_EVENTS.has(e.type)
            ? `Alert ${a.alertname} on ${a.hostname} ${e.type === 'firing' ? `fired${a.plannedDowntime ? ' (planned downtime)' : ''}` : e.type}`
            : `${eventLabels[e.type]}: alert ${a.alertname} on ${a.hostname}`;
      const outcome = e.type === 'playbook_action' ? 'noted' : STATUS_EVENTS.has(e.type) ? statusLabel(e.type) : e.type;
      rows.push({ at: e.at.getTime(), order: order++, who: e.by ?? SYSTEM, what: e.note?.trim() ? `${what}: ${e.note.trim()}` : what, outcome });
    }
  }
  for (const c of data.commands) if (!folded.has(c)) rows.push({ at: c.at.getTime(), order: order++, who: whoText(c), what: whatText(c), outcome: outcomeText(c) });
  rows.sort((x, y) => x.at - y.at || x.order - y.order);

  out.push('## Timeline', '');
  if (!rows.length) out.push('Nothing happened in this window.');
  else {
    out.push('| Time (UTC) | Who | What | Outcome |', '| --- | --- | --- | --- |');
    for (const r of rows) out.push(`| ${formatUtc(new Date(r.at))} | ${cell(r.who)} | ${cell(r.what)} | ${cell(r.outcome)} |`);
  }
  out.push('');
  return out.join('\n');
}
