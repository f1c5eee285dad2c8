import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { AuditScope } from '../audit/trail';
import type { Whoami } from '../contract/auth';
import { MAX_NOTIFICATION_RULES, type NotificationRule, type NotificationRules } from '../contract/contact-methods';
import { isUuid } from '../contract/ids';
import type { Db } from '../db/client';
import { contactMethods, notificationRules } from '../db/schema';
import { badRequest, notFound, pgCode } from '../http/errors';
import { userTarget } from '../users/service';
import { findPerson, methodToApi, type ContactDeps } from './service';

/**
 * A person's notification rules (issue 27 §2): the steps their methods are paged in while an
 * alert stays unacknowledged — "at once: ntfy; after 5 minutes: SMS; after 10: voice". A step
 * names one of the person's own verified methods; removing the method removes its steps.
 * Without steps, every verified method is paged at once (docs/decisions.md).
 */

type MethodRow = typeof contactMethods.$inferSelect;
type RuleRow = typeof notificationRules.$inferSelect;

/** One step as the pager runs it: the delay and the method row to send to. */
export interface RuleStep {
  ruleId: string | null;
  afterMinutes: number;
  method: MethodRow;
}

const ruleTarget = (rule: { id: string | null }, method: Pick<MethodRow, 'label'>, afterMinutes: number) => ({
  kind: 'notification-rule',
  id: rule.id ?? '',
  name: `${method.label} ${afterMinutes === 0 ? 'at once' : `after ${afterMinutes} min`}`,
});

/**
 * The steps that page a person, in order: their stored rules whose method is verified, or, when
 * they have none stored, each verified method at once. Read by the pager and by the list.
 */
export async function effectiveSteps(db: Db, userId: string): Promise<{ steps: RuleStep[]; isDefault: boolean }> {
  const rows = await db
    .select({ rule: notificationRules, method: contactMethods })
    .from(notificationRules)
    .innerJoin(contactMethods, eq(contactMethods.id, notificationRules.contactMethodId))
    .where(eq(notificationRules.userId, userId))
    .orderBy(asc(notificationRules.afterMinutes), asc(notificationRules.createdAt), asc(notificationRules.id));
  if (rows.length) return { steps: rows.filter((r) => r.method.verifiedAt !== null).map((r) => ({ ruleId: r.rule.id, afterMinutes: r.rule.afterMinutes, method: r.method })), isDefault: false };
  const verified = await db
    .select()
    .from(contactMethods)
    .where(and(eq(contactMethods.userId, userId), isNotNull(contactMethods.verifiedAt)))
    .orderBy(asc(contactMethods.createdAt), asc(contactMethods.id));
  return { steps: verified.map((method) => ({ ruleId: null, afterMinutes: 0, method })), isDefault: true };
}

function ruleToApi(deps: ContactDeps, userId: string, rule: Pick<RuleRow, 'id' | 'createdAt'> | null, afterMinutes: number, method: MethodRow): NotificationRule {
  const m = methodToApi(deps, method);
  return { _id: rule?.id ?? null, userId, afterMinutes, method: { _id: m._id, label: m.label, kind: m.kind, target: m.target, verified: m.verified }, createdAt: rule?.createdAt.toISOString() ?? null };
}

export async function listNotificationRules(db: Db, input: { userId: string }, actor: Whoami, deps: ContactDeps): Promise<NotificationRules> {
  const person = await findPerson(db, input.userId, actor);
  // Stored steps are listed whatever their method's state, so a person sees every step they set.
  const rows = await db
    .select({ rule: notificationRules, method: contactMethods })
    .from(notificationRules)
    .innerJoin(contactMethods, eq(contactMethods.id, notificationRules.contactMethodId))
    .where(eq(notificationRules.userId, person.id))
    .orderBy(asc(notificationRules.afterMinutes), asc(notificationRules.createdAt), asc(notificationRules.id));
  if (rows.length) {
    const data = rows.map((r) => ruleToApi(deps, person.id, r.rule, r.rule.afterMinutes, r.method));
    return { data, count: data.length, isDefault: false };
  }
  const { steps } = await effectiveSteps(db, person.id);
  const data = steps.map((s) => ruleToApi(deps, person.id, null, 0, s.method));
  return { data, count: data.length, isDefault: true };
}

/** The person's own method a step names, by id or label; anyone else's or an unknown one is a 400 naming `method`. */
async function methodForRule(db: Db, person: { id: string; username: string }, ref: string): Promise<MethodRow> {
  const trimmed = ref.trim();
  const [row] = await db
    .select()
    .from(contactMethods)
    .where(and(eq(contactMethods.userId, person.id), isUuid(trimmed) ? eq(contactMethods.id, trimmed) : eq(contactMethods.labelLc, trimmed.toLowerCase())))
    .limit(1);
  if (!row) throw badRequest(`method: ${person.username} has no contact method "${trimmed}"`, 'method');
  if (!row.verifiedAt) throw badRequest(`method: "${row.label}" is not verified yet: send it a test message and enter its code first`, 'method');
  return row;
}

/** Adds a step. At most MAX_NOTIFICATION_RULES; one per method and delay. */
export async function addNotificationRule(tx: Db, input: { userId: string; method: string; afterMinutes: number }, actor: Whoami, audit: AuditScope, deps: ContactDeps): Promise<NotificationRule> {
  const person = await findPerson(tx, input.userId, actor);
  audit.target(userTarget(person));
  const method = await methodForRule(tx, person, input.method);
  const existing = await tx.select({ id: notificationRules.id, methodId: notificationRules.contactMethodId, afterMinutes: notificationRules.afterMinutes }).from(notificationRules).where(eq(notificationRules.userId, person.id));
  if (existing.length >= MAX_NOTIFICATION_RULES) throw badRequest(`A person has at most ${MAX_NOTIFICATION_RULES} notification rules`, 'method');
  const duplicate = () => badRequest(`method: "${method.label}" is already paged ${input.afterMinutes === 0 ? 'at once' : `after ${input.afterMinutes} minutes`}`, 'method');
  if (existing.some((r) => r.methodId === method.id && r.afterMinutes === input.afterMinutes)) throw duplicate();
  try {
    const [row] = await tx.insert(notificationRules).values({ userId: person.id, contactMethodId: method.id, afterMinutes: input.afterMinutes }).returning();
    audit.target(ruleTarget(row!, method, row!.afterMinutes));
    return ruleToApi(deps, person.id, row!, row!.afterMinutes, method);
  } catch (error) {
    if (pgCode(error) === '23505') throw duplicate();
    throw error;
  }
}

export async function removeNotificationRule(tx: Db, input: { userId: string; rule: string }, actor: Whoami, audit: AuditScope, deps: ContactDeps): Promise<NotificationRule> {
  const person = await findPerson(tx, input.userId, actor);
  const [found] = isUuid(input.rule)
    ? await tx
        .select({ rule: notificationRules, method: contactMethods })
        .from(notificationRules)
        .innerJoin(contactMethods, eq(contactMethods.id, notificationRules.contactMethodId))
        .where(and(eq(notificationRules.userId, person.id), eq(notificationRules.id, input.rule)))
        .limit(1)
    : [];
  if (!found) throw notFound(`${person.username} has no notification rule "${input.rule}"`);
  audit.target(userTarget(person), ruleTarget(found.rule, found.method, found.rule.afterMinutes));
  await tx.delete(notificationRules).where(eq(notificationRules.id, found.rule.id));
  return ruleToApi(deps, person.id, found.rule, found.rule.afterMinutes, found.method);
}
