import { parse, protocol, types, type PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { PgDialect, PgTransaction } from 'drizzle-orm/pg-core';
import type { Database, Db } from './client';
import { paceTurn } from './pglite-turns';

/**
 * A statement PGlite keeps parsed under a name, with what Bind and the row parser need: a
 * statement run through it is neither parsed nor analysed again, and after five runs PostgreSQL
 * keeps one generic plan for it when that plan costs no more than the custom ones (plancache.c),
 * so it is not planned again either. Schema changes invalidate the plan; PostgreSQL re-plans.
 */
type Message = Parameters<typeof parse.parseResults>[0][number];
interface Named {
  name: string;
  paramTypes: number[];
  /** The statement's row description, put before its data rows for PGlite's row parser. */
  rowDescription: Message | undefined;
}

/** Per PGlite instance (a restore opens a new one, whose session has none of them). */
const named = new WeakMap<PGlite, Map<string, Named>>();
/** Only fixed statements come here; a text that varies would otherwise grow the session without end. */
const MAX_NAMED = 32;
const dialect = new PgDialect();
/** As drizzle's PGlite driver reads them, so rows are the same whichever path ran the statement. */
const rawDates = {
  [types.TIMESTAMP]: (value: string) => value,
  [types.TIMESTAMPTZ]: (value: string) => value,
  [types.INTERVAL]: (value: string) => value,
  [types.DATE]: (value: string) => value,
};

/** For bench/alert-tick-statements.ts: what each cached run cost (its text, CPU ms). */
export const cachedPlanProbe: { onRun: ((text: string, cpuMs: number) => void) | null } = { onRun: null };

/**
 * `tx.execute(query)` for the statements the alert evaluation tick runs every time with the same
 * text (docs/decisions.md "Kept plans, candidates by the lowest enabled threshold"): on PGlite, through a named prepared statement of PGlite's session, so the
 * tick does not parse and plan them again on every run (1.5–3 ms for the grace-period statement
 * alone, on the thread that serves the API); on PostgreSQL, and outside a transaction, exactly
 * `tx.execute`. Only inside a transaction of `database` (`tx`): PGlite's transaction lock then
 * keeps every other statement out of the session while the protocol messages run.
 */
export async function executeCached<T extends Record<string, unknown>>(database: Database, tx: Db, query: SQL): Promise<{ rows: T[] }> {
  const pg = database.pglite;
  const plain = async () => ({ rows: (await tx.execute(query)).rows as T[] });
  if (database.kind !== 'pglite' || !pg || !(tx instanceof PgTransaction)) return plain();
  const { sql: text, params } = dialect.sqlToQuery(query);
  let session = named.get(pg);
  if (!session) named.set(pg, (session = new Map()));
  let statement = session.get(text);
  if (!statement && session.size >= MAX_NAMED) return plain();
  // The transaction's own statements give the event loop a turn once they have run 5 ms; so do these.
  await paceTurn(pg);
  const cpu = cachedPlanProbe.onRun ? process.cpuUsage() : null;
  const result = await pg.runExclusive(async () => {
    const messages: Message[] = [];
    try {
      if (!statement) {
        const name = `opsdeck_cached_${session.size + 1}`;
        await pg.execProtocol(protocol.serialize.parse({ name, text }), { syncToFs: false });
        const described = (await pg.execProtocol(protocol.serialize.describe({ type: 'S', name }), { syncToFs: false })).messages;
        statement = {
          name,
          paramTypes: parse.parseDescribeStatementResults(described),
          rowDescription: described.find((m) => m.name === 'rowDescription'),
        };
        session.set(text, statement);
      }
      const { name, paramTypes, rowDescription } = statement;
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serialize = pg.serializers[paramTypes[i]!];
        return serialize ? serialize(value) : String(value);
      });
      if (rowDescription) messages.push(rowDescription);
      messages.push(...(await pg.execProtocol(protocol.serialize.bind({ statement: name, values }), { syncToFs: false })).messages);
      messages.push(...(await pg.execProtocol(protocol.serialize.execute({}), { syncToFs: false })).messages);
    } finally {
      messages.push(...(await pg.execProtocol(protocol.serialize.sync(), { syncToFs: false, throwOnError: false })).messages);
    }
    const [result] = parse.parseResults(messages, pg.parsers, { parsers: rawDates });
    return { rows: (result?.rows ?? []) as T[] };
  });
  if (cpu) {
    const used = process.cpuUsage(cpu);
    cachedPlanProbe.onRun?.(text, (used.user + used.system) / 1000);
  }
  return result;
}
