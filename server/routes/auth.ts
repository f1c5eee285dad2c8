import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../contract/auth';
import { endpoints } from '../contract/api-routes';
import { checkSignin } from '../auth/signin';
import { SigninLimiter } from '../auth/signin-limiter';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { forbidden } from '../http/errors';
import { serve } from '../http/serve';
import { cookieOptions, createSession, destroySession, readToken, requireUser } from '../http/session';
import { audited, auditActor, auditTarget } from '../audit/trail';
import { getAccount, renameAccount, userTarget } from '../users/service';

/** The account drawer (SPEC §7: resource auth/users with an id) opens and renames only oneself. */
const ownAccount = (verb: 'open' | 'change') => async (request: FastifyRequest) => {
  const me = requireUser(request);
  if ((request.params as { id: string }).id !== me._id) throw forbidden(`You can only ${verb} your own account`);
  // Before the body is parsed: a refused rename is recorded against the account it tried to change.
  if (verb === 'change') auditTarget(request, userTarget({ id: me._id, username: me.username }));
};

export function registerAuth(app: FastifyInstance, db: Db, config: Config): void {
  // Failed attempts per account and address (request.ip: the real client when TRUST_PROXY is set).
  const limiter = new SigninLimiter({ failuresBeforeBackoff: config.signinRateLimit, firstBackoffS: config.signinBackoffS.first, maxBackoffS: config.signinBackoffS.max });
  serve(app, endpoints['auth.signin'], async ({ body, request, reply }) => {
    const user = await checkSignin(db, limiter, body, request.ip, {
      tried: (actor, target) => {
        auditActor(request, actor);
        if (target) auditTarget(request, target);
      },
      backOff: (seconds) => void reply.header('retry-after', String(seconds)),
    });
    const { token } = await audited(request, db, (tx) => createSession(tx, user._id, config.sessionTtlMs));
    reply.setCookie(SESSION_COOKIE, token, cookieOptions(config.cookieSecure, config.sessionTtlMs));
    return { result: user };
  });

  // Always succeeds: signing out of an expired session is still signing out (SPEC §8 calls it on 401).
  serve(app, endpoints['auth.signout'], async ({ request, reply }) => {
    const token = readToken(request);
    if (token && request.user) {
      auditTarget(request, userTarget({ id: request.user._id, username: request.user.username }));
      await audited(request, db, (tx) => destroySession(tx, token));
    } else if (token) {
      // An expired or unknown session: nobody to name, nothing of anyone's changes.
      await destroySession(db, token);
    }
    reply.clearCookie(SESSION_COOKIE, cookieOptions(config.cookieSecure));
    return { result: true as const };
  });

  serve(app, endpoints['auth.whoami'], async ({ user }) => ({ result: user }));

  serve(app, endpoints['auth.account'], async ({ user }) => ({ result: await getAccount(db, user) }), { before: ({ request }) => ownAccount('open')(request) });

  serve(app, endpoints['auth.updateAccount'], async ({ body, user, request }) => ({ result: await audited(request, db, (tx, audit) => renameAccount(tx, body, user, audit)) }), { before: ({ request }) => ownAccount('change')(request) });
}
