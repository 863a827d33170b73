import type { Context } from 'hono';
import type { AppEnv } from '../env.ts';

/**
 * GET /b/{token}: the guest's own page, the build's shell whose island reads the
 * booking from GET /api/guest/{token}. The shell is the same for every token, so an unknown one
 * costs as much as a known one here; the API answers 404 for it. The address is the guest's key:
 * never cached, never indexed; the pages' Referrer-Policy (strict-origin-when-cross-origin) gives
 * another site (the map) the origin only, never the path.
 */
export async function guestPage(c: Context<AppEnv>): Promise<Response> {
  const shell = await c.env.ASSETS.fetch(new URL('/shell/guest', c.req.url));
  if (!shell.ok) return c.notFound();
  const res = new Response(shell.body, shell);
  res.headers.set('content-type', 'text/html; charset=utf-8');
  res.headers.set('cache-control', 'no-store');
  res.headers.set('x-robots-tag', 'noindex, nofollow');
  return res;
}
