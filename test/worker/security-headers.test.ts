import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import app from '../../worker/index.ts';
import { GIF, JPEG, PNG, WEBP, login, resetDataWithAdmin, uploadRequest, jsonOf, type Uploaded } from './helpers.ts';

/**
 * The security headers of every class of response the worker makes itself, on a real host and
 * on the local ones. security.test.ts checks the API's headers on 127.0.0.1; this file adds the
 * other classes (media, the 404 page, the admin shell, a 500), base-uri, HSTS per host and the
 * media type rules. Static pages served straight from dist/ get their headers from the asset
 * layer (dist/_headers), not from the worker, and are not covered here.
 */
beforeEach(resetDataWithAdmin);

const REAL = 'https://kaspiy-dom.ru';
const LOCAL = ['http://127.0.0.1', 'http://localhost'];
const PHOTO = '11111111-2222-3333-4444-555555555555.jpg';
const SHELL = '<!doctype html><title>admin shell</title>';
/** The results page's shell as the build writes it: its own policy in a <meta>, Metrika's host in it when a counter is set. */
const SEARCH_SHELL =
  '<!doctype html><meta http-equiv="content-security-policy" content="default-src \'self\'; script-src \'self\' https://mc.yandex.ru"><title>search</title>';

/** The real ASSETS, except that the admin shell exists (dist/ may not be built). */
const assetsWithShell = {
  fetch: (input: RequestInfo | URL, init?: RequestInit) => {
    const u = new URL(input instanceof Request ? input.url : String(input));
    if (u.pathname.startsWith('/shell/admin'))
      return Promise.resolve(new Response(SHELL, { headers: { 'content-type': 'text/html; charset=utf-8' } }));
    if (u.pathname.startsWith('/shell/search'))
      return Promise.resolve(new Response(SEARCH_SHELL, { headers: { 'content-type': 'text/html; charset=utf-8' } }));
    return env.ASSETS.fetch(input as never, init as never);
  },
} as Fetcher;

const failingDb = new Proxy({} as D1Database, {
  get: () => () => {
    throw new Error('D1_ERROR: Network connection lost.');
  },
});

async function direct(origin: string, path: string, init: RequestInit = {}, bindings: Partial<typeof env> = {}) {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(new URL(path, origin), init),
    { ...env, ASSETS: assetsWithShell, ...bindings },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  await res.clone().arrayBuffer();
  return res;
}

/** Every class of response the worker makes, with the status it must have. */
const CLASSES: [string, number, (origin: string, cookie: string) => Promise<Response>][] = [
  ['API JSON', 200, (o) => direct(o, '/api/cabins')],
  ['API JSON for the admin', 200, (o, cookie) => direct(o, '/api/admin/session', { headers: { cookie } })],
  ['API error 400', 400, (o) => direct(o, '/api/cabins/abc')],
  ['API error 401', 401, (o) => direct(o, '/api/admin/path')],
  [
    'API error 403',
    403,
    (o) =>
      direct(o, '/api/reviews', {
        method: 'POST',
        headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
        body: '{}',
      }),
  ],
  ['API error 404', 404, (o) => direct(o, '/api/nope')],
  [
    'API error 413',
    413,
    (o) =>
      direct(o, '/api/reviews', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: 'x'.repeat(300 * 1024),
      }),
  ],
  [
    'API error 415',
    415,
    (o) => direct(o, '/api/reviews', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' }),
  ],
  [
    'API error 500',
    500,
    async (o) => {
      const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
      try {
        return await direct(o, '/api/cabins', {}, { DB: failingDb });
      } finally {
        quiet.mockRestore();
      }
    },
  ],
  ['media 200', 200, (o) => direct(o, `/media/${PHOTO}`)],
  [
    'media 304',
    304,
    async (o) => {
      const etag = (await direct(o, `/media/${PHOTO}`)).headers.get('etag')!;
      return direct(o, `/media/${PHOTO}`, { headers: { 'if-none-match': etag } });
    },
  ],
  ['media 404', 404, (o) => direct(o, '/media/00000000-0000-0000-0000-000000000000.jpg')],
  ['media 404 for a nested path', 404, (o) => direct(o, '/media/a/b.jpg')],
  ['404 page', 404, (o) => direct(o, '/no-such-page')],
  ['404 page for a POST', 404, (o) => direct(o, '/no-such-page', { method: 'POST' })],
  ['admin shell', 200, (o) => direct(o, '/admin')],
  ['results page', 200, (o) => direct(o, '/search')],
];

const STRICT_REFERRER = ['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'];

/** CSP directives as a map: name → sources. */
function csp(res: Response): Map<string, string[]> {
  const header = res.headers.get('content-security-policy') ?? '';
  return new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!.toLowerCase(), sources]),
  );
}

async function setUp() {
  await env.MEDIA.put(PHOTO, JPEG, { httpMetadata: { contentType: 'image/jpeg' } });
  return login();
}

describe.each(CLASSES)('%s', (name, status, call) => {
  it('should carry nosniff, a strict referrer policy and a CSP with object-src, base-uri and frame-ancestors none', async () => {
    const cookie = await setUp();
    for (const origin of [REAL, ...LOCAL]) {
      const res = await call(origin, cookie);
      expect(res.status, `${name} on ${origin}`).toBe(status);
      expect(res.headers.get('x-content-type-options'), origin).toBe('nosniff');
      expect(STRICT_REFERRER, origin).toContain(res.headers.get('referrer-policy'));
      const policy = csp(res);
      expect(policy.get('object-src'), origin).toEqual(["'none'"]);
      expect(policy.get('base-uri'), origin).toEqual(["'none'"]);
      expect(policy.get('frame-ancestors'), origin).toEqual(["'none'"]);
      for (const sources of policy.values()) expect(sources, origin).not.toContain("'unsafe-eval'");
      expect(res.headers.get('x-powered-by')).toBeNull();
    }
  });

  it('should send HSTS for at least a year on a real host, and never on 127.0.0.1 or localhost', async () => {
    const cookie = await setUp();
    const hsts = (await call(REAL, cookie)).headers.get('strict-transport-security') ?? '';
    expect(Number(/max-age=(\d+)/.exec(hsts)?.[1] ?? 0)).toBeGreaterThanOrEqual(31_536_000);
    for (const origin of LOCAL)
      expect((await call(origin, cookie)).headers.get('strict-transport-security'), origin).toBeNull();
  });
});

describe('the results page', () => {
  it('should leave scripts, connections and images to the policy its build wrote, so Metrika loads there once a counter is set', async () => {
    await setUp();
    for (const origin of [REAL, ...LOCAL]) {
      const res = await direct(origin, '/search');
      expect(res.status).toBe(200);
      for (const directive of ['default-src', 'script-src', 'connect-src', 'img-src'])
        expect(csp(res).has(directive), `${directive} on ${origin}`).toBe(false);
      expect(await res.text()).toContain('https://mc.yandex.ru');
    }
  });
});

describe('media responses', () => {
  it('should serve a photo with default-src none and a sandbox that allows nothing', async () => {
    await setUp();
    for (const res of [await direct(REAL, `/media/${PHOTO}`), await direct(LOCAL[0]!, `/media/${PHOTO}`)]) {
      const policy = csp(res);
      expect(policy.get('default-src')).toEqual(["'none'"]);
      expect(policy.get('sandbox')).toEqual([]);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
  });

  it.each([
    ['JPEG', JPEG, 'image/jpeg'],
    ['PNG', PNG, 'image/png'],
    ['GIF', GIF, 'image/gif'],
    ['WebP', WEBP, 'image/webp'],
  ])('should serve an uploaded %s with its sniffed image type and nothing else', async (_, bytes, mime) => {
    const cookie = await setUp();
    const up = await uploadRequest({ bytes, name: 'photo.bin', type: 'application/octet-stream' }, { cookie });
    const { imageUrl } = await jsonOf<Uploaded>(up, 201);
    const res = await direct(LOCAL[0]!, imageUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(mime);
    expect(csp(res).get('default-src')).toEqual(["'none'"]);
  });

  it('should never pass on a stored type or header that is not the image type of the key', async () => {
    await setUp();
    // An object put in the bucket by hand or by a tampered restore, not by the upload route.
    const key = '99999999-8888-7777-6666-555555555555.jpg';
    await env.MEDIA.put(key, '<script>alert(1)</script>', {
      httpMetadata: {
        contentType: 'text/html; charset=utf-8',
        contentDisposition: 'inline; filename="x.html"',
        contentEncoding: 'identity',
        contentLanguage: 'en',
        cacheControl: 'no-cache',
      },
    });
    const res = await direct(LOCAL[0]!, `/media/${key}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('content-disposition')).toBeNull();
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('content-language')).toBeNull();
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(csp(res).get('sandbox')).toEqual([]);
  });

  it('should ignore malformed revalidation headers instead of failing (R2 would throw on them)', async () => {
    await setUp();
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const odd: Record<string, string>[] = [
      { 'if-none-match': '"' },
      { 'if-match': 'garbage' },
      { 'if-modified-since': 'yesterday' },
      { 'if-unmodified-since': '1990' },
    ];
    for (const headers of odd) {
      const res = await direct(LOCAL[0]!, `/media/${PHOTO}`, { headers });
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(JPEG);
    }
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });
});
