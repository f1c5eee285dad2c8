import { z } from 'zod';
import { str } from './common';

/**
 * GET /api/monitoring/health: whether Opsdeck's figures are fresh (issue 12 "never blind").
 * ok: fresh; blind: they stopped (cause says why); unknown: no leader reported lately; off: this
 * console runs without monitoring.
 */
export const monitoringHealthSchema = z.object({
  status: z.enum(['ok', 'blind', 'unknown', 'off']),
  cause: str().nullable(),
  since: str().nullable(),
  lastFreshAt: str().nullable(),
  staleServers: z.number(),
  mode: z.enum(['builtin', 'prometheus']),
  backend: str(),
  checkedAt: str(),
  checkedBy: str(),
  alertId: str().nullable(),
  /** Servers whose exporters answer past SCRAPE_SERIES_LIMIT or SCRAPE_LABEL_LIMIT (state `over_limits`). */
  overLimitServers: z.number().optional(),
  /** The open "Monitoring targets over their limits" alert, while any server is over them. */
  limitsAlertId: str().nullable().optional(),
});
export type MonitoringHealth = z.infer<typeof monitoringHealthSchema>;

/** The groups "Monitoring backend unreachable" goes to: chosen ones, or (null) every group with email on. */
export const monitoringAlertGroupsSchema = z
  .object({
    groupIds: z.array(z.uuid('Each group id must be a UUID')).max(100, 'At most 100 groups').nullable(),
  })
  .strict();
export type MonitoringAlertGroups = z.infer<typeof monitoringAlertGroupsSchema>;

/** What the setting answers: the choice (`groupIds`, null for the default) and the groups it goes to now, in order. */
export const monitoringAlertGroupsAnswerSchema = z.object({
  groupIds: z.array(str()).nullable(),
  effective: z.array(z.object({ _id: str(), name: str() })),
});
export type MonitoringAlertGroupsAnswer = z.infer<typeof monitoringAlertGroupsAnswerSchema>;
