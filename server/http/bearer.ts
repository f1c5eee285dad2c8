import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/**
 * The token of `Authorization: Bearer <token>`, or of a bare `Authorization: <token>`: Prometheus
 * 2.42 sends http_sd credentials without the scheme unless `type: Bearer` is configured
 * (prometheus/prometheus#12762).
 */
export function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization?.trim();
  if (!header) return undefined;
  const [first, second, ...rest] = header.split(/\s+/);
  if (rest.length) return undefined;
  if (second === undefined) return first;
  return first?.toLowerCase() === 'bearer' ? second : undefined;
}

/** Compares a presented token with the configured one in constant time. */
export function sameToken(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
