import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { PersonalChannels } from '../alerting/delivery';
import type { AuditScope } from '../audit/trail';
import { refusals, type GroupTarget, type Outcome } from '../channels/group-targets';
import { pluginFor } from '../channels/index';
import { maskSecrets, secretValues } from '../channels/store';
import { SecretUnreadable, type SecretBox } from '../channels/secret-box';
import type { ChannelTarget, TargetOf, PersonalChannel } from '../channels/types';
import type { Whoami } from '../contract/auth';
import {
  contactKindLabels,
  contactMethodInputSchema,
  MAX_CONTACT_METHODS,
  VERIFY_CODE_DIGITS,
  VERIFY_CODE_TTL_S,
  VERIFY_MAX_ATTEMPTS,
  type ContactKind,
  type ContactMethod,
  type ContactMethodConfig,
  type ContactTestResult,
} from '../contract/contact-methods';
import { isUuid } from '../contract/ids';
import { can } from '../contract/permissions';
import type { Db } from '../db/client';
import { contactMethods, users } from '../db/schema';
import { badRequest, conflict, forbidden, notFound, pgCode } from '../http/errors';
import type { OutboundPolicy } from '../outbound/policy';
import { userTarget } from '../users/service';

/**
 * People's contact methods (issue 27 §2): each person's own, an admin's for anyone. A method is
 * sent through its kind's channel plugin (server/channels/), with the console's mailer and its
 * Slack, Pushover and Twilio settings (`PersonalChannels`); secrets are sealed with the channel
 * secret box and answered masked. Verification: a test message carries a 6-digit code, kept as
 * its hash for 15 minutes; entering it marks the method verified. Wrong codes count, and the
 * fifth voids the code; a wrong or expired code changes nothing else.
 */

type Row = typeof contactMethods.$inferSelect;
type Person = { id: string; username: string };

/** What the service needs beside the database: the secret box and the console's channels. */
export interface ContactDeps {
  box: SecretBox;
  channels: PersonalChannels;
}

/** How the audit trail names a method: by its label. */
const methodTarget = (row: Pick<Row, 'id' | 'label'>) => ({ kind: 'contact-method', id: row.id, name: row.label });

/** The person whose methods these are: oneself, or anyone for an admin (users.write); a 404 for an admin naming nobody. */
export async function findPerson(db: Db, userId: string, actor: Whoami): Promise<Person> {
  if (userId !== actor._id && !can(actor.role, 'users.write')) throw forbidden("Only Admin accounts can manage another person's contact methods.");
  const [row] = isUuid(userId) ? await db.select({ id: users.id, username: users.username }).from(users).where(eq(users.id, userId)).limit(1) : [];
  if (!row) throw notFound(`No user with id "${userId}"`);
  return row;
}

/** The person and one of their methods, as a change names them in the audit trail before it runs. */
export async function findContactMethod(db: Db, input: { userId: string; method: string }, actor: Whoami): Promise<{ person: Person; row: Row }> {
  const person = await findPerson(db, input.userId, actor);
  return { person, row: await findMethod(db, person, input.method) };
}

/** How the audit trail names a change to a method: the person, then the method by its label. */
export const contactTargets = (found: { person: Person; row: Pick<Row, 'id' | 'label'> }) => [userTarget(found.person), methodTarget(found.row)];

/** One of the person's methods, by id or label (any case). */
export async function findMethod(db: Db, person: Person, ref: string): Promise<Row> {
  const where = isUuid(ref) ? eq(contactMethods.id, ref) : sql`${contactMethods.labelLc} = ${ref.trim().toLowerCase()}`;
  const [row] = await db.select().from(contactMethods).where(and(eq(contactMethods.userId, person.id), where)).limit(1);
  if (!row) throw notFound(`${person.username} has no contact method "${ref}"`);
  return row;
}

type Opened = { config: ContactMethodConfig; secrets: string[]; error: null } | { config: null; secrets: []; error: string };

function openMethod(box: SecretBox, row: Row): Opened {
  try {
    const secrets = JSON.parse(box.open(row.secrets, row.id)) as Record<string, unknown>;
    const parsed = contactMethodInputSchema.safeParse({ kind: row.kind, label: row.label, settings: row.settings, secrets });
    if (!parsed.success) return { config: null, secrets: [], error: `The stored contact method "${row.label}" is not valid any more: ${parsed.error.issues[0]?.message ?? 'unknown'}` };
    return { config: parsed.data, secrets: secretValues(secrets), error: null };
  } catch (error) {
    return { config: null, secrets: [], error: error instanceof SecretUnreadable ? error.message : `The contact method's secrets cannot be read: ${(error as Error).message}` };
  }
}

/** The method as its kind's plugin sends to it. */
function pluginTarget(config: ContactMethodConfig, id: string, channels: PersonalChannels): TargetOf<GroupTarget['channel']> {
  const name = config.label;
  switch (config.kind) {
    case 'email':
      return { type: 'email', id: 'email', name, to: [config.settings.address], mailer: channels.mailer };
    case 'slack':
      return { type: 'slack', id: 'slack', name, channel: config.settings.memberId, token: channels.slackBotToken, apiUrl: channels.slackApiUrl };
    case 'pushover':
      return { type: 'pushover', id, name, userKey: config.secrets.userKey, device: config.settings.device, token: channels.pushoverAppToken, apiUrl: channels.pushoverApiUrl };
    case 'sms':
    case 'voice':
      return { type: config.kind, id, name, to: config.settings.phone, twilio: channels.twilio };
    case 'ntfy':
    case 'telegram':
    case 'webhook': {
      const { kind, label, ...rest } = config;
      return { ...rest, type: kind, name: label, id } as ChannelTarget;
    }
  }
}

const channelOf = (kind: ContactKind): GroupTarget['channel'] => kind as PersonalChannel;

/** The method as the delivery code's targets are: a plugin, its target, the secrets to redact. */
export function sendTarget(deps: ContactDeps, row: Row): GroupTarget {
  const opened = openMethod(deps.box, row);
  return { channel: channelOf(row.kind as ContactKind), channelId: row.id, name: row.label, ref: row.id, config: opened.config && pluginTarget(opened.config, row.id, deps.channels), error: opened.error, secretValues: opened.secrets };
}

export function methodToApi(deps: ContactDeps, row: Row, now = Date.now()): ContactMethod {
  const opened = openMethod(deps.box, row);
  const open = row.codeHash && row.codeExpiresAt && row.codeExpiresAt.getTime() > now && row.codeAttempts < VERIFY_MAX_ATTEMPTS;
  const base = {
    _id: row.id,
    userId: row.userId,
    kind: row.kind as ContactKind,
    label: row.label,
    settings: row.settings as ContactMethod['settings'],
    verified: row.verifiedAt !== null,
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    codeExpiresAt: open ? row.codeExpiresAt!.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  };
  if (!opened.config) return { ...base, secrets: {}, target: opened.error };
  const config = pluginTarget(opened.config, row.id, deps.channels);
  return { ...base, secrets: maskSecrets(opened.config), target: `${contactKindLabels[opened.config.kind]}: ${pluginFor(config.type).target(config as never)}` };
}

export async function listContactMethods(db: Db, input: { userId: string }, actor: Whoami, deps: ContactDeps): Promise<ContactMethod[]> {
  const person = await findPerson(db, input.userId, actor);
  const rows = await db.select().from(contactMethods).where(eq(contactMethods.userId, person.id)).orderBy(asc(contactMethods.createdAt), asc(contactMethods.id));
  return rows.map((r) => methodToApi(deps, r));
}

/** The outbound policy on the URLs the person chose (a webhook, their own ntfy server): a 400 naming the field. */
export async function refuseContactEndpoints(outbound: OutboundPolicy, config: ContactMethodConfig, channels: PersonalChannels): Promise<void> {
  const target = pluginTarget(config, 'new', channels);
  for (const { field, url } of pluginFor(target.type).endpoints(target as never)) {
    const refused = await outbound.urlRefusal(url, 'channel');
    if (refused) throw badRequest(`${field}: ${refused}`, field);
  }
}

const labelTaken = (label: string) => conflict(`You already have a contact method labelled "${label}"`, 'label');

/** Adds a method, unverified: at most MAX_CONTACT_METHODS per person, labels unique per person (any case). */
export async function addContactMethod(tx: Db, input: { userId: string; config: ContactMethodConfig }, actor: Whoami, audit: AuditScope, deps: ContactDeps): Promise<ContactMethod> {
  const { config } = input;
  const person = await findPerson(tx, input.userId, actor);
  audit.target(userTarget(person));
  const existing = await tx.select({ label: contactMethods.label }).from(contactMethods).where(eq(contactMethods.userId, person.id));
  if (existing.length >= MAX_CONTACT_METHODS) throw badRequest(`A person has at most ${MAX_CONTACT_METHODS} contact methods`, 'kind');
  if (existing.some((m) => m.label.toLowerCase() === config.label.toLowerCase())) throw labelTaken(config.label);
  const id = randomUUID();
  try {
    const [row] = await tx
      .insert(contactMethods)
      .values({ id, userId: person.id, kind: config.kind, label: config.label, settings: config.settings as Record<string, unknown>, secrets: deps.box.seal(JSON.stringify(config.secrets), id) })
      .returning();
    audit.target(methodTarget(row!));
    return methodToApi(deps, row!);
  } catch (error) {
    if (pgCode(error) === '23505') throw labelTaken(config.label);
    throw error;
  }
}

export async function removeContactMethod(tx: Db, input: { userId: string; method: string }, actor: Whoami, audit: AuditScope, deps: ContactDeps): Promise<ContactMethod> {
  const person = await findPerson(tx, input.userId, actor);
  const row = await findMethod(tx, person, input.method);
  audit.target(...contactTargets({ person, row }));
  await tx.delete(contactMethods).where(eq(contactMethods.id, row.id));
  return methodToApi(deps, row);
}

const codeHash = (methodId: string, code: string) => createHash('sha256').update(`${methodId}:${code}`).digest('hex');

/** The words of a verification message: on a screen, and as a voice call says them (digit by digit). */
function verificationNotice(label: string, code: string) {
  const minutes = Math.round(VERIFY_CODE_TTL_S / 60);
  return {
    title: 'Opsdeck verification code',
    text: `Your Opsdeck verification code for "${label}" is ${code}. Enter it in Account Settings within ${minutes} minutes. If you did not ask for it, ignore this message.`,
    spoken: `Your Opsdeck verification code is ${code.split('').join(', ')}. Again: ${code.split('').join(', ')}.`,
  };
}

/** A test send, before it is recorded: what the provider said, and the code it carried when it took it. */
export interface SentTest {
  person: Person;
  row: Row;
  outcome: Outcome;
  code: string | null;
}

/**
 * "Send test message": a fresh code through the method's plugin, now, outside any transaction
 * (the send may take seconds). Only a code the provider took is kept (`recordContactTest`).
 */
export async function sendContactTest(db: Db, input: { userId: string; method: string }, actor: Whoami, deps: ContactDeps, send: (t: GroupTarget, notice: ReturnType<typeof verificationNotice>) => Promise<Outcome>): Promise<SentTest> {
  const person = await findPerson(db, input.userId, actor);
  const row = await findMethod(db, person, input.method);
  const code = String(randomInt(0, 10 ** VERIFY_CODE_DIGITS)).padStart(VERIFY_CODE_DIGITS, '0');
  const outcome = await send(sendTarget(deps, row), verificationNotice(row.label, code));
  const took = outcome.kind === 'sent' && !outcome.sent.refused?.length;
  return { person, row, outcome, code: took ? code : null };
}

/** Keeps the code of a test the provider took (replacing any earlier one); a failed test is recorded as failed with the reason. */
export async function recordContactTest(tx: Db, input: SentTest, audit: AuditScope, deps: ContactDeps, now = new Date()): Promise<ContactTestResult> {
  const { person, row, outcome, code } = input;
  audit.target(...contactTargets({ person, row }));
  let updated = row;
  if (code) {
    [updated] = (await tx
      .update(contactMethods)
      .set({ codeHash: codeHash(row.id, code), codeExpiresAt: new Date(now.getTime() + VERIFY_CODE_TTL_S * 1000), codeAttempts: 0 })
      .where(eq(contactMethods.id, row.id))
      .returning()) as [Row];
  }
  const method = methodToApi(deps, updated, now.getTime());
  // Named as the method's list row names it ("Email: ann@example.com"), whatever the plugin's own line.
  const result = (status: number | null, error: string | null): ContactTestResult => ({ method, ok: error === null, target: method.target, status, error });
  switch (outcome.kind) {
    case 'nobody':
      return fail(result(null, 'Nobody took the message'));
    case 'unusable':
    case 'skipped':
      return fail(result(null, outcome.error ?? 'The contact method cannot be sent to'));
    case 'failed':
      return fail(result(outcome.failure.status, outcome.error));
    case 'sent': {
      const refused = outcome.sent.refused?.length ? refusals(outcome.sent.refused) : null;
      return refused ? fail(result(outcome.sent.status, refused)) : result(outcome.sent.status, null);
    }
  }
  function fail(r: ContactTestResult): ContactTestResult {
    audit.fail(`The test message to "${row.label}" failed: ${r.error}`);
    return r;
  }
}

/**
 * Checks a code before anything is written: a wrong one counts against the open code (the fifth
 * voids it) and is a 400 naming `code`; an expired or voided one, or none sent, is the same 400
 * with its reason. Runs outside the change's transaction so the count stays when the call is refused.
 */
export async function checkContactCode(db: Db, input: { person: Person; row: Row; code: string }, now = Date.now()): Promise<{ person: Person; row: Row }> {
  const { person, row } = input;
  if (!row.codeHash || !row.codeExpiresAt) throw badRequest(row.verifiedAt ? `"${row.label}" is already verified; send a test message for a new code` : `No code was sent to "${row.label}": send a test message first`, 'code');
  if (row.codeAttempts >= VERIFY_MAX_ATTEMPTS) throw badRequest(`Too many wrong codes for "${row.label}": send a new test message`, 'code');
  if (row.codeExpiresAt.getTime() <= now) throw badRequest(`The code sent to "${row.label}" has expired: send a new test message`, 'code');
  const given = Buffer.from(codeHash(row.id, input.code.trim()), 'hex');
  if (!timingSafeEqual(given, Buffer.from(row.codeHash, 'hex'))) {
    await db.update(contactMethods).set({ codeAttempts: sql`${contactMethods.codeAttempts} + 1` }).where(eq(contactMethods.id, row.id));
    const left = VERIFY_MAX_ATTEMPTS - row.codeAttempts - 1;
    throw badRequest(left > 0 ? `That is not the code sent to "${row.label}" (${left} ${left === 1 ? 'try' : 'tries'} left)` : `That is not the code sent to "${row.label}"; send a new test message`, 'code');
  }
  return { person, row };
}

/** Marks the method verified; its code is used up. */
export async function verifyContactMethod(tx: Db, input: { person: Person; row: Row }, audit: AuditScope, deps: ContactDeps, now = new Date()): Promise<ContactMethod> {
  const { person, row } = input;
  audit.target(...contactTargets({ person, row }));
  const [updated] = await tx.update(contactMethods).set({ verifiedAt: now, codeHash: null, codeExpiresAt: null, codeAttempts: 0 }).where(eq(contactMethods.id, row.id)).returning();
  return methodToApi(deps, updated!);
}
