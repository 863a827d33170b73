import { Hono } from 'hono';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { apiError } from '../lib/errors.ts';

/** The keys of tasks' photos (worker/routes/today.ts): a prefix no uuid the upload route makes has. */
export const TASK_PHOTO_PREFIX = 'task-';
/** Only keys the upload route makes: a uuid-like name and an image extension. */
const KEY = /^[A-Za-z0-9_-]{1,100}\.(jpg|png|gif|webp)$/;
const MIME = { jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' } as const;
/** Nothing may load or run; base-uri and frame-ancestors do not fall back to default-src. */
export const MEDIA_CSP = "default-src 'none'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; sandbox";
/** `*` or a list of (weak) entity tags; R2 throws on anything else. */
const ETAGS = /^\s*(?:\*|(?:W\/)?"[^"]*"(?:\s*,\s*(?:W\/)?"[^"]*")*)\s*$/;

/**
 * The revalidation headers a photo GET honours, the malformed ones left out (a server may
 * ignore them; R2 would throw). Photos never change under a key, so If-Match and
 * If-Unmodified-Since have nothing to guard and are not passed on.
 */
function revalidation(headers: Headers): Headers {
  const out = new Headers();
  const etags = headers.get('if-none-match');
  if (etags && ETAGS.test(etags)) out.set('if-none-match', etags);
  const since = headers.get('if-modified-since');
  if (since && !Number.isNaN(Date.parse(since))) out.set('if-modified-since', since);
  return out;
}

export const mediaRoutes = new Hono<AppEnv>().get('/:key', async (c) => {
  const key = c.req.param('key');
  const ext = KEY.exec(key)?.[1] as keyof typeof MIME | undefined;
  // A task's photo is the panel's (GET /api/admin/tasks/{id}/photo), never a public file.
  if (!ext || key.startsWith(TASK_PHOTO_PREFIX)) return apiError(c, 404, MSG.notFound);
  const object = await c.env.MEDIA.get(key, { onlyIf: revalidation(c.req.raw.headers) });
  if (!object) return apiError(c, 404, MSG.notFound);
  // Only an image type, the one the key names (upload makes key and stored type from the
  // same sniffed bytes); no other stored metadata (encoding, disposition) is passed on.
  const headers = new Headers({ 'content-type': MIME[ext] });
  headers.set('etag', object.httpEtag);
  // Keys are never reused, so a photo can be cached for good.
  headers.set('cache-control', 'public, max-age=31536000, immutable');
  // Served bytes can never run as a page, nor be framed.
  headers.set('content-security-policy', MEDIA_CSP);
  headers.set('x-content-type-options', 'nosniff');
  if (!('body' in object) || !object.body) return new Response(null, { status: 304, headers });
  return new Response(object.body, { headers });
});
