import type { FastifyInstance } from 'fastify';
import { audited, auditTarget } from '../audit/trail';
import { checkAuditTarget, presentCheck, seesDnsAnswers } from '../checks/present';
import { checksResource } from '../checks/resource';
import { checkHistory, checkUptime, findCheck, recentCheckResults, runCheckNow } from '../checks/service';
import { endpoints } from '../contract/api-routes';
import type { Db } from '../db/client';
import { serve } from '../http/serve';
import type { Monitoring } from '../monitoring/monitoring';
import { registerResource } from './resource';

/**
 * SPEC-style resource `checks` (issue 16): list, many, one, create, update, delete on the shared
 * resource machinery (server/checks/resource.ts), plus run-now, results history and uptime
 * (server/checks/service.ts). docs/checks.md.
 */
export function registerChecks(app: FastifyInstance, db: Db, monitoring: Monitoring): void {
  const runner = monitoring.checks;
  registerResource(app, db, checksResource(db, runner, app.secretBox, monitoring.settings.checks.minIntervalS));

  /** check.run-now: the run's result with the updated check; 429 past the per-check limit. */
  serve(app, endpoints['checks.runNow'], async ({ params, request, reply }) => {
    const row = await findCheck(db, params.id);
    auditTarget(request, checkAuditTarget(row));
    const run = await runCheckNow(runner, params, row, (seconds) => void reply.header('retry-after', String(seconds)));
    // The runner writes its result itself; the record of who ran it follows in its own transaction.
    await audited(request, db, async () => undefined);
    return { result: await presentCheck(db, runner.store, await findCheck(db, row.id)), run };
  });

  serve(app, endpoints['checks.history'], async ({ params, query }) => ({
    result: await checkHistory(runner, monitoring.settings.checks.retentionHours, await findCheck(db, params.id), query),
  }));

  serve(app, endpoints['checks.results'], async ({ params, query, request }) => ({
    result: await recentCheckResults(runner, await findCheck(db, params.id), query.limit, seesDnsAnswers(request)),
  }));

  serve(app, endpoints['checks.uptime'], async ({ params }) => ({ result: await checkUptime(runner, await findCheck(db, params.id)) }));
}
