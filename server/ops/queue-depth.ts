import type { Database } from '../db/client';

/** Notifications waiting in the outbox (the delivery worker's backlog), for /metrics. */
export async function outboxDepth(database: Database): Promise<number> {
  return Number((await database.query<{ n: number }>('select count(*)::int as n from alert_outbox where processed_at is null'))[0]?.n ?? 0);
}
