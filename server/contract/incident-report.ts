import { z } from 'zod';
import { str } from './common';

/**
 * The incident report (issue 5 §4): a markdown account of a time window — the alerts that were
 * open in it, with their timelines and notes, interleaved with the commands operators ran.
 * `GET /api/incident-report?from&to[&serverId]` answers `{ result: IncidentReport }`.
 */

/** A report covers at most this long: a month of alerts and commands is already a long read. */
export const MAX_REPORT_WINDOW_MS = 31 * 24 * 3_600_000;
/** Beyond these the report lists the first ones (oldest first) and says how many it left out. */
export const MAX_REPORT_ALERTS = 500;
export const MAX_REPORT_COMMANDS = 5000;

/** A zone is required: "09:00" means something else in every office, and the report is in UTC. */
const ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** ISO 8601 with a zone (`2026-11-23T09:00:00Z`, `…+01:00`) or unix milliseconds. */
export function parseReportInstant(value: string): Date | null {
  const text = value.trim();
  if (/^\d{1,15}$/.test(text)) return new Date(Number(text));
  if (!ZONED.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? new Date(ms) : null;
}

const instant = (name: string) =>
  str({ error: `${name} is required: a date-time with a zone, e.g. 2026-11-23T09:00:00Z, or unix milliseconds` })
    .max(64, `${name} is too long`)
    .transform((v, ctx) => {
      const d = parseReportInstant(v);
      if (!d) {
        ctx.addIssue({ code: 'custom', message: `Cannot read "${v}" as a date-time; use ISO 8601 with a zone (2026-11-23T09:00:00Z) or unix milliseconds` });
        return z.NEVER;
      }
      return d;
    });

export const incidentReportQuerySchema = z
  .object({
    from: instant('from'),
    to: instant('to'),
    serverId: z.uuid('serverId must be a server id').optional(),
  })
  .strict()
  .refine((q) => q.to.getTime() > q.from.getTime(), { message: 'The end of the window (to) must be after its start (from)', path: ['to'] })
  .refine((q) => q.to.getTime() - q.from.getTime() <= MAX_REPORT_WINDOW_MS, { message: 'A report covers at most 31 days', path: ['to'] });
export type IncidentReportQuery = z.input<typeof incidentReportQuerySchema>;

export const incidentReportSchema = z.object({
  markdown: str(),
  /** Alerts listed in the report. */
  alerts: z.number().int(),
  /** Commands listed in the report. */
  commands: z.number().int(),
});
export type IncidentReport = z.infer<typeof incidentReportSchema>;
