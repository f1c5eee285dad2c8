import { sql } from 'drizzle-orm';
import { openAlertsFollowAddress } from '../alerting/follow-address';
import type { Database, Db } from '../db/client';

/** What registration needs of a demo host (fleet.ts's DemoHost has more). */
export interface RegisteredHost {
  key: string;
  hostname: string;
  ipaddress: string;
  port: number;
  os: 'linux' | 'windows';
}

const MARKER = 'demo.registered';

/**
 * Registers the demo fleet as agent-configured servers on the first start; on later starts
 * only re-points hosts whose address changed (a port fallback) and never brings back a demo
 * server an operator deleted.
 */
export async function registerDemoFleet(database: Database, hosts: RegisteredHost[]): Promise<{ created: number; moved: number }> {
  const firstTime = (await database.query('select 1 from settings where key = $1', [MARKER])).length === 0;
  const existing = new Map(
    (await database.query<{ id: string; demo_key: string; ipaddress: string; agent_port: number }>('select id, demo_key, ipaddress, agent_port from servers where demo_key is not null')).map(
      (r) => [r.demo_key, r],
    ),
  );
  let created = 0;
  let moved = 0;
  for (const host of hosts) {
    const row = existing.get(host.key);
    if (row) {
      if (row.ipaddress !== host.ipaddress || row.agent_port !== host.port) {
        // The host's open alerts move with it (they showed the address it had before).
        moved += await database.db.transaction(async (tx) => {
          const res = (await tx.execute(sql`
            update servers set ipaddress = ${host.ipaddress}, agent_port = ${host.port}, updated_at = now()
            where id = ${row.id} and not exists (select 1 from servers o where o.ipaddress = ${host.ipaddress} and o.agent_port = ${host.port} and o.id <> ${row.id}) returning id`)) as unknown as { rows: unknown[] };
          if (!res.rows.length) return 0;
          await openAlertsFollowAddress(tx as unknown as Db, row.id, host.ipaddress);
          return 1;
        });
      }
    } else if (firstTime) {
      const res = await database.query(
        `insert into servers (hostname, ipaddress, agent_port, operating_system, is_agent_configured, is_agent_installed, demo_key)
         values ($1, $2, $3, $4, true, true, $5) on conflict do nothing returning id`,
        [host.hostname, host.ipaddress, host.port, host.os, host.key],
      );
      created += res.length;
    }
  }
  if (firstTime) await database.query(`insert into settings (key, value) values ($1, $2) on conflict (key) do nothing`, [MARKER, JSON.stringify({ at: new Date().toISOString(), hosts: hosts.length })]);
  return { created, moved };
}
