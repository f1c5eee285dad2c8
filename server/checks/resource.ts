import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { SecretBox } from '../channels/secret-box';
import { checkTarget, createCheckSchema, updateCheckSchema, type Check, type CheckRuleInput, type CheckRuleKind, type CheckSettings } from '../contract/checks';
import type { Db } from '../db/client';
import { rowCount } from '../db/row-counts';
import { checks } from '../db/schema';
import { conflict } from '../http/errors';
import { sealHeaders, type StoredHeader } from '../monitoring/checks/check-headers';
import type { CheckRunner } from '../monitoring/checks/check-runner';
import type { ResourceDef } from '../routes/resource';
import { checkAuditTarget, checkToApi, enrichChecks, hideDnsAnswers, listCheckItems, seesDnsAnswers, type CheckRow } from './present';
import { changedCheckSettings, checkNameTaken, checkRuleInput, defaultCheckRules, foreignField, newCheckSettings, rowFields, validateCheckSettings, writeRules } from './settings';

type CreateInput = z.output<typeof createCheckSchema>;
type UpdateInput = z.output<typeof updateCheckSchema>;

/**
 * SPEC-style resource `checks` (issue 16): list, many, one, create, update, delete on the shared
 * resource machinery (server/routes/resource.ts). Settings are checked before a change's
 * transaction opens (the outbound policy may resolve a hostname); a change reloads the runner once
 * it is committed. docs/checks.md.
 */
export function checksResource(db: Db, runner: CheckRunner, box: SecretBox, minIntervalS: number): ResourceDef<CheckRow, Check> {
  /** Kind rules, the minimum interval, the outbound policy and the rules' groups: a 400 naming the field. */
  async function checked(s: CheckSettings, rules: Partial<Record<CheckRuleKind, CheckRuleInput>> | undefined): Promise<void> {
    await validateCheckSettings(s, minIntervalS, runner.outbound);
    await checkRuleInput(db, rules);
  }

  return {
    name: 'checks',
    table: checks,
    id: checks.id,
    toApi: checkToApi,
    enrich: (items) => enrichChecks(db, runner.store, items),
    listItems: (ids) => listCheckItems(db, ids),
    forCaller: (items, request) => (seesDnsAnswers(request) ? items : items.map(hideDnsAnswers)),
    total: (d) => rowCount(d, 'checks'),
    read: 'read',
    target: checkAuditTarget,
    conflicts: { checks_name_lc_idx: { field: 'name', message: 'A check with this name already exists' } },
    sortable: {
      createdAt: checks.createdAt,
      name: checks.nameLc as never,
      kind: checks.kind,
      state: checks.state,
      latencyMs: checks.latencyMs,
      lastCheckedAt: checks.lastCheckedAt,
      certExpiresAt: checks.certExpiresAt,
    },
    filterable: {
      name: { column: checks.name, lower: checks.nameLc as never, ops: ['contains', 'eq'] },
      target: { column: checks.target, lower: checks.targetLc as never, ops: ['contains', 'eq'] },
      kind: { column: checks.kind, ops: ['eq', 'in'] },
      state: { column: checks.state, ops: ['eq', 'in'] },
      paused: { column: checks.paused, ops: ['eq'], kind: 'boolean' },
      createdAt: { column: checks.createdAt, ops: ['between'], kind: 'date' },
    },
    search: [{ lower: checks.nameLc as never }, { lower: checks.targetLc as never }],
    defaultSort: { by: 'createdAt', direction: 'desc' },
    create: {
      permission: 'checks.write',
      schema: createCheckSchema,
      async prepare(input: CreateInput) {
        const s = newCheckSettings(input);
        // The id is chosen here: the header values are sealed bound to it.
        const id = randomUUID();
        await checked(s, input.rules);
        return { input, s, id, sealed: sealHeaders(box, id, s.headers) };
      },
      async toRow({ input, s, id, sealed }: { input: CreateInput; s: CheckSettings; id: string; sealed: StoredHeader[] }, { db: tx, user }) {
        if (await checkNameTaken(tx, input.name)) throw conflict(`A check named "${input.name}" already exists`, 'name');
        return { id, name: input.name, ...rowFields(s), headers: sealed, paused: input.paused ?? false, createdBy: user._id };
      },
      async after(created, { db: tx, request, afterCommit }) {
        const input = (request.body ?? {}) as { rules?: Partial<Record<CheckRuleKind, CheckRuleInput>> };
        await writeRules(tx, created.id, input.rules ?? {}, defaultCheckRules(created.kind, created.url));
        afterCommit(() => void runner.reload());
      },
    },
    update: {
      permission: 'checks.write',
      schema: updateCheckSchema,
      async prepare(input: UpdateInput, existing: CheckRow) {
        const s = changedCheckSettings(input, existing, box);
        foreignField(input, s.kind);
        await checked(s, input.rules);
        return { input, s, sealed: input.headers !== undefined ? sealHeaders(box, existing.id, s.headers) : existing.headers };
      },
      async toRow({ input, s, sealed }: { input: UpdateInput; s: CheckSettings; sealed: StoredHeader[] }, existing, { db: tx }) {
        if (input.name !== undefined && (await checkNameTaken(tx, input.name, existing.id))) throw conflict(`A check named "${input.name}" already exists`, 'name');
        const targetChanged = checkTarget(s) !== existing.target;
        return {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...rowFields(s),
          headers: sealed,
          ...(input.paused !== undefined ? { paused: input.paused } : {}),
          // Another target: the last result (and certificate) were about the old one.
          ...(targetChanged ? { state: 'unknown', stateChangedAt: null, lastError: null, latencyMs: null, statusCode: null, certExpiresAt: null, certProblem: null } : {}),
          updatedAt: new Date(),
        };
      },
      async after(updated, { input }: { input: UpdateInput }, { db: tx, afterCommit }) {
        if (input.rules) await writeRules(tx, updated.id, input.rules, null);
        afterCommit(() => void runner.reload());
      },
    },
    remove: {
      permission: 'checks.write',
      async after(removed, { afterCommit }) {
        // Results, rollups, rules and alerts go by cascade.
        afterCommit(() => runner.forget(removed.id));
      },
    },
  };
}
