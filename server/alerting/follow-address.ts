import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../db/client';
import { alerts } from '../db/schema';

/**
 * An open alert (firing or snoozed) shows its server's current address (docs/decisions.md,
 * issue 13): when a server's address changes (an edit, the demo fleet re-pointing a host that
 * could not have its own address at first), its open alerts' `instance` changes with it, in the
 * caller's transaction. Resolved alerts keep the address they fired at: they are the record of
 * that time, as the incident report quotes them. Returns how many alerts changed.
 */
export async function openAlertsFollowAddress(db: Db, serverId: string, ipaddress: string): Promise<number> {
  const changed = await db
    .update(alerts)
    .set({ instance: ipaddress })
    .where(and(eq(alerts.serverId, serverId), ne(alerts.status, 'resolved'), ne(alerts.instance, ipaddress)))
    .returning({ id: alerts.id });
  return changed.length;
}
