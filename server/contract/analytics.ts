import { z } from 'zod';
import { str } from './common';

/**
 * SPEC §7 Analytics and §3 Summaries: what the home dashboard reads. Every call answers
 * `{ result }` like the rest of the API; the row lists are `{ result: { data, count } }` (SPEC
 * calls them "data list"), so a list reads the same here as in `POST /api/{resource}/all`.
 * docs/decisions.md "Dashboard" says which servers count and what each figure means.
 */

/** SPEC §9 usage thresholds; the dashboard offers these, the API accepts any whole percent. */
export const usageThresholds = [90, 80, 70, 60] as const;
export type UsageThreshold = (typeof usageThresholds)[number];
export const DEFAULT_THRESHOLD: UsageThreshold = 90;

/** `?percentage=n`: a whole number 0–100, default 90; anything else is a 400 naming `percentage`. */
export const percentageQuerySchema = z
  .object({
    percentage: str()
      .regex(/^\d{1,3}$/, 'must be a whole number from 0 to 100')
      .transform(Number)
      .refine((n) => n <= 100, 'must be a whole number from 0 to 100')
      .optional(),
  })
  .strict();

/** High CPU row. `mode` says what `value` measures: always 'busy' (every CPU mode but idle, docs/metrics.md). */
export const cpuUsageRowSchema = z.object({
  serverId: str(),
  hostname: str(),
  ipaddress: str(),
  value: z.number(),
  mode: z.literal('busy'),
});
export type CpuUsageRow = z.infer<typeof cpuUsageRowSchema>;

/** High memory row: percent used. Memory has no mountpoint; the field is SPEC's and always null. */
export const memoryUsageRowSchema = z.object({
  serverId: str(),
  hostname: str(),
  ipaddress: str(),
  value: z.number(),
  mountpoint: z.null(),
});
export type MemoryUsageRow = z.infer<typeof memoryUsageRowSchema>;

/**
 * High disk row. `value` follows the original back end that SPEC's display rule was written
 * for: Linux rows carry the percent *available* of `/`, Windows rows the percent used of the
 * lettered volumes together (mountpoint null). `diskUsedPercent` turns either into percent used.
 */
export const diskUsageRowSchema = z.object({
  serverId: str(),
  hostname: str(),
  ipaddress: str(),
  value: z.number(),
  mountpoint: str().nullable(),
  os: z.enum(['linux', 'windows']),
});
export type DiskUsageRow = z.infer<typeof diskUsageRowSchema>;

export const nodesSummarySchema = z.object({
  total_nodes: z.number().int(),
  total_nodes_up: z.number().int(),
  total_nodes_down: z.number().int(),
});
export type NodesSummary = z.infer<typeof nodesSummarySchema>;

export const alertsSummarySchema = z.object({
  total_alerts: z.number().int(),
  total_alerts_firing: z.number().int(),
  total_alerts_resolved: z.number().int(),
});
export type AlertsSummary = z.infer<typeof alertsSummarySchema>;

export const serviceDownRowSchema = z.object({
  serverId: str(),
  hostname: str(),
  ipaddress: str(),
  service: str(),
});
export type ServiceDownRow = z.infer<typeof serviceDownRowSchema>;

/** `downtime`: whole seconds since the server was first seen down in this outage. */
export const downServerRowSchema = z.object({
  serverId: str(),
  hostname: str(),
  ipaddress: str(),
  downtime: z.number().int(),
});
export type DownServerRow = z.infer<typeof downServerRowSchema>;

const rowsResult = <T extends z.ZodTypeAny>(row: T) => z.object({ result: z.object({ data: z.array(row), count: z.number().int() }) });
export const cpuUsageResultSchema = rowsResult(cpuUsageRowSchema);
export const memoryUsageResultSchema = rowsResult(memoryUsageRowSchema);
export const diskUsageResultSchema = rowsResult(diskUsageRowSchema);
export const servicesDownResultSchema = rowsResult(serviceDownRowSchema);
export const downServersResultSchema = rowsResult(downServerRowSchema);
export const nodesSummaryResultSchema = z.object({ result: nodesSummarySchema });
export const alertsSummaryResultSchema = z.object({ result: alertsSummarySchema });

export type Rows<T> = { result: { data: T[]; count: number } };

/** SPEC §2: "the value for Windows hosts and 100 minus the value for others" = percent used. */
export function diskUsedPercent(row: Pick<DiskUsageRow, 'value' | 'os'>): number {
  return row.os === 'windows' ? row.value : 100 - row.value;
}
