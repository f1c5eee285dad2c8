import { sql, type SQL } from 'drizzle-orm';
import type { SearchHit, SearchKind } from '../contract/search';
import type { Db } from '../db/client';

/** LIKE's own characters in a typed word match themselves. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
/** A word that can only be part of an address (digits, dots, colons) is also looked for in IP addresses. */
const ADDRESS_WORD = /^[0-9.:]+$/;

/**
 * Per kind: what a word may match (lower-cased columns, most with a trigram index), the order
 * that picks which `limit` rows come back, and the fields a hit carries. Orders follow an index,
 * so a text that matches many rows (one typed letter) walks it and stops after `limit` matches,
 * while a rare one is found through the trigram index; never a count, never a sort of thousands.
 */
interface KindSearch {
  from: SQL;
  matches: (pattern: string, word: string) => SQL;
  order: SQL;
  doc: SQL;
  /** Selects whose hits come one band after the other, each in `order` (see alerts). */
  bands?: readonly { where: SQL; scan: boolean }[];
  /** `matches` in a form no index answers, for a band read along its own index. */
  scanMatches?: (pattern: string) => SQL;
}

const kinds: Record<SearchKind, KindSearch> = {
  server: {
    from: sql`servers`,
    // The IP address has no trigram index: only words that could be part of one look there.
    matches: (p, w) => (ADDRESS_WORD.test(w) ? sql`(hostname_lc like ${p} or ipaddress like ${p})` : sql`hostname_lc like ${p}`),
    // Not "created_at, id": the index is on created_at alone, and a tie-break sorted every match
    // of a common text (servers registered together share a time; 790 ms for "w" at 10,000).
    order: sql`created_at desc`,
    doc: sql`json_build_object('kind', 'server', '_id', id, 'hostname', hostname, 'ipaddress', ipaddress, 'operating_system', operating_system, 'state', state)`,
  },
  alert: {
    from: sql`alerts`,
    // search_lc: hostname, instance, alertname, service and summary in one generated column.
    matches: (p) => sql`search_lc like ${p}`,
    order: sql`created_at desc, id desc`,
    // What needs a person first: Active, then Snoozed, then Resolved, each newest first. One
    // select per status walks alerts_status_created_idx in order and stops at `limit`; a single
    // "order by status = 'resolved', created_at" would sort every match of a one-letter text. The
    // open alerts (few beside the resolved ones) have the words tested on each row read (`scan`):
    // the planner otherwise ANDed in every match of the trigram index (16,667 rows for "disk
    // almost" at 100,000 alerts: 31 ms against 1 ms).
    bands: [
      { where: sql`status = 'firing'`, scan: true },
      { where: sql`status = 'snoozed'`, scan: true },
      { where: sql`status = 'resolved'`, scan: false },
    ],
    // The same test in a form no index answers: `search_lc || ''` is not the indexed expression.
    scanMatches: (p) => sql`(search_lc || '') like ${p}`,
    doc: sql`json_build_object('kind', 'alert', '_id', id, 'alertname', alertname, 'hostname', hostname, 'summary', summary, 'status', status, 'severity', severity, 'createdAt', created_at)`,
  },
  user: {
    from: sql`users`,
    matches: (p) => sql`(username_lc like ${p} or email_lc like ${p})`,
    order: sql`lower(username)`,
    doc: sql`json_build_object('kind', 'user', '_id', id, 'username', username, 'email', email, 'role', role)`,
  },
  check: {
    from: sql`checks`,
    matches: (p) => sql`(name_lc like ${p} or target_lc like ${p})`,
    order: sql`name_lc`,
    doc: sql`json_build_object('kind', 'check', '_id', id, 'name', name, 'target', target, 'paused', paused, 'state', state)`,
  },
  group: {
    from: sql`notification_groups`,
    matches: (p) => sql`name_lc like ${p}`,
    order: sql`name_lc`,
    doc: sql`json_build_object('kind', 'group', '_id', id, 'name', name, 'emails', cardinality(email_list), 'slackEnabled', slack_enabled, 'slackChannel', slack_channel)`,
  },
};

/**
 * The things of these kinds matching every word, `limit` of each, in one statement (one round
 * trip: PGlite serves one query at a time, so five calls queued behind each other).
 */
export async function searchEntities(db: Db, words: readonly string[], wanted: readonly SearchKind[], limit: number): Promise<SearchHit[]> {
  if (!wanted.length) return [];
  const parts = wanted.map((kind) => {
    const k = kinds[kind];
    const matches = words.map((w) => k.matches(`%${escapeLike(w)}%`, w));
    const where = (conditions: SQL[]) => (conditions.length ? sql` where ${sql.join(conditions, sql` and `)}` : sql``);
    if (!k.bands) return sql`(select ${k.doc} as doc from ${k.from}${where(matches)} order by ${k.order} limit ${limit})`;
    const scanned = words.map((w) => (k.scanMatches ?? k.matches)(`%${escapeLike(w)}%`, w));
    // Appended in order (each branch ends in its own limit, so no parallel append mixes them), and
    // the outer limit stops the reading: bands after the one that fills it are not read at all.
    const banded = k.bands.map((b) => sql`(select ${k.doc} as doc from ${k.from}${where([b.where, ...(b.scan ? scanned : matches)])} order by ${k.order} limit ${limit})`);
    return sql`(select doc from (${sql.join(banded, sql` union all `)}) bands limit ${limit})`;
  });
  const res = (await db.execute(sql.join(parts, sql` union all `))) as unknown as { rows: { doc: SearchHit | string }[] };
  return res.rows.map(({ doc }) => {
    const hit = (typeof doc === 'string' ? JSON.parse(doc) : doc) as SearchHit;
    // json_build_object writes timestamps in the session's zone; the API speaks ISO in UTC.
    return hit.kind === 'alert' ? { ...hit, createdAt: new Date(hit.createdAt).toISOString() } : hit;
  });
}
