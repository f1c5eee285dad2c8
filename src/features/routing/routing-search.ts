import * as z from 'zod/mini';

/** /notifications/silences: which silences, and the drawer open on one (`edit=<id>` or `edit=new`). */
export const silencesSearchSchema = z.object({
  state: z.optional(z.catch(z.enum(['current', 'expired']), 'current')),
  edit: z.optional(z.string()),
});
export type SilencesSearch = z.infer<typeof silencesSearchSchema>;

/** /notifications/maintenance: list or calendar, the calendar's month (YYYY-MM), and the drawer. */
export const maintenanceSearchSchema = z.object({
  view: z.optional(z.catch(z.enum(['list', 'calendar']), 'list')),
  month: z.optional(z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/))),
  edit: z.optional(z.string()),
});
export type MaintenanceSearch = z.infer<typeof maintenanceSearchSchema>;

/** datetime-local text (the person's local time) ↔ ISO. */
export const toLocalInput = (iso: string | Date) => {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
export const fromLocalInput = (text: string) => (text ? new Date(text).toISOString() : '');
