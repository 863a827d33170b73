import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { ADMIN_SESSION_MS } from '../../schema/constants.ts';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { apiError } from '../lib/errors.ts';
import { SESSION_TOUCH_MS } from '../../schema/account.ts';
import { clientIp } from '../lib/client-ip.ts';
import { now } from '../lib/clock.ts';
import { findSession, touchSession } from '../queries/sessions.ts';
import { guardAndRecord } from './audit.ts';

export const SESSION_COOKIE = 'kaspiy_admin';

/**
 * Secure over https and on every other host; not on plain-http localhost, where browsers
 * would drop a Secure cookie. (The self-hosted server behind its proxy sees the visitor's https.)
 */
const isLocal = (c: Context) => {
  const url = new URL(c.req.url);
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
};

export function setSessionCookie(c: Context, token: string) {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Strict',
    secure: !isLocal(c),
    path: '/api',
    maxAge: ADMIN_SESSION_MS / 1000,
  });
}

export function clearSessionCookie(c: Context) {
  deleteCookie(c, SESSION_COOKIE, { path: '/api', secure: !isLocal(c) });
}

export const sessionToken = (c: Context) => getCookie(c, SESSION_COOKIE);

/**
 * Every admin route passes through here: a live server-side session or 401; then the role's
 * rights and the record of the request (worker/middleware/audit.ts, worker/middleware/roles.ts).
 * Runs once per request, though a sub-app's `use` and a route may both name it.
 */
export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.get('user')) return next();
  const token = sessionToken(c);
  const session = token ? await findSession(c.env, token) : undefined;
  if (!session) return apiError(c, 401, MSG.unauthorized);
  c.set('signedIn', true);
  c.set('user', session.user);
  c.set('session', session);
  if (now() - session.lastSeenAt >= SESSION_TOUCH_MS) await touchSession(c.env, session.id, clientIp(c));
  return guardAndRecord(c, next);
};
