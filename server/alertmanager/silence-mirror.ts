import { sql } from 'drizzle-orm';
import type { Matcher } from '../contract/routing';
import type { Db } from '../db/client';
import { statusMeaning } from '../channels/http';
import { refusalOf, type OutboundFetch } from '../outbound/http-client';

/** Alertmanager API v2 matcher. */
export interface AmMatcher {
  name: string;
  value: string;
  isRegex: boolean;
  isEqual: boolean;
}

interface AmSilence {
  id: string;
  matchers: AmMatcher[];
  startsAt: string;
  endsAt: string;
  createdBy: string;
  comment: string;
  status: { state: 'active' | 'pending' | 'expired' };
}

export interface MirrorStatus {
  lastSyncAt: string | null;
  lastError: string | null;
  /** Opsdeck silence id → Alertmanager silence id. */
  mirrored: Record<string, string>;
  /** Opsdeck silences that cannot be mirrored, with why. */
  skipped: { id: string; reason: string }[];
}

/** Our fields that are labels of the pushed alerts (server/alertmanager/labels.ts), named the same. */
const LABEL_FIELDS = new Set(['hostname', 'alertname', 'type', 'severity', 'service', 'mountpoint']);
const MARK = /\[opsdeck silence ([0-9a-f-]{36})\]$/;
const TIMEOUT_MS = 10_000;

/** An Opsdeck matcher as Alertmanager's, or why it has none (server labels are not pushed labels). */
export function toAmMatcher(m: Matcher): AmMatcher | string {
  if (!LABEL_FIELDS.has(m.name)) return `matcher ${m.name} is a server label, which pushed alerts do not carry`;
  return { name: m.name, value: m.value, isRegex: m.op === '=~' || m.op === '!~', isEqual: m.op === '=' || m.op === '=~' };
}

const sameMatchers = (a: AmMatcher[], b: AmMatcher[]) => {
  const key = (ms: AmMatcher[]) => JSON.stringify(ms.map((m) => [m.name, m.value, m.isRegex, m.isEqual !== false]).sort());
  return key(a) === key(b);
};

type SilenceRow = {
  id: string;
  matchers: Matcher[] | string;
  starts_at: Date | string;
  ends_at: Date | string;
  comment: string;
  created_by_name: string;
  updated_at: Date | string;
};

/**
 * Issue 15 §2, ALERTMANAGER_MIRROR_SILENCES: every active or pending Opsdeck silence is an
 * Alertmanager silence too, so Alertmanager mutes the pushed alerts (and a team's Prometheus
 * alerts with the same labels) and shows who silenced what. Reconciled, not replayed: each sync
 * reads Alertmanager's silences, finds ours by the mark at the end of the comment, and creates,
 * updates or expires until both agree — so a restart, a new leader or an instance that lost its
 * state changes nothing. Silences gossip within a cluster, so one instance that answers is enough.
 */
export class SilenceMirror {
  private lastSignature = '';
  private state: MirrorStatus = { lastSyncAt: null, lastError: null, mirrored: {}, skipped: [] };

  constructor(
    private readonly db: Db,
    private readonly urls: string[],
    private readonly log: { warn: (obj: object, msg: string) => void },
    /** The console's fetch, through the outbound policy. */
    private readonly fetch: OutboundFetch,
  ) {}

  status(): MirrorStatus {
    return { ...this.state, mirrored: { ...this.state.mirrored }, skipped: [...this.state.skipped] };
  }

  /** Syncs when Opsdeck's silences changed since the last sync, or always when `force`. */
  async sync(now: Date, force: boolean): Promise<void> {
    const sig = await this.db.execute<{ sig: string }>(sql`select coalesce(max(updated_at)::text, '') || '/' || count(*) || '/' || count(*) filter (where ends_at > now()) as sig from silences`);
    const signature = sig.rows[0]?.sig ?? '';
    if (!force && signature === this.lastSignature && !this.state.lastError) return;
    const rows = (
      await this.db.execute<SilenceRow>(sql`select id, matchers, starts_at, ends_at, comment, created_by_name, updated_at from silences where ends_at > ${now.toISOString()}::timestamptz`)
    ).rows;
    let lastError: string | null = null;
    for (const url of this.urls) {
      try {
        await this.reconcile(url, rows, now);
        lastError = null;
        break;
      } catch (error) {
        lastError = `${url}: ${refusalOf(error) ?? (error instanceof Error ? error.message : String(error))}`;
      }
    }
    if (lastError && lastError !== this.state.lastError) this.log.warn({ error: lastError }, 'Could not mirror silences to Alertmanager');
    this.state.lastError = lastError;
    if (!lastError) {
      this.lastSignature = signature;
      this.state.lastSyncAt = now.toISOString();
    }
  }

  private async reconcile(url: string, rows: SilenceRow[], now: Date): Promise<void> {
    const existing = ((await call(this.fetch, url, 'GET', '/api/v2/silences')) as AmSilence[]).filter((s) => s.status.state !== 'expired' && MARK.test(s.comment));
    const byOurs = new Map<string, AmSilence[]>();
    for (const s of existing) {
      const ours = MARK.exec(s.comment)![1]!;
      byOurs.set(ours, [...(byOurs.get(ours) ?? []), s]);
    }
    const mirrored: Record<string, string> = {};
    const skipped: { id: string; reason: string }[] = [];
    const wanted = new Set<string>();
    for (const row of rows) {
      const matchers = (typeof row.matchers === 'string' ? JSON.parse(row.matchers) : row.matchers) as Matcher[];
      const translated = matchers.map(toAmMatcher);
      const why = translated.find((m): m is string => typeof m === 'string');
      if (why) {
        skipped.push({ id: row.id, reason: why });
        continue;
      }
      wanted.add(row.id);
      const endsAt = new Date(row.ends_at).toISOString();
      const startsAt = new Date(row.starts_at);
      const body = {
        matchers: translated as AmMatcher[],
        startsAt: (startsAt < now ? now : startsAt).toISOString(),
        endsAt,
        createdBy: `${row.created_by_name} (Opsdeck)`,
        comment: `${row.comment.slice(0, 900)} [opsdeck silence ${row.id}]`,
      };
      const [first, ...extra] = byOurs.get(row.id) ?? [];
      for (const s of extra) await call(this.fetch, url, 'DELETE', `/api/v2/silence/${encodeURIComponent(s.id)}`);
      const same = first && sameMatchers(first.matchers, body.matchers) && new Date(first.endsAt).getTime() === new Date(endsAt).getTime() && first.comment === body.comment;
      if (same) {
        mirrored[row.id] = first.id;
        continue;
      }
      try {
        const created = (await call(this.fetch, url, 'POST', '/api/v2/silences', first ? { ...body, id: first.id } : body)) as { silenceID: string };
        mirrored[row.id] = created.silenceID;
      } catch (error) {
        // Alertmanager refuses some silences ours allow (every matcher matching the empty string).
        if (error instanceof RefusedError) skipped.push({ id: row.id, reason: `Alertmanager refused it (${error.message})` });
        else throw error;
      }
    }
    for (const [ours, list] of byOurs) {
      if (wanted.has(ours)) continue;
      for (const s of list) await call(this.fetch, url, 'DELETE', `/api/v2/silence/${encodeURIComponent(s.id)}`);
    }
    this.state.mirrored = mirrored;
    this.state.skipped = skipped;
  }
}

class RefusedError extends Error {}

/** One Alertmanager API call; a refusal names its status, never Alertmanager's text. */
async function call(fetch: OutboundFetch, url: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const text = await res.text();
  if (res.status === 400) throw new RefusedError('HTTP 400');
  if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} (${statusMeaning(res.status)})`);
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    // V8's message would quote the start of the answer.
    throw new Error(`${method} ${path}: the answer is not JSON`);
  }
}
