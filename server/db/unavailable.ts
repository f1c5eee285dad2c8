/**
 * Whether an error means the database cannot be reached or is going away (as opposed to a bad
 * statement): connection refused or cut, a pool that could not connect in time, PostgreSQL
 * shutting down (class 08 connection exceptions, 57P01–57P03). Routes answer such errors with
 * 503, and background workers back off on them instead of logging every attempt.
 */
export function databaseUnavailable(error: unknown): boolean {
  for (let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03') return true;
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN'].includes(code)) return true;
    const message = typeof e.message === 'string' ? e.message : '';
    if (/Connection terminated|timeout exceeded when trying to connect|not queryable|Connection ended|database connection is unavailable|PGlite is closed/i.test(message)) return true;
  }
  return false;
}
