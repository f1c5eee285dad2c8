import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  createSilenceSchema,
  MAX_SILENCE_SECONDS,
  silencePreviewRequestSchema,
  updateSilenceSchema,
  matcherText,
  type Matcher,
  type Silence,
  type SilenceState,
} from '../contract/routing';
import type { Db } from '../db/client';
import { silences } from '../db/schema';
import { compileAll } from '../alerting/matchers';
import { previewMatch } from '../alerting/preview';
import { badRequest, conflict, fromZod, notFound } from '../http/errors';
import { requirePermission } from '../http/session';
import { audited, auditTarget } from '../audit/trail';
import { registerResource } from './resource';
import { isUuid } from '../contract/ids';

type SilenceRow = typeof silences.$inferSelect;

export function silenceState(row: Pick<SilenceRow, 'startsAt' | 'endsAt'>, now = Date.now()): SilenceState {
  return row.endsAt.getTime() <= now ? 'expired' : row.startsAt.getTime() > now ? 'pending' : 'active';
}

/** How the audit trail names a silence: by its matchers ("hostname=~web-.*, severity=critical"). */
const silenceTarget = (row: Pick<SilenceRow, 'id' | 'matchers'>) => ({ kind: 'silence', id: row.id, name: row.matchers.map(matcherText).join(', ') });

export function silenceToApi(row: SilenceRow): Silence {
  return {
    _id: row.id,
    id: row.id,
    matchers: row.matchers,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    comment: row.comment,
    createdBy: { _id: row.createdById, username: row.createdByName },
    state: silenceState(row),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Start and end checked together: the end after the start, not over already, at most a year.
 * A start in the past means now (a silence cannot act on the past).
 */
function times(startsAt: Date, endsAt: Date, now: Date, clamp = true): { startsAt: Date; endsAt: Date } {
  const start = clamp && startsAt < now ? now : startsAt;
  if (endsAt.getTime() <= start.getTime()) throw badRequest('endsAt: the end must be after the start (and after now)', 'endsAt');
  if (endsAt.getTime() - start.getTime() > MAX_SILENCE_SECONDS * 1000) throw badRequest('endsAt: a silence lasts at most a year', 'endsAt');
  return { startsAt: start, endsAt };
}

/** Regexes compile (RE2), or a 400 naming `matchers.N.value`. */
const checkMatchers = (matchers: Matcher[]) => void compileAll(matchers);

/**
 * Issue 14 §2 silences: SPEC's generic list / one / create / update, plus expire and a preview
 * of what matchers match now. Every change makes the evaluator look again at once (`changed`).
 */
export function registerSilences(app: FastifyInstance, db: Db, changed: () => void): void {
  registerResource<SilenceRow, Silence>(app, db, {
    name: 'silences',
    table: silences,
    id: silences.id,
    toApi: silenceToApi,
    read: 'read',
    sortable: { createdAt: silences.createdAt, startsAt: silences.startsAt, endsAt: silences.endsAt },
    filterable: {
      // Active and pending: endsAt after now; expired: endsAt before now (docs/alerting.md).
      endsAt: { column: silences.endsAt, ops: ['between'], kind: 'date' },
      startsAt: { column: silences.startsAt, ops: ['between'], kind: 'date' },
      createdByName: { column: silences.createdByName, ops: ['eq', 'contains'] },
    },
    search: [],
    defaultSort: { by: 'endsAt', direction: 'desc' },
    target: silenceTarget,
    create: {
      permission: 'alerts.triage',
      schema: createSilenceSchema,
      async toRow(input, { user }) {
        checkMatchers(input.matchers);
        const now = new Date();
        const start = input.startsAt ? new Date(input.startsAt) : now;
        const end = input.endsAt ? new Date(input.endsAt) : new Date(Math.max(start.getTime(), now.getTime()) + input.durationSeconds * 1000);
        return { matchers: input.matchers, ...times(start, end, now), comment: input.comment, createdById: user._id, createdByName: user.username, createdAt: now, updatedAt: now };
      },
      after: async (_row, { afterCommit }) => afterCommit(changed),
    },
    update: {
      permission: 'alerts.triage',
      schema: updateSilenceSchema,
      async toRow(input, existing) {
        const now = new Date();
        if (silenceState(existing, now.getTime()) === 'expired') throw conflict('This silence has expired; create a new one', 'endsAt');
        if (input.matchers) checkMatchers(input.matchers);
        const start = input.startsAt ? new Date(input.startsAt) : existing.startsAt;
        const end = input.endsAt ? new Date(input.endsAt) : existing.endsAt;
        if (end.getTime() <= now.getTime()) throw badRequest('endsAt: the end must be after now (to end it now, expire it)', 'endsAt');
        return { ...(input.matchers ? { matchers: input.matchers } : {}), ...(input.comment ? { comment: input.comment } : {}), ...times(start, end, now, input.startsAt !== undefined), updatedAt: now };
      },
      after: async (_row, _input, { afterCommit }) => afterCommit(changed),
    },
  });

  app.post<{ Params: { id: string } }>('/api/silences/:id/expire', { preHandler: requirePermission('alerts.triage') }, async (request) => {
    const id = request.params.id;
    const [row] = isUuid(id) ? await db.select().from(silences).where(eq(silences.id, id)) : [];
    if (!row) throw notFound(`No silence with id "${id}"`);
    auditTarget(request, silenceTarget(row));
    const now = new Date();
    if (silenceState(row, now.getTime()) === 'expired') throw conflict('This silence has already expired', 'endsAt');
    const updated = await audited(request, db, async (tx) => {
      const [done] = await tx
        .update(silences)
        .set({ endsAt: now, startsAt: row.startsAt > now ? now : row.startsAt, updatedAt: now })
        .where(eq(silences.id, id))
        .returning();
      return done;
    });
    changed();
    return { result: silenceToApi(updated!) };
  });

  // A preview reads: it is not a change for the audit trail.
  app.post('/api/silences/preview', { preHandler: requirePermission('read'), config: { audit: false } }, async (request) => {
    const parsed = silencePreviewRequestSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    return { result: await previewMatch(db, { matchers: parsed.data.matchers }) };
  });
}
