import type { PGlite, Transaction } from '@electric-sql/pglite';

/**
 * How long PGlite's statements may run back to back before the event loop gets a turn (ms).
 * PGlite runs each statement synchronously on this thread, and its own lock hands the next
 * waiting statement on inside the same chain of promise callbacks: with eight list requests in
 * flight, or a tick's transaction of a dozen statements, timers and sockets waited until the
 * whole queue had run (issue 17 §3; docs/decisions.md "PGlite turns").
 */
export const SLICE_MS = 5;

type Query = PGlite['query'];
type Exec = PGlite['exec'];

/**
 * Gives the event loop a turn between PGlite statements once statements have run for SLICE_MS
 * without one: statements enter PGlite one at a time, in the order they were asked for (as
 * PGlite's own lock does), and before each one, if the current slice is used up, the caller
 * waits until timers, socket reads and the scrape worker's messages have had their turn. Statements inside a transaction (which holds the queue) are paced the same way.
 * Patches `query`, `exec` and `transaction` of this instance; drizzle calls those.
 */
/** Each paced instance's turn, for statements that reach PGlite other than by query and exec (cached-plans.ts). */
const turns = new WeakMap<PGlite, () => Promise<void>>();

/**
 * Inside a transaction of a paced instance: gives the event loop its turn if the current slice is
 * used up, as the transaction's own statements do. Resolves at once for an instance not paced.
 */
export function paceTurn(client: PGlite): Promise<void> {
  return turns.get(client)?.() ?? Promise.resolve();
}

export function paceStatements(client: PGlite): void {
  let sliceStart = -1;
  const endSlice = () => {
    sliceStart = -1;
  };
  /** Starts a slice, or ends a used-up one by letting the loop turn; cheap when there is time left. */
  const turn = async (): Promise<void> => {
    if (sliceStart < 0) {
      sliceStart = performance.now();
      // Runs once the current chain of callbacks has ended: the loop turned without our help.
      setImmediate(endSlice);
      return;
    }
    if (performance.now() - sliceStart < SLICE_MS) return;
    // Two immediates in a row: the first may still run in this turn's check phase (a chain
    // that began in a socket's callback), the second only after the next turn's timers and
    // poll phases — the ones this is for.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
    setImmediate(endSlice);
  };

  turns.set(client, turn);

  let queue: Promise<unknown> = Promise.resolve();
  /** Runs `work` after every statement asked for before it, on a fresh or unfinished slice. */
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(async () => {
      await turn();
      return work();
    });
    queue = run.catch(() => undefined);
    return run;
  };

  const query = client.query.bind(client) as Query;
  const exec = client.exec.bind(client) as Exec;
  const transaction = client.transaction.bind(client);

  const paced = (tx: Transaction): Transaction => {
    const txQuery = tx.query.bind(tx) as Query;
    const txExec = tx.exec.bind(tx) as Exec;
    return Object.assign(Object.create(tx) as Transaction, {
      query: (async (...args: Parameters<Query>) => {
        await turn();
        return txQuery(...args);
      }) as Query,
      exec: (async (...args: Parameters<Exec>) => {
        await turn();
        return txExec(...args);
      }) as Exec,
    });
  };

  client.query = ((...args: Parameters<Query>) => inTurn(() => query(...args))) as Query;
  client.exec = ((...args: Parameters<Exec>) => inTurn(() => exec(...args))) as Exec;
  client.transaction = (<T>(callback: (tx: Transaction) => Promise<T>) =>
    inTurn(() => transaction((tx) => callback(paced(tx))))) as PGlite['transaction'];
}
