import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors';
import { MAX_BODY_BYTES, MAX_JSON_DEPTH } from './limits';

/**
 * How deep `text`'s arrays and objects nest, stopping as soon as `limit` is passed: one pass over
 * the characters, brackets inside strings not counted. Done before JSON.parse so a body nested
 * thousands deep is refused before anything walks it recursively (zod, JSON.stringify, jsonb).
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > limit) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return false;
}

/**
 * JSON bodies: Fastify's own parser (which refuses `__proto__` and `constructor.prototype` keys)
 * behind a depth bound; the size bound is Fastify's bodyLimit, answered with a 413 that says it.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (request, body, done) => {
    if (jsonDepthExceeds(body as string, MAX_JSON_DEPTH)) {
      done(new HttpError(400, `The request body nests deeper than ${MAX_JSON_DEPTH} levels`), undefined);
      return;
    }
    parse(request, body as string, done);
  });
}
