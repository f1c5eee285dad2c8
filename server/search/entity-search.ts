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
const kinds: Record<SearchKind, { from: SQL; matches: (pattern: string, word: string) => SQL; order: SQL; doc: SQL; bands?: readonly SQL[] }> = {
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
    // "order by status = 'resolved', created_at" would sort every match of a one-letter text.
    // (Banded kinds select created_at and id beside the hit, for the order across the bands.)
    bands: [sql`status = 'firing'`, sql`status = 'snoozed'`, sql`status = 'resolved'`],
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
    const banded = k.bands.map((band, i) => sql`(select ${sql.raw(String(i))} as band, created_at, id, ${k.doc} as doc from ${k.from}${where([band, ...matches])} order by ${k.order} limit ${limit})`);
    return sql`(select doc from (${sql.join(banded, sql` union all `)}) bands order by band, ${k.order} limit ${limit})`;
  });
  const res = (await db.execute(sql.join(parts, sql` union all `))) as unknown as { rows: { doc: SearchHit | string }[] };
  return res.rows.map(({ doc }) => {
    const hit = (typeof doc === 'string' ? JSON.parse(doc) : doc) as SearchHit;
    // json_build_object writes timestamps in the session's zone; the API speaks ISO in UTC.
    return hit.kind === 'alert' ? { ...hit, createdAt: new Date(hit.createdAt).toISOString() } : hit;
  });
}
