import type { MiddlewareHandler } from 'hono';
import { MSG } from '../../schema/messages.ts';
import { apiError } from '../lib/errors.ts';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF: a write whose Origin (or Sec-Fetch-Site) names another site is refused, whatever its
 * content type. (hono/csrf checks form content types only.)
 */
export const sameOriginWrites: MiddlewareHandler = async (c, next) => {
  if (!SAFE.has(c.req.method)) {
    const origin = c.req.header('origin');
    const site = c.req.header('sec-fetch-site');
    const foreignOrigin = origin !== undefined && origin !== new URL(c.req.url).origin;
    if (foreignOrigin || site === 'cross-site' || site === 'same-site') return apiError(c, 403, MSG.forbiddenOrigin);
  }
  await next();
};
