import { Hono } from 'hono';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { apiError } from '../lib/errors.ts';

/** Only keys the upload route makes: a uuid-like name and an image extension. */
const KEY = /^[A-Za-z0-9_-]{1,100}\.(?:jpg|png|gif|webp)$/;

export const mediaRoutes = new Hono<AppEnv>().get('/:key', async (c) => {
  const key = c.req.param('key');
  if (!KEY.test(key)) return apiError(c, 404, MSG.notFound);
  const object = await c.env.MEDIA.get(key, { onlyIf: c.req.raw.headers });
  if (!object) return apiError(c, 404, MSG.notFound);
  const headers = new Headers();
  object.writeHttpMetadata(headers);
  headers.set('etag', object.httpEtag);
  // Keys are never reused, so a photo can be cached for good.
  headers.set('cache-control', 'public, max-age=31536000, immutable');
  // Served bytes can never run as a page.
  headers.set('content-security-policy', "default-src 'none'; sandbox");
  headers.set('x-content-type-options', 'nosniff');
  if (!('body' in object) || !object.body) return new Response(null, { status: 304, headers });
  return new Response(object.body, { headers });
});
