import { sql } from 'drizzle-orm';
import type { AuditTarget } from '../contract/command-history';
import { isUuid } from '../contract/ids';
import { matcherText, type Matcher } from '../contract/routing';
import type { Db } from '../db/client';

/** A run's input names at most a handful of things; more is not a command's input. */
const MAX_IDS = 20;

/** The ids a run's input holds: top-level values and lists of them (what entity arguments take). */
export function idsIn(input: unknown): string[] {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return [];
  const out = new Set<string>();
  for (const value of Object.values(input as Record<string, unknown>)) {
    for (const v of Array.isArray(value) ? value : [value]) if (typeof v === 'string' && isUuid(v)) out.add(v.toLowerCase());
  }
  return [...out].slice(0, MAX_IDS);
}

/**
 * Names the things these ids are, as they are now, the way the routes name what they touch
 * (servers.ts serverTarget, alerts.ts alertTarget, …): one query over every kind a command
 * argument can pick. Client records use it (issue 13): the browser reports a run that made no
 * API write (a cancelled delete, a widget pinned in the browser) with the ids the palette
 * picked, and the server names them itself rather than taking the browser's word for it.
 * Ids that name nothing (deleted since, or not an entity) are left out.
 */
export async function nameIds(db: Db, ids: readonly string[]): Promise<AuditTarget[]> {
  if (!ids.length) return [];
  const list = sql`${`{${ids.join(',')}}`}::uuid[]`;
  const res = (await db.execute(sql`
    select 'server' as kind, id::text as id, hostname as name from servers where id = any(${list})
    union all select 'user', id::text, username from users where id = any(${list})
    union all select 'alert', id::text, alertname || ' @ ' || hostname from alerts where id = any(${list})
    union all select 'group', id::text, name from notification_groups where id = any(${list})
    union all select 'check', id::text, name from checks where id = any(${list})
    union all select 'status_page', id::text, slug from status_pages where id = any(${list})
    union all select 'maintenance-window', id::text, name from maintenance_windows where id = any(${list})
    union all select 'silence', id::text, matchers::text from silences where id = any(${list})`)) as unknown as { rows: AuditTarget[] };
  const named = new Map(res.rows.map((r) => [r.id, r.kind === 'silence' ? { ...r, name: (JSON.parse(r.name) as Matcher[]).map(matcherText).join(', ') } : r]));
  // In the input's order: the first argument is usually the one the command acts on.
  return ids.flatMap((id) => (named.has(id) ? [named.get(id)!] : []));
}
