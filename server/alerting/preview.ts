import { sql } from 'drizzle-orm';
import type { Matcher, MatchPreview } from '../contract/routing';
import type { Db } from '../db/client';
import { compileAll, compileServerLevel } from './matchers';

const SHOWN = 20;

/**
 * What some matchers (a silence's, a window's) and/or server ids match now (issue 14 §2, §3): open
 * alerts, and servers whose alerts they can match (every server-level matcher — hostname,
 * label.* — holds; alert-level ones like alertname are judged per alert). Compiles first, so a
 * bad regex is a 400 naming it. Open alerts and servers are a few thousand rows at most: read
 * once, matched here with the same code the router uses.
 */
export async function previewMatch(db: Db, target: { matchers: readonly Matcher[]; serverIds?: readonly string[] }): Promise<MatchPreview> {
  const match = compileAll(target.matchers);
  const serverMatch = compileServerLevel(target.matchers);
  const byId = new Set(target.serverIds ?? []);
  const hasMatchers = target.matchers.length > 0;
  const servers = (
    await db.execute<{ id: string; hostname: string; ipaddress: string; labels: Record<string, string> | string }>(sql`select id, hostname, ipaddress, labels from servers order by hostname_lc, id`)
  ).rows.map((s) => ({ ...s, labels: typeof s.labels === 'string' ? (JSON.parse(s.labels) as Record<string, string>) : (s.labels ?? {}) }));
  const matchedServers = servers.filter((s) => byId.has(s.id) || (hasMatchers && serverMatch(s)));
  const labelsOf = new Map(servers.map((s) => [s.id, s.labels]));
  const open = (
    await db.execute<{ id: string; server_id: string; alertname: string; hostname: string; severity: string; status: string; type: string; service: string | null; mountpoint: string | null }>(
      sql`select id, server_id, alertname, hostname, severity, status, type, service, mountpoint from alerts where status <> 'resolved' order by created_at desc, id desc`,
    )
  ).rows;
  const matchedAlerts = open.filter((a) => byId.has(a.server_id) || (hasMatchers && match({ ...a, labels: labelsOf.get(a.server_id) ?? {} })));
  let warning: string | null = null;
  if (!matchedServers.length && !matchedAlerts.length) warning = 'This matches nothing now: no server and no open alert. Check the names and values (regexes must match the whole value).';
  else if (!matchedAlerts.length) {
    // A typo in an alert name matches every server and never an alert: say so.
    const names = target.matchers.filter((m) => m.name === 'alertname' && m.op === '=').map((m) => m.value);
    if (names.length) {
      const known = new Set((await db.execute<{ name: string }>(sql`select distinct name from alert_rules`)).rows.map((r) => r.name));
      const unknown = names.filter((n) => !known.has(n));
      if (unknown.length && known.size) warning = `No rule is named ${unknown.map((n) => `“${n}”`).join(', ')}: this matches no alert.`;
    }
  }
  return {
    alerts: matchedAlerts.slice(0, SHOWN).map((a) => ({ _id: a.id, alertname: a.alertname, hostname: a.hostname, severity: a.severity, status: a.status, service: a.service, mountpoint: a.mountpoint })),
    alertCount: matchedAlerts.length,
    servers: matchedServers.slice(0, SHOWN).map((s) => ({ _id: s.id, hostname: s.hostname, ipaddress: s.ipaddress })),
    serverCount: matchedServers.length,
    warning,
  };
}
