import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chooseEncoding } from './static-site.ts';

/** Types worth compressing; images, fonts and archives are compressed already. */
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|xml|manifest\+json)|image\/svg\+xml)/;
/** Below this a compressed body saves less than its headers cost. */
const MIN_BYTES = 1024;
/** Above this a body is sent as it is rather than held in memory to compress (none of ours is). */
const MAX_BYTES = 8 * 1024 * 1024;
/**
 * Brotli at quality 5: a third smaller than gzip on our JSON and HTML and as quick to make. (Node's
 * default quality 11 takes ~10 ms for the catalogue's 11 KB, which every visitor would wait for.)
 */
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };
/**
 * Above this a body is compressed at the quickest levels (brotli 1, gzip 1): compressing costs
 * in step with the bytes, and the search at 1,500 cabins (~650 KB of JSON) took ~3 ms at brotli 5
 * or gzip 6 against ~0.3 ms (brotli 1, 11.5 KB instead of 8.6 KB) and ~0.7 ms (gzip 1, 17 KB
 * instead of 13.5 KB). Our other answers (the catalogue's page, ~84 KB; pages) stay below.
 */
const LARGE_BYTES = 128 * 1024;
const BROTLI_LARGE = { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } };

/**
 * What the app answers (API JSON, the admin shell, the 404 page) leaves compressed when the client
 * takes it, on Workers by Cloudflare's edge, here by this: in one synchronous zlib call on the
 * whole body, which for our answers of a few KB costs a fraction of a millisecond (and for the
 * largest, at the quickest levels, well under one). (hono/compress
 * streams through CompressionStream, whose per-chunk hops to the thread pool cost milliseconds
 * on every request.) Static files come precompressed and never pass here.
 */
export async function compressResponse(req: Request, res: Response): Promise<Response> {
  if (req.method === 'HEAD' || !res.body || res.status === 204 || res.status === 304) return res;
  if (res.headers.has('content-encoding') || /\bno-transform\b/.test(res.headers.get('cache-control') ?? ''))
    return res;
  if (!COMPRESSIBLE.test(res.headers.get('content-type') ?? '')) return res;
  const length = Number(res.headers.get('content-length') ?? NaN);
  if (length > MAX_BYTES) return res;
  const encoding = chooseEncoding(req.headers.get('accept-encoding'));
  const headers = new Headers(res.headers);
  headers.append('vary', 'accept-encoding');
  if (!encoding) return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  const body = new Uint8Array(await res.arrayBuffer());
  if (body.length < MIN_BYTES || body.length > MAX_BYTES)
    return new Response(body, { status: res.status, statusText: res.statusText, headers });
  const large = body.length > LARGE_BYTES;
  const packed =
    encoding === 'br'
      ? brotliCompressSync(body, large ? BROTLI_LARGE : BROTLI)
      : gzipSync(body, { level: large ? 1 : 6 });
  headers.set('content-encoding', encoding);
  headers.set('content-length', String(packed.length));
  // A strong validator names one representation: the compressed one is another (RFC 9110 §8.8.1).
  const etag = headers.get('etag');
  if (etag && !etag.startsWith('W/')) headers.set('etag', `${etag.slice(0, -1)}-${encoding}"`);
  return new Response(packed, { status: res.status, statusText: res.statusText, headers });
}
