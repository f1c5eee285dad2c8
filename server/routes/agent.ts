import type { FastifyInstance, FastifyRequest } from 'fastify';
import { agentPortRefusal, checkKey, createApiKey, listApiKeys, recordAgentInstalled, revokeApiKey, setAgentConfigured, validateApiKey, type KeyCheck } from '../agent/service';
import { audited, auditActor, auditTarget } from '../audit/trail';
import { endpoints } from '../contract/api-routes';
import type { Db } from '../db/client';
import { badRequest, HttpError } from '../http/errors';
import { publicUrlOf } from '../http/public-url';
import { serve } from '../http/serve';
import type { Monitoring } from '../monitoring/monitoring';
import { serverTarget } from '../servers/service';

/** The key of `Authorization: Bearer <key>` (or `x-api-key`, for clients that cannot set Authorization). */
function presentedKey(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization?.trim();
  if (header) {
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    return m?.[1];
  }
  const x = request.headers['x-api-key'];
  return typeof x === 'string' ? x.trim() : undefined;
}

/**
 * SPEC §3/§4/§7 agent onboarding: API keys for the installer, the install token, the port check
 * and the final "agent configured" switch. The installer itself is served by routes/agent-downloads.ts.
 */
export function registerAgent(app: FastifyInstance, db: Db, monitoring: Monitoring, options: { publicUrl?: string }): void {
  /** Where the installer reaches this console (it ends up in a token and a command someone pastes into a root shell). */
  const apiUrlOf = (request: FastifyRequest) => publicUrlOf(request, options.publicUrl);

  serve(app, endpoints['agent.createKey'], async ({ body, user, request }) => {
    // Before anything is written: a refused Host leaves no key behind.
    const apiUrl = apiUrlOf(request);
    return { data: await audited(request, db, (tx, audit) => createApiKey(tx, { ...body, apiUrl }, user, audit)) };
  });

  // Called by the installer (no session): the key is the credential, so it is in the path as SPEC says.
  serve(app, endpoints['agent.validateKey'], async ({ params }) => ({ data: await validateApiKey(db, params) }));

  /**
   * The installer's key is checked before its report is read: an unknown key hears 401 whatever
   * it sent, and a live one is the record's actor even when its report is refused.
   */
  const keys = new WeakMap<FastifyRequest, Extract<KeyCheck, { ok: true }>>();
  const agentKey = async (request: FastifyRequest) => {
    const check = await checkKey(db, presentedKey(request));
    // An unknown key names nobody: the refusal is in the request log, not the trail.
    if (!check.ok) throw new HttpError(401, check.message);
    auditActor(request, { kind: 'agent', userId: null, username: `agent key ${check.prefix}…`, role: null, keyId: check.keyId, label: check.prefix });
    auditTarget(request, serverTarget(check.server));
    if (!check.privileges.includes('UPDATE')) throw new HttpError(403, 'This API key may not update its server (it lacks the UPDATE privilege)');
    keys.set(request, check);
  };
  serve(
    app,
    endpoints['agent.installed'],
    async ({ body, request }) => {
      const check = keys.get(request)!;
      const data = await audited(request, db, (tx) => recordAgentInstalled(tx, { keyId: check.keyId, server: check.server, report: body }));
      request.log.info({ server: check.server.id, report: body }, 'agent installed');
      return { data };
    },
    { before: ({ request }) => agentKey(request) },
  );

  serve(app, endpoints['agent.keys'], async ({ query }) => {
    const data = await listApiKeys(db, query);
    return { result: { data, count: data.length } };
  });

  serve(app, endpoints['agent.revokeKey'], async ({ params, request }) => ({ result: await audited(request, db, (tx, audit) => revokeApiKey(tx, params, audit)) }));

  serve(app, endpoints['agent.checkPort'], async ({ params, reply }) => {
    const message = await agentPortRefusal(db, params, app.outbound);
    if (message === null) return { isPortAccessible: true };
    // SPEC §7/§8: the failure is an error whose message the wizard shows (response.data.message).
    // 422: the request was fine, the server's agent port is what is not; never a 5xx, which would
    // read as the console failing.
    return reply.status(422).send({ statusCode: 422, error: 'Unprocessable Entity', message, isPortAccessible: false, data: { message } });
  });

  serve(app, endpoints['agent.setConfigured'], async ({ params, request }) => ({
    isAgentConfigured: true,
    result: await audited(request, db, (tx, audit) => setAgentConfigured(tx, params, audit, monitoring)),
  }));
}
