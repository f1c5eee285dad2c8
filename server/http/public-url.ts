import type { FastifyRequest } from 'fastify';
import { isHostHeader } from '../contract/agent';
import { badRequest } from './errors';

/**
 * Where others reach this console, for addresses handed out (an agent's install token, a calendar
 * feed's URL): PUBLIC_URL, else the address this request came to, which must then be a plain
 * host[:port] — the Host header is the caller's to write, and what is made from it is pasted
 * elsewhere (a root shell, a calendar app).
 */
export function publicUrlOf(request: FastifyRequest, publicUrl: string | undefined): string {
  if (publicUrl) return publicUrl;
  const host = request.host;
  if (!host || !isHostHeader(host)) throw badRequest(`The Host header ${JSON.stringify(host ?? '')} is not a host[:port]; set PUBLIC_URL to the address hosts reach this console at`, 'host');
  return `${request.protocol}://${host}`;
}
