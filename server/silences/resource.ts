import { createSilenceSchema, matcherText, MAX_SILENCE_SECONDS, updateSilenceSchema, type Matcher, type Silence, type SilenceState } from '../contract/routing';
import { compileAll } from '../alerting/matchers';
import { silences } from '../db/schema';
import { badRequest, conflict } from '../http/errors';
import type { ResourceDef } from '../routes/resource';

export type SilenceRow = typeof silences.$inferSelect;

export function silenceState(row: Pick<SilenceRow, 'startsAt' | 'endsAt'>, now = Date.now()): SilenceState {
  return row.endsAt.getTime() <= now ? 'expired' : row.startsAt.getTime() > now ? 'pending' : 'active';
}

/** How the audit trail names a silence: by its matchers ("hostname=~web-.*, severity=critical"). */
export const silenceTarget = (row: Pick<SilenceRow, 'id' | 'matchers'>) => ({ kind: 'silence', id: row.id, name: row.matchers.map(matcherText).join(', ') });

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
 * Issue 14 §2 silences as SPEC's generic list / one / create / update. Every change makes the
 * evaluator look again at once (`changed`, after the commit).
 */
export function silenceResource(changed: () => void): ResourceDef<SilenceRow, Silence> {
  return {
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
  };
}
