import { appendSystemEvents } from '../audit/system-events';
import { eq, inArray } from 'drizzle-orm';
import type pg from 'pg';
import type { DeliverySettings } from '../config';
import type { OutboxTransition } from '../contract/alerts';
import type { Database, Db } from '../db/client';
import { codeSpan } from '../contract/alert-text';
import { uniqueEmails } from '../contract/alerts';
import { alertDeliveries, alertEvents, alerts, contactMethods, notificationGroups, users } from '../db/schema';
import { sendTarget as contactSendTarget } from '../contacts/service';
import { smtpMailer, type EmailTarget, type Mailer } from '../channels/email';
import { actionPeople, offeredActions, signLinks } from '../page-actions/links';
import type { PageActionSigner } from '../page-actions/token';
import { groupTargets, pluginOf, refusals, trySend, type GroupTarget, type Outcome } from '../channels/group-targets';
import { PUSHOVER_API_URL } from '../channels/pushover';
import { TWILIO_API_URL, type TwilioAccount } from '../channels/twilio';
import { pluginFor } from '../channels/index';
import { ephemeralBox, type SecretBox } from '../channels/secret-box';
import type { ChannelMessage, ChannelPlugin, DeliveryChannel } from '../channels/types';
import type { ChannelTestResult } from '../contract/channels';
import { alertLink, type MessageExtra } from './delivery-messages';
import type { EvaluatorLogger } from './evaluator';
import { OutageNotice } from '../ops/outage';
import { notificationLatency, notificationsTotal } from '../ops/metrics';
import { databaseUnavailable } from '../db/unavailable';
import { outboundFetch, type OutboundFetch } from '../outbound/http-client';
import { OutboundPolicy } from '../outbound/policy';

/** The console's settings a person's contact methods send with (server/contacts/). */
export interface PersonalChannels {
  mailer: Mailer | null;
  slackBotToken: string | null;
  slackApiUrl: string;
  pushoverAppToken: string | null;
  pushoverApiUrl: string;
  twilio: TwilioAccount | null;
}

type DeliveryRow = typeof alertDeliveries.$inferSelect;
type GroupRow = typeof notificationGroups.$inferSelect;

interface OutboxRow {
  id: string;
  alert_id: string;
  transition: OutboxTransition;
  notification_group_id: string | null;
  /** Named users to email (an escalation step's, an acknowledgement's owner); PostgreSQL may hand back '{a,b}'. */
  user_ids: string[] | string | null;
  step: number | null;
  reason: string | null;
  /** A page (issue 27 §3): the person's contact method it goes to. */
  contact_method_id: string | null;
  /** When the transition was queued: the start of the notification latency (opsdeck_notification_latency_seconds). */
  created_at: Date | string;
}

/** A claimed outbox row; `release` ends the claim, marking the row processed or leaving it for a retry. */
interface Claim {
  row: OutboxRow;
  release(processed: boolean): Promise<void>;
  abandon(): Promise<void>;
}

export interface DeliverResult {
  /** Outbox rows looked at in this pass. */
  rows: number;
  sent: number;
  failed: number;
  skipped: number;
}

/** Rows one pass looks at, at most; the next pass continues. */
const ROWS_PER_PASS = 100;

/** When the earliest failed channel of a pending row may be tried again (ms since the epoch), or null. */
const NEXT_RETRY = `
  select (extract(epoch from min(d.retry_at)) * 1000)::float8 as t
  from alert_outbox o join alert_deliveries d on d.outbox_id = o.id
  where o.processed_at is null and d.retry_at > $1::timestamptz`;
/** A retry is looked at this long after it is due, so the pass sees `retry_at <= now`. */
const RETRY_SLACK_MS = 5;

/**
 * Due rows, oldest first: not processed, no failed channel waiting for its retry time, and no
 * older unprocessed row of the same alert to the same group (a resolved message never overtakes
 * its firing one, even while that one waits for a retry or is being sent by another process; an
 * alert sent to several groups, like the monitoring meta alert, is not held up by one group's retries).
 */
const DUE = `
  select o.id, o.alert_id, o.transition, o.notification_group_id, o.user_ids, o.step, o.reason, o.created_at, o.contact_method_id
  from alert_outbox o
  where o.processed_at is null
    and not (o.id = any($2::uuid[]))
    and not exists (select 1 from alert_deliveries d where d.outbox_id = o.id and d.retry_at > $1::timestamptz)
    and not exists (
      select 1 from alert_outbox p
      where p.alert_id = o.alert_id and p.notification_group_id is not distinct from o.notification_group_id
        and p.contact_method_id is not distinct from o.contact_method_id
        and p.processed_at is null and (p.created_at, p.id) < (o.created_at, o.id)
    )
  order by o.created_at, o.id
  limit 1`;

/**
 * Sends what the evaluator and operators queued in `alert_outbox` (docs/alerting.md "Delivery"):
 * email to the notification group's list and a Slack message to its channel, one delivery per
 * channel and outbox row, each attempt logged in `alert_deliveries` and on the alert's timeline.
 *
 * A channel's success is committed before the next channel is tried, so a restart never sends it
 * again; a crash between a send and its record can resend that one channel (at least once, never
 * lost). On PostgreSQL each row is claimed with `for no key update skip locked` in a transaction
 * held while it is sent, so two processes never send the same row; the records are written on
 * other connections (the key-share lock of their foreign key does not conflict with the claim).
 * PGlite is one process: the worker's own guard keeps passes from overlapping.
 */
export class DeliveryWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<DeliverResult> | null = null;
  private stopped = true;
  /** Set by stop(): a pass in progress finishes its row and ends. */
  private closing = false;
  /** wake() came while a pass ran: one more pass follows it. */
  private wakeAgain = false;
  /** The last pass stopped at ROWS_PER_PASS: there may be more due rows. */
  private more = false;
  private readonly mailer: Mailer | null;
  /** Every channel's requests (Slack's included), through the outbound policy. */
  private readonly fetch: OutboundFetch;
  /** A database outage: logged once, polls back off (OutageNotice). */
  private readonly outage: OutageNotice;

  constructor(
    readonly database: Database,
    readonly settings: DeliverySettings,
    private readonly log: EvaluatorLogger,
    /** The clock; tests move it by hand. */
    private readonly now: () => number = Date.now,
    /** Opens channel targets' secrets (issue 15); app.ts gives the one keyed by OPSDECK_SECRET_KEY. */
    readonly box: SecretBox = ephemeralBox(),
    /** Where channels may connect (app.ts gives the console's; by default the built-in refusals). */
    outbound: OutboundPolicy = new OutboundPolicy(),
    /** Signs the acknowledge and resolve links in a person's own notification (issue 27 §4); null: none are sent. */
    private readonly signer: PageActionSigner | null = null,
  ) {
    this.mailer = settings.smtpUrl ? smtpMailer(settings.smtpUrl, settings.mailFrom, outbound) : null;
    this.fetch = outboundFetch(outbound, 'channel');
    this.outage = new OutageNotice(log, 'Alert delivery', settings.pollIntervalS * 1000);
  }

  start(): void {
    if (!this.settings.enabled || !this.stopped) return;
    this.stopped = false;
    this.closing = false;
    this.schedule(this.settings.pollIntervalS * 1000);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.closing = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
    this.mailer?.close();
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.deliver()
        .then(() => this.outage.ok())
        .catch((err) => this.outage.failed(err))
        .finally(() => {
          // A pass that wake() started reschedules itself (deliver's finally); this one too.
          if (!this.timer) void this.scheduleNext();
        });
    }, delayMs);
    this.timer.unref?.();
  }

  /**
   * The next look: on PostgreSQL every pollIntervalS (another replica may queue rows); on PGlite,
   * where every writer wakes this worker, when the earliest retry is due, at most idlePollS
   * away (issue 17: a look every second was most of the idle console's database work).
   */
  private async scheduleNext(): Promise<void> {
    if (this.stopped) return;
    if (this.outage.failing) return this.schedule(this.outage.backoffMs());
    // PostgreSQL, or a pass that stopped at ROWS_PER_PASS with more to do.
    if (this.database.kind !== 'pglite' || this.more) return this.schedule(this.settings.pollIntervalS * 1000);
    let delayMs = this.settings.idlePollS * 1000;
    try {
      const [row] = await this.database.query<{ t: number | null }>(NEXT_RETRY, [new Date(this.now()).toISOString()]);
      if (row?.t != null) delayMs = Math.min(delayMs, Math.max(0, Number(row.t) - this.now()) + RETRY_SLACK_MS);
    } catch {
      // The database is away: the next pass finds out and backs off.
    }
    // A wake() meanwhile scheduled its own look.
    if (!this.timer && !this.running) this.schedule(delayMs);
  }

  /** One pass over the due outbox rows; a call while a pass runs waits for that pass. */
  deliver(): Promise<DeliverResult> {
    this.running ??= this.pass().finally(() => {
      this.running = null;
      if (this.wakeAgain && !this.stopped) this.wake();
    });
    return this.running;
  }

  /** A pass that wake() started: afterwards the next look is planned from what it left (a retry's time). */
  private woken(): void {
    this.deliver()
      .then(() => this.outage.ok())
      .catch((err) => this.outage.failed(err))
      .finally(() => {
        if (!this.running && !this.stopped) void this.scheduleNext();
      });
  }

  /**
   * Rows were just queued (the evaluator's tick): send them now instead of on the next poll.
   * A pass under way may have looked already, so one more pass follows it. Does nothing unless
   * the loop runs (start()).
   */
  wake(): void {
    // During a database outage the poll's back-off decides when to look again.
    if (this.stopped || this.outage.failing) return;
    if (this.running) {
      this.wakeAgain = true;
      return;
    }
    this.wakeAgain = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.woken();
  }

  private async pass(): Promise<DeliverResult> {
    const result: DeliverResult = { rows: 0, sent: 0, failed: 0, skipped: 0 };
    const seen: string[] = [];
    while (result.rows < ROWS_PER_PASS && !this.closing) {
      const claim = await this.claim(seen);
      if (!claim) break;
      seen.push(claim.row.id);
      result.rows++;
      try {
        const processed = await this.process(claim.row, result);
        await claim.release(processed);
      } catch (err) {
        // One row that cannot be handled (its alert deleted under it, a database error) must not
        // hold up the others: it is tried again on the next pass.
        await claim.abandon().catch(() => undefined);
        // The database went away: the pass ends, and the poll backs off (one log line per outage).
        if (databaseUnavailable(err)) throw err;
        this.log.error({ err, outboxId: claim.row.id }, 'Could not deliver an alert notification');
      }
    }
    this.more = result.rows >= ROWS_PER_PASS;
    if (result.sent || result.failed || result.skipped) this.log.info({ ...result }, 'Alert notifications delivered');
    return result;
  }

  private async claim(seen: string[]): Promise<Claim | null> {
    const at = new Date(this.now()).toISOString();
    if (this.database.kind === 'pglite') {
      const [row] = await this.database.query<OutboxRow>(DUE, [at, seen]);
      if (!row) return null;
      const release = async (processed: boolean) => {
        if (processed) await this.database.query('update alert_outbox set processed_at = $2 where id = $1', [row.id, new Date(this.now())]);
      };
      return { row, release, abandon: async () => {} };
    }
    const pool = (this.database.db as unknown as { $client: pg.Pool }).$client;
    const client = await pool.connect();
    try {
      await client.query('begin');
      const { rows } = await client.query<OutboxRow>(`${DUE} for no key update of o skip locked`, [at, seen]);
      const row = rows[0];
      if (!row) {
        await client.query('commit');
        client.release();
        return null;
      }
      return {
        row,
        release: async (processed) => {
          try {
            if (processed) await client.query('update alert_outbox set processed_at = $2 where id = $1', [row.id, new Date(this.now())]);
            await client.query('commit');
          } finally {
            client.release();
          }
        },
        abandon: async () => {
          await client.query('rollback').catch(() => {});
          client.release();
        },
      };
    } catch (error) {
      await client.query('rollback').catch(() => {});
      client.release();
      throw error;
    }
  }

  /** Sends one outbox row on each channel that still needs it; true when no channel waits for a retry. */
  private async process(row: OutboxRow, result: DeliverResult): Promise<boolean> {
    const { db } = this.database;
    const [alert] = await db.select().from(alerts).where(eq(alerts.id, row.alert_id));
    if (!alert) return true;
    if (row.contact_method_id) return this.page(row, alert, result);
    // No group (the rule has none, or it was deleted since) and no named user: nothing to send,
    // nothing to log.
    const [group] = row.notification_group_id ? await db.select().from(notificationGroups).where(eq(notificationGroups.id, row.notification_group_id)) : [];
    const userIds = (typeof row.user_ids === 'string' ? row.user_ids.replace(/[{}]/g, '').split(',') : (row.user_ids ?? [])).filter(Boolean);
    const userEmails = userIds.length ? (await db.select({ email: users.email }).from(users).where(inArray(users.id, userIds))).map((u) => u.email) : [];
    if (!group && !userEmails.length) return true;
    // The channels that hear about this kind of transition: email, Slack and chat channels carry
    // firing and resolved messages; an acknowledgement is for channels with an incident state of
    // their own (PagerDuty). The others have nothing to send or log.
    const emails = group?.emailEnabled || userEmails.length ? uniqueEmails([...(group?.emailEnabled ? group.emailList : []), ...userEmails]) : null;
    const targets = (await this.targets(group, emails)).filter((t) => pluginOf(t)?.sends(row.transition));
    await this.offerActions(targets, alert.id, userIds, emails ?? [], row.transition);
    const extra: MessageExtra = { reason: row.reason, recovery: row.transition === 'resolved' ? await this.recovery(alert.id) : null };
    const log = await db.select().from(alertDeliveries).where(eq(alertDeliveries.outboxId, row.id));
    const message: ChannelMessage = { alert, transition: row.transition, link: alertLink(this.settings.publicUrl, alert.id), publicUrl: this.settings.publicUrl, extra };
    // Each stored target on its own: one that hangs or refuses never holds up or loses another's
    // message. The group's own email and Slack go one after the other, in SPEC's order.
    const tasks: Promise<boolean>[] = [];
    let own = Promise.resolve(false);
    for (const target of targets) {
      const previous = log.filter((d) => d.channelId === target.channelId && (target.channelId !== null || d.channel === target.channel));
      if (finished(previous)) continue;
      const send = () => this.sendToTarget(row, target, previous, message, result);
      if (target.channelId) tasks.push(send());
      else own = own.then(async (waiting) => (await send()) || waiting);
    }
    const waiting = await Promise.all([own, ...tasks]);
    return !waiting.some(Boolean);
  }

  /**
   * A page (issue 27 §3): to one person's contact method, unless the alert was acknowledged or
   * resolved since it was queued (then nothing is sent: paging stops at once). The delivery log
   * names the person and the method ("ann · Mobile SMS: +155…0123").
   */
  private async page(row: OutboxRow, alert: typeof alerts.$inferSelect, result: DeliverResult): Promise<boolean> {
    if (alert.status === 'resolved' || alert.ackAt) return true;
    const { db } = this.database;
    const [method] = await db.select().from(contactMethods).where(eq(contactMethods.id, row.contact_method_id!));
    if (!method) return true;
    const [person] = await db.select({ username: users.username }).from(users).where(eq(users.id, method.userId));
    // Not a group's channel target: the log keeps no channel id (it names the method instead).
    const target: GroupTarget = { ...contactSendTarget({ box: this.box, channels: this.personalChannels }, method), channelId: null };
    if (!pluginOf(target)?.sends(row.transition)) return true;
    const previous = await db.select().from(alertDeliveries).where(eq(alertDeliveries.outboxId, row.id));
    if (finished(previous)) return true;
    const message: ChannelMessage = { alert, transition: row.transition, link: alertLink(this.settings.publicUrl, alert.id), publicUrl: this.settings.publicUrl, extra: { reason: row.reason, recovery: null } };
    return this.sendToTarget(row, target, previous, message, result, `${person?.username ?? 'removed user'} · ${method.label}: `);
  }

  /** One attempt on one target of an outbox row (`previous`: its earlier attempts), logged; true when it will be retried. `whom` prefixes the log's target (a page's person and method). */
  private async sendToTarget(row: OutboxRow, t: GroupTarget, previous: DeliveryRow[], message: ChannelMessage, result: DeliverResult, whom = ''): Promise<boolean> {
    const attempt = Math.max(0, ...previous.map((d) => d.attempt)) + 1;
    const record = (a: Omit<Attempt, 'channel' | 'channelId' | 'attempt'>) => this.record(row, { channel: t.channel, channelId: t.channelId, attempt, ...a, target: `${whom}${a.target}` }, result);
    const o = await trySend(t, message, this.sendOptions, previous.filter((d) => d.outcome === 'sent').map((d) => d.target));
    switch (o.kind) {
      case 'nobody':
        return false;
      case 'unusable':
        return record({ outcome: 'failed', target: o.target, error: o.error, permanent: true });
      // A channel that cannot send keeps the message as it would have gone out (issue 24 §6):
      // the delivery log shows a newcomer what a notification looks like, and what they miss.
      case 'skipped':
        return record({ outcome: 'skipped', target: o.target, error: o.error, message: o.preview() });
      case 'failed':
        return record({ outcome: 'failed', target: o.target, error: o.error, responseCode: o.failure.status, permanent: o.failure.permanent, retryAfterS: o.failure.retryAfterS });
      case 'sent': {
        const { accepted, refused, status } = o.sent;
        if (!accepted || accepted.length) await record({ outcome: 'sent', target: accepted?.join(', ') ?? o.target, responseCode: status });
        return refused?.length ? record({ outcome: 'failed', target: refused.map((r) => r.address).join(', '), error: refusals(refused) }) : false;
      }
    }
  }

  /**
   * Issue 27 §4: a recipient of the email who is a person who may act gets a message of their own
   * with acknowledge and resolve links signed for them, made when it is sent (a retry makes new ones).
   */
  private async offerActions(targets: GroupTarget[], alertId: string, userIds: string[], emails: string[], transition: OutboxTransition): Promise<void> {
    const signer = this.signer;
    const email = targets.find((t) => t.channel === 'email' && t.channelId === null);
    if (!signer || !email?.config || !offeredActions(transition).length) return;
    const people = await actionPeople(this.database.db, userIds, emails);
    if (!people.size) return;
    const publicUrl = this.settings.publicUrl;
    email.config = {
      ...(email.config as EmailTarget),
      actionsFor: (address) => {
        const userId = people.get(address.trim().toLowerCase());
        return userId ? signLinks(signer, publicUrl, { alertId, userId, via: 'email', transition, now: this.now() }) : null;
      },
    };
  }

  /** A group's targets (channels/group-targets.ts), its own email and Slack sent with the console's settings. */
  private targets(group: GroupRow | undefined, emails: string[] | null): Promise<GroupTarget[]> {
    return groupTargets(this.database.db, this.box, group, emails, { mailer: this.mailer, slackBotToken: this.settings.slackBotToken, slackApiUrl: this.settings.slackApiUrl, slackInteractive: !!this.settings.slackSigningSecret });
  }

  /** How long a channel's peer may take to answer, and the fetch through the outbound policy. */
  private get sendOptions() {
    return { timeoutMs: this.settings.channelTimeoutMs ?? 10_000, fetch: this.fetch };
  }

  /**
   * "Send test notification" (issue 15 §1, `group.test`): a test message on each of the group's
   * channels, or on the one named (a target's name or id, `email`, `slack`), now, outside the
   * outbox. Every channel answers for itself: a failure is a result with the reason (the peer's
   * status and a fixed classification, never its answer's text), never an exception, and never
   * stops the others.
   */
  async sendTest(group: GroupRow, only?: string): Promise<ChannelTestResult[]> {
    const ref = only?.trim().toLowerCase();
    const alert = this.testAlert(`Sent by the test of notification group ${group.name}.`);
    const message: ChannelMessage = { alert, transition: 'firing', link: this.settings.publicUrl, publicUrl: this.settings.publicUrl, extra: {}, test: true };
    const wants = (t: GroupTarget) => !ref || ref === t.name.toLowerCase() || ref === t.ref;
    return Promise.all((await this.targets(group, group.emailEnabled ? group.emailList : null)).filter(wants).map((t) => this.testTarget(group, t, message)));
  }

  /** The alert a test message is about: one that never fired, whose words say nothing is wrong. */
  private testAlert(description: string, summary = 'Test notification from Opsdeck: nothing is wrong') {
    return {
      id: '00000000-0000-4000-8000-000000000000',
      hostname: 'opsdeck-test',
      instance: 'opsdeck-test',
      alertname: 'opsdeck_test',
      severity: 'info' as const,
      summary,
      description,
      mountpoint: null,
      volume: null,
      service: null,
      createdAt: new Date(this.now()),
      resolvedAt: null,
      serverId: null,
      type: 'test',
    };
  }

  /** What a person's contact methods send with: the console's mailer and its Slack, Pushover and Twilio settings. */
  get personalChannels(): PersonalChannels {
    const s = this.settings;
    return {
      mailer: this.mailer,
      slackBotToken: s.slackBotToken ?? null,
      slackApiUrl: s.slackApiUrl,
      pushoverAppToken: s.pushoverAppToken ?? null,
      pushoverApiUrl: s.pushoverApiUrl ?? PUSHOVER_API_URL,
      twilio: s.twilio ? { ...s.twilio, apiUrl: s.twilioApiUrl ?? TWILIO_API_URL } : null,
    };
  }

  /**
   * One message to one of a person's contact methods (its verification code), now, outside the
   * outbox, through the method's plugin and the outbound policy. A webhook gets it as a test
   * alert whose summary is the notice.
   */
  sendNotice(target: GroupTarget, notice: NonNullable<ChannelMessage['notice']>): Promise<Outcome> {
    const alert = this.testAlert('', notice.text);
    const message: ChannelMessage = { alert, transition: 'firing', link: this.settings.publicUrl, publicUrl: this.settings.publicUrl, extra: {}, test: true, notice };
    return trySend(target, message, this.sendOptions);
  }

  /** A notice mailed now to addresses (the console's SMTP_URL), outside the outbox: on-call gap notices. */
  mailNotice(to: string[], notice: NonNullable<ChannelMessage['notice']>): Promise<Outcome> {
    return this.sendNotice({ channel: 'email', channelId: null, name: 'Email', ref: 'email', config: { type: 'email', id: 'email', name: 'Email', to, mailer: this.mailer }, error: null, secretValues: [] }, notice);
  }

  private async testTarget(group: GroupRow, t: GroupTarget, message: ChannelMessage): Promise<ChannelTestResult> {
    const base = { channel: t.channel, name: t.name };
    const o = await trySend(t, message, this.sendOptions);
    switch (o.kind) {
      // A test sends to the whole target: it never resumes, so somebody is always left.
      case 'nobody':
        return { ...base, target: '', ok: false, status: null, error: null };
      case 'unusable':
      case 'skipped':
        return { ...base, target: o.target, ok: false, status: null, error: o.error };
      case 'failed':
        this.log.warn({ groupId: group.id, channel: t.channel, target: o.target, status: o.failure.status, error: o.error }, 'Test notification failed');
        return { ...base, target: o.target, ok: false, status: o.failure.status, error: o.error };
      case 'sent': {
        const refused = o.sent.refused?.length ? refusals(o.sent.refused) : null;
        return { ...base, target: o.target, ok: !refused, status: o.sent.status, error: refused };
      }
    }
  }

  /**
   * The alerts suppressed while this one (an instance_down) fired: what recovered and what still
   * fires, for its resolution message (issue 14 §4). Null when there were none.
   */
  private async recovery(alertId: string): Promise<MessageExtra['recovery']> {
    const rows = await this.database.db
      .select({ alertname: alerts.alertname, subject: alerts.subject, status: alerts.status })
      .from(alerts)
      .where(eq(alerts.hostDownAlertId, alertId))
      .orderBy(alerts.createdAt);
    if (!rows.length) return null;
    const name = (r: (typeof rows)[number]) => `${r.alertname}${r.subject ? ` (${r.subject})` : ''}`;
    return { recovered: rows.filter((r) => r.status === 'resolved').map(name), stillFiring: rows.filter((r) => r.status !== 'resolved').map(name) };
  }

  /**
   * Logs one attempt and puts it on the alert's timeline, together. Returns true when a failed
   * attempt will be retried: not after a permanent refusal, and at the peer's Retry-After when
   * it gave one (issue 15), else on the schedule.
   */
  private async record(row: OutboxRow, a: Attempt, result: DeliverResult): Promise<boolean> {
    const at = new Date(this.now());
    const delays = this.settings.retryDelaysS;
    const error = a.error ?? null;
    const retry = a.outcome === 'failed' && !a.permanent && a.attempt <= delays.length;
    const waitS = a.retryAfterS ?? delays[a.attempt - 1] ?? 0;
    const retryAt = retry ? new Date(at.getTime() + waitS * 1000) : null;
    result[a.outcome]++;
    notificationsTotal.inc({ channel: a.channel, outcome: a.outcome });
    if (a.outcome === 'sent') notificationLatency.observe({ channel: a.channel }, Math.max(0, at.getTime() - new Date(row.created_at).getTime()) / 1000);
    const note = timelineNote({ ...a, error, transition: row.transition, step: row.step, retryAt, maxAttempts: delays.length + 1 });
    await this.database.db.transaction(async (tx) => {
      await tx
        .insert(alertDeliveries)
        .values({ outboxId: row.id, alertId: row.alert_id, transition: row.transition, channel: a.channel, channelId: a.channelId, target: a.target, attempt: a.attempt, outcome: a.outcome, error, responseCode: a.responseCode ?? null, retryAt, message: a.message ?? null, at });
      await (tx as unknown as Db).insert(alertEvents).values({ alertId: row.alert_id, type: 'playbook_action', at, note });
      // The attempt in History too, as what Opsdeck did (issue 24 §4).
      const command = a.outcome === 'failed' ? 'alert.delivery-failed' : a.outcome === 'skipped' ? 'alert.delivery-skipped' : row.transition === 'escalation' ? 'alert.escalated' : 'alert.delivered';
      await appendSystemEvents(tx as unknown as Db, at, [{ alertId: row.alert_id, command, detail: `via ${a.channel}${a.target ? ` to ${a.target}` : ''} (${about(row.transition, row.step)})`, error }]);
    });
    if (a.outcome === 'failed') {
      const fields = { alertId: row.alert_id, channel: a.channel, target: a.target, attempt: a.attempt, responseCode: a.responseCode ?? null, error };
      if (retry) this.log.warn({ ...fields, retryAt }, 'Alert notification failed; will retry');
      else if (a.permanent) this.log.error(fields, 'Alert notification refused; not retried');
      else this.log.error(fields, `Alert notification failed ${a.attempt} times; gave up`);
    }
    return retry;
  }
}

/** One attempt on one channel, as the delivery log keeps it. */
interface Attempt {
  /** email, slack, or a channel target's type. */
  channel: string;
  channelId: string | null;
  attempt: number;
  outcome: DeliveryRow['outcome'];
  target: string;
  error?: string | null;
  responseCode?: number | null;
  /** The peer refused the request itself (a 4xx): no retry. */
  permanent?: boolean;
  /** The peer's Retry-After, in seconds: the retry waits this long instead of the schedule. */
  retryAfterS?: number | null;
  /** A channel that cannot send: the message as it would have gone out. */
  message?: { subject: string | null; text: string } | null;
}

/**
 * A channel is finished for an outbox row when it was skipped, when the worker gave up on it,
 * or (Slack) once it was sent. Email is finished when its last attempt left nobody to retry:
 * a partly refused message records `sent` for the accepted addresses and `failed` for the rest.
 */
function finished(previous: DeliveryRow[]): boolean {
  if (!previous.length) return false;
  if (previous.some((d) => d.outcome === 'skipped' || (d.outcome === 'failed' && !d.retryAt))) return true;
  const last = Math.max(...previous.map((d) => d.attempt));
  return !previous.some((d) => d.attempt === last && d.outcome === 'failed');
}

/** What the delivery log calls each kind of message. */
function about(transition: OutboxTransition, step: number | null): string {
  switch (transition) {
    case 'acknowledged':
      return 'acknowledgement';
    case 'escalation':
      return `escalation step ${step ?? '?'}`;
    case 'repeat':
      return 'repeat notification: still firing, unacknowledged';
    case 'reminder':
      return 'acknowledgement reminder';
    case 'flapping':
      return 'flapping notice';
    default:
      return `${transition} notification`;
  }
}

function timelineNote(d: {
  channel: string;
  transition: OutboxTransition;
  step: number | null;
  attempt: number;
  outcome: DeliveryRow['outcome'];
  target: string;
  error: string | null;
  responseCode?: number | null;
  permanent?: boolean;
  retryAt: Date | null;
  maxAttempts: number;
}): string {
  const plugin = pluginFor(d.channel as DeliveryChannel) as ChannelPlugin | undefined;
  const what = plugin?.noun ?? d.channel;
  const to = d.target ? ` to ${plugin?.where ? plugin.where(d.target) : d.target}` : '';
  const kind = about(d.transition, d.step);
  // A relay's or a peer's answer is others' text: a code span keeps it literal, backticks and all.
  const code = codeSpan;
  if (d.outcome === 'sent') return `${what} sent${to} (${kind}${d.attempt > 1 ? `, attempt ${d.attempt}` : ''}).`;
  if (d.outcome === 'skipped') return `${what} not sent (${kind}): ${d.error}`;
  const then = d.retryAt ? `Next try at ${d.retryAt.toISOString()}.` : d.permanent ? 'Not retried: the request itself was refused.' : `Gave up after ${d.attempt} attempts.`;
  return `${what}${to} failed (${kind}, attempt ${d.attempt} of ${d.maxAttempts}): ${code(d.error ?? 'unknown error')}. ${then}`;
}
