import * as z from 'zod/mini';
import type { IncidentReportWindow } from '../api/incident-report';
import { parseDateTime, validateCustomRange } from './time-range';

/**
 * The time window of the incident report (issue 5 §4), shared by `incident.report` and the
 * report screen. The report is in UTC, so a date-time typed without a zone is read as UTC.
 */

const MINUTE = 60_000;
const units: Record<string, number> = { s: 1000, m: MINUTE, h: 60 * MINUTE, d: 24 * 60 * MINUTE, w: 7 * 24 * 60 * MINUTE };
const RELATIVE = /^(?:now)?\s*-\s*(\d+(?:\.\d+)?)\s*([smhdw])$/i;

export const reportPresets = [
  { value: '1h', label: 'Last 1 hour', ms: 60 * MINUTE },
  { value: '6h', label: 'Last 6 hours', ms: 6 * 60 * MINUTE },
  { value: '24h', label: 'Last 24 hours', ms: 24 * 60 * MINUTE },
] as const;
export type ReportPreset = (typeof reportPresets)[number]['value'];

/** With no window given the report covers the last 6 hours: most of an on-call incident. */
export const DEFAULT_REPORT_FROM = '-6h';
export const DEFAULT_REPORT_TO = 'now';

/**
 * A point in time for the report, in unix milliseconds, or null when it cannot be read:
 * `now`; relative to now `-30m`, `-6h`, `-2d`, `-1w` (also `now-6h`); ISO 8601 with or without a
 * zone (`2026-11-23T09:00Z`, `2026-11-23 09:00` read as UTC); unix seconds or milliseconds.
 */
export function parseReportTime(value: string | number, now: number): number | null {
  if (typeof value === 'number') return parseDateTime(value, 'utc');
  const text = value.trim();
  if (/^now$/i.test(text)) return now;
  const m = RELATIVE.exec(text);
  if (m) return now - Number(m[1]) * units[m[2]!.toLowerCase()]!;
  // Only dates and unix times from here: Date.parse alone reads "-6" as a year.
  if (!/^(\d+|\d{4}-\d{2}-\d{2}([T ].*)?)$/.test(text)) return null;
  return parseDateTime(text, 'utc');
}

/**
 * Both ends read and checked: the end after the start and at most 31 days (the API's limit).
 * Answers the window or a sentence a person can read.
 */
export function resolveReportWindow(from: string | number | undefined, to: string | number | undefined, now: number): { from: number; to: number } | string {
  const f = parseReportTime(from ?? DEFAULT_REPORT_FROM, now);
  if (f === null) return `Cannot read "${from}" as a start; use e.g. -6h, now or 2026-11-23T09:00Z`;
  const t = parseReportTime(to ?? DEFAULT_REPORT_TO, now);
  if (t === null) return `Cannot read "${to}" as an end; use e.g. now, -1h or 2026-11-23T12:00Z`;
  const valid = validateCustomRange(f, t);
  return valid === true ? { from: f, to: t } : valid;
}

/** The incident-report call for a window (ISO ends), optionally narrowed to one server. */
export function reportCall(window: { from: number; to: number }, serverId: string | undefined): IncidentReportWindow {
  return { from: new Date(window.from).toISOString(), to: new Date(window.to).toISOString(), serverId };
}

/**
 * A URL's window when it does not depend on the moment it is read (both ends absolute, as the
 * links `incident.report` makes): what the route can load before the page opens. A relative one
 * ("-6h") is the page's to resolve, as of its opening.
 */
export function fixedReportWindow(from: string | undefined, to: string | undefined): { from: number; to: number } | null {
  const a = resolveReportWindow(from, to, 0);
  const b = resolveReportWindow(from, to, 86_400_000);
  return typeof a !== 'string' && typeof b !== 'string' && a.from === b.from && a.to === b.to ? a : null;
}

/** The window of a preset ending at `now`. */
export function presetWindow(preset: ReportPreset, now: number): { from: number; to: number } {
  const p = reportPresets.find((x) => x.value === preset)!;
  return { from: now - p.ms, to: now };
}

/** `20261123T090000Z`: ISO 8601's basic form, safe in file names on every system. */
function compactUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
}

/** `incident-20261123T090000Z-20261123T120000Z.md`. */
export function reportFileName(from: number, to: number): string {
  return `incident-${compactUtc(from)}-${compactUtc(to)}.md`;
}

/** The JSON Lines export of the same window's history (the server names it the same way). */
export function historyFileName(from: number, to: number): string {
  return `history-${compactUtc(from)}-${compactUtc(to)}.jsonl`;
}

/** Where the report screen lives; its whole state is in the search. */
export const INCIDENT_REPORT_PATH = '/incident-report';

const optionalText = z.catch(z.optional(z.pipe(z.union([z.string(), z.number()]), z.transform((v) => String(v)))), undefined);
/** `?from&to` as ISO times (or anything parseReportTime reads), `server` a server id. Bad values are dropped. */
export const incidentReportSearchSchema = z.object({ from: optionalText, to: optionalText, server: optionalText });
export type IncidentReportSearch = z.infer<typeof incidentReportSearchSchema>;

/** `/incident-report?from=…&to=…[&server=…]` for a fixed window. */
export function incidentReportHref(window: { from: number; to: number }, serverId?: string): string {
  const params = new URLSearchParams({ from: new Date(window.from).toISOString(), to: new Date(window.to).toISOString() });
  if (serverId) params.set('server', serverId);
  return `${INCIDENT_REPORT_PATH}?${params}`;
}
