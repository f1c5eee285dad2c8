import type { FastifyError, FastifyInstance } from 'fastify';
import type { ZodError } from 'zod';
import type { Database } from '../db/client';
import { FAULT_MESSAGES, faultsOf, classifyFault } from '../ops/faults';
import { MAX_BODY_BYTES } from './limits';

/** An error with an HTTP status that is safe to show: its message goes to the client as is. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

const reasons: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export const badRequest = (message: string, field?: string) => new HttpError(400, message, field);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const conflict = (message: string, field?: string) => new HttpError(409, message, field);

/** The first zod issue as a 400 naming its field: "email: email is required". */
export function fromZod(error: ZodError, prefix?: string): HttpError {
  const issue = error.issues[0];
  if (!issue) return badRequest('Invalid input');
  const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') {
    const keys = (issue as { keys?: string[] }).keys ?? [];
    const field = [prefix, ...issue.path.map(String), keys[0]].filter(Boolean).join('.');
    return badRequest(`Unknown field${keys.length > 1 ? 's' : ''} ${keys.map((k) => `"${k}"`).join(', ')}`, field);
  }
  if (issue.code === 'invalid_type' && /received undefined/.test(message)) message = 'is required';
  return badRequest(path ? `${path}: ${message}` : message, path || undefined);
}

/** Postgres error codes surface under err.code (pg, PGlite) or err.cause.code (drizzle's wrapper). */
export function pgCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } };
  if (typeof e?.code === 'string') return e.code;
  if (typeof e?.cause?.code === 'string') return e.cause.code;
  return undefined;
}

/** The constraint (unique index) a PostgreSQL error names, under err.constraint or err.cause.constraint. */
export function pgConstraint(err: unknown): string | undefined {
  const e = err as { constraint?: unknown; cause?: { constraint?: unknown } };
  if (typeof e?.constraint === 'string') return e.constraint;
  if (typeof e?.cause?.constraint === 'string') return e.cause.constraint;
  return undefined;
}

/** JSON errors everywhere under /api; never a stack trace, never a 500 for bad input. */
export function installErrorHandlers(app: FastifyInstance, database?: Database): void {
  app.setErrorHandler((err: FastifyError | HttpError, request, reply) => {
    let status = err.statusCode ?? 500;
    let message = err.message;
    let field = err instanceof HttpError ? err.field : undefined;
    const code = (err as FastifyError).code;
    if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.name === 'SyntaxError') {
      status = 400;
      message = 'The request body is not valid JSON';
    } else if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      status = 413;
      message = `The request body is too large (at most ${MAX_BODY_BYTES / 1024 / 1024} MB)`;
    } else if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      status = 415;
      message = `Unsupported content-type ${JSON.stringify(request.headers['content-type'] ?? '')}: send application/json`;
    } else if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      status = 400;
      message = 'The request body is empty; send JSON or no content-type';
    } else if (pgCode(err) === '22P02' || pgCode(err) === '22007' || pgCode(err) === '22008') {
      status = 400;
      message = 'A value has the wrong format';
    } else if (pgCode(err) === '23505') {
      status = 409;
      message = 'This value is already taken';
    } else if (status >= 500) {
      // Not a fault of this request or of the code: say which (a full disk, a read-only
      // database, no free connection, no database at all) with a stable reason, and remember it
      // for readiness and the meta alert (server/ops/faults.ts).
      const pool = database?.poolCounts?.();
      const reason = database ? faultsOf(database).record(err, pool) : classifyFault(err, pool);
      if (reason) {
        request.log.warn({ err: (err as Error).message, reason }, `request failed: ${FAULT_MESSAGES[reason]}`);
        return void reply.status(503).send({ statusCode: 503, error: reasons[503], message: FAULT_MESSAGES[reason], reason });
      }
    }
    if (status >= 500) {
      request.log.error({ err }, 'request failed');
      message = 'Internal server error';
      field = undefined;
    }
    void reply.status(status).send({ statusCode: status, error: reasons[status] ?? 'Error', message, ...(field ? { field } : {}) });
  });
}
