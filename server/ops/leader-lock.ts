import type { Database } from '../db/client';

/**
 * The PostgreSQL advisory lock whose holder is the leader: the one process that runs background
 * work (collector, evaluator, rollups, delivery). A session-level lock on a connection of its
 * own, so it goes when that connection or the process dies.
 */
export const LEADER_LOCK_KEY = '7311852963001';

/**
 * The backend holding the leader lock, as PostgreSQL sees it (any process may ask): its pid and
 * the application_name the leader set on its connection. null: nobody holds it.
 */
export async function leaderHolder(database: Database): Promise<{ pid: number; name: string } | null> {
  const [row] = await database.query<{ pid: number; name: string | null }>(
    `select l.pid, a.application_name as name
     from pg_locks l left join pg_stat_activity a on a.pid = l.pid
     where l.locktype = 'advisory' and l.granted and l.objsubid = 1
       and l.classid::bigint = ($1::bigint >> 32) and l.objid::bigint = ($1::bigint & 4294967295)
       and l.database = (select oid from pg_database where datname = current_database())
     limit 1`,
    [LEADER_LOCK_KEY],
  );
  return row ? { pid: Number(row.pid), name: row.name ?? '' } : null;
}
