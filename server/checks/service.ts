import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { CheckHistory, checkHistoryQuerySchema, CheckResult, CheckRun, CheckUptime } from '../contract/checks';
import { isUuid } from '../contract/ids';
import type { Db } from '../db/client';
import { checks } from '../db/schema';
import { badRequest, HttpError, notFound } from '../http/errors';
import type { CheckRunner } from '../monitoring/checks/check-runner';
import { withoutDnsAnswers } from '../monitoring/checks/probe';
import { iso, type CheckRow } from './present';

/** The check with this id, or a 404 naming the id. */
export async function findCheck(db: Db, id: string): Promise<CheckRow> {
  const row = isUuid(id) ? (await db.select().from(checks).where(eq(checks.id, id)).limit(1))[0] : undefined;
  if (!row) throw notFound(`No check with id "${id}"`);
  return row;
}

/**
 * check.run-now: runs the check at once (also a paused one) and answers what the run found; the
 * runner writes the result itself. What a run answers says something about the target (a keyword
 * is there or not): asking again and again is limited per check and across checks
 * (CHECK_RUN_NOW_PER_MINUTE), a 429 whose wait `retryAfter` is told.
 */
export async function runCheckNow(runner: CheckRunner, input: { id: string }, row: CheckRow, retryAfter: (seconds: number) => void): Promise<CheckRun> {
  const refused = await runner.takeRunOnDemand(row.id);
  if (refused) {
    retryAfter(refused.waitS);
    const what = refused.acrossChecks ? `Checks ran on request ${runner.runNowAcrossChecksPerMinute} times` : `"${row.name}" ran on request ${runner.runNowPerMinute} times`;
    throw new HttpError(429, `${what} in the last minute: try again in ${refused.waitS} s`);
  }
  const result = await runner.runNow(row.id);
  if (!result) throw notFound(`No check with id "${input.id}"`);
  return { up: result.up, latencyMs: result.latencyMs, statusCode: result.statusCode, error: result.error, certExpiresAt: iso(result.certExpiresAt), certProblem: result.certProblem };
}

/**
 * A check's latency and state over a range, in about 300 points; beyond the raw results' retention
 * (or from 12 h up) whole hours from the hourly sums.
 */
export async function checkHistory(runner: CheckRunner, retentionHours: number, row: CheckRow, q: z.output<typeof checkHistoryQuerySchema>): Promise<CheckHistory> {
  const spanS = (q.to - q.from) / 1000;
  let step = q.step ?? Math.max(row.intervalS, Math.ceil(spanS / 300));
  const rawSince = Date.now() - retentionHours * 3_600_000;
  if (q.from < rawSince || step >= 3600) step = Math.max(3600, Math.ceil(step / 3600) * 3600);
  if (spanS / step > 11_000) throw badRequest('Too many points: use a larger step (at most 11,000 points)', 'step');
  return runner.store.history(row.id, q.from, q.to, step);
}

/** A check's latest results, newest first; a DNS check's records only for those who see them (seesDnsAnswers). */
export async function recentCheckResults(runner: CheckRunner, row: CheckRow, limit: number, seesAnswers: boolean): Promise<CheckResult[]> {
  const results = await runner.store.recent(row.id, limit);
  return row.kind === 'dns' && !seesAnswers ? results.map((r) => ({ ...r, error: withoutDnsAnswers(r.error) })) : results;
}

/** A check's uptime per day and over 24 hours, 7, 30 and 90 days. */
export async function checkUptime(runner: CheckRunner, row: CheckRow): Promise<CheckUptime> {
  return (await runner.store.uptime([row.id], Date.now())).get(row.id)!;
}
