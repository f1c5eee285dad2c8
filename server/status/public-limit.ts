import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { HttpError } from '../http/errors';

/**
 * Requests per address to the public status pages (`/status/<slug>` and its JSON API), the only
 * part of Opsdeck anyone can reach without signing in besides the sign-in itself: `perMinute`
 * requests in any minute (a fixed window from the address's first request), then a 429 with
 * Retry-After until the window ends. rate-limiter-flexible's memory store, like sign-in limiting
 * (docs/decisions.md): per process, each replica its own. The address is the one TRUST_PROXY
 * says the client has.
 */
export class PublicStatusLimiter {
  private readonly limiter: RateLimiterMemory | null;

  constructor(perMinute: number) {
    this.limiter = perMinute > 0 ? new RateLimiterMemory({ keyPrefix: 'public-status', points: perMinute, duration: 60 }) : null;
  }

  /** An onRequest hook: counts the request, or answers 429 with Retry-After (seconds). */
  readonly hook = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (!this.limiter) return;
    try {
      await this.limiter.consume(request.ip);
    } catch (rejected) {
      if (!(rejected instanceof RateLimiterRes)) throw rejected;
      const waitS = Math.max(1, Math.ceil(rejected.msBeforeNext / 1000));
      void reply.header('retry-after', String(waitS));
      throw new HttpError(429, `Too many requests for status pages from your address. Try again in ${waitS} s.`);
    }
  };
}
