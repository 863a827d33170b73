import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { ADMIN_SESSION_MS, DEVICE_COOKIE_MS } from '../../schema/constants.ts';
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
 * The device cookie: the browser signed in as a person before (worker/queries/devices.ts). It is
 * sent to the sign-in alone, lives long and outlives the session: logging out does not clear it.
 */
export const DEVICE_COOKIE = 'kaspiy_device';
const DEVICE_COOKIE_PATH = '/api/admin/login';

export function setDeviceCookie(c: Context, token: string) {
  setCookie(c, DEVICE_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Strict',
    secure: !isLocal(c),
    path: DEVICE_COOKIE_PATH,
    maxAge: DEVICE_COOKIE_MS / 1000,
  });
}

/** The device cookie's token if it has the shape of one (64 hex digits); anything else is no device. */
export const deviceToken = (c: Context): string | undefined => {
  const token = getCookie(c, DEVICE_COOKIE);
  return token && /^[0-9a-f]{64}$/.test(token) ? token : undefined;
};

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
