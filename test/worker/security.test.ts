import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { MSG } from '../../schema/messages.ts';
import app from '../../worker/index.ts';
import { ROUTE_RULES } from '../../worker/middleware/roles.ts';
import { getContentVersion } from '../../worker/queries/site-state.ts';
import {
  JPEG,
  ORIGIN,
  client,
  expectError,
  expectNoChange,
  jsonRequest,
  login,
  resetDataWithAdmin,
  sampleCabin,
  seedCabin,
  seedReview,
  seedUser,
  send,
  uploadRequest,
  url,
  validReview,
  type RequestOptions,
} from './helpers.ts';
import { sessionRoutes, type SessionRoute } from './session-routes.ts';

beforeEach(resetDataWithAdmin);

type Ids = { cabin: number; review: number; cookie: string };

/** Every route that needs a session, from the app's own route table (session-routes.ts). */
const SESSION_ROUTES = (await sessionRoutes()).map((r) => [r.key, r] as const);
const ruleOf = (key: string) => ROUTE_RULES[key]?.access ?? 'owner';

/** A request to the route with an empty JSON body: who may call it is decided before the body is read. */
const call = (route: SessionRoute, opts: RequestOptions) =>
  route.method === 'GET' ? send('GET', route.path, opts) : jsonRequest(route.method, route.path, {}, opts);

async function seedAll(): Promise<Ids> {
  const cabin = await seedCabin();
  const review = await seedReview();
  // A live admin session exists, just not in the request (unless a test sends ids.cookie).
  const cookie = await login();
  return { cabin: cabin.id, review: review.id, cookie };
}

describe('admin routes without a session', () => {
  it.each(SESSION_ROUTES)('should answer %s with 401 {error} and change nothing', async (_, route) => {
    await seedAll();
    await expectNoChange(async () => {
      await expectError(await call(route, {}), 401, MSG.unauthorized);
    });
  });

  it.each(SESSION_ROUTES)('should answer %s with a forged session cookie with 401', async (_, route) => {
    await seedAll();
    await expectNoChange(async () => {
      await expectError(await call(route, { cookie: `kaspiy_admin=${'a'.repeat(64)}` }), 401, MSG.unauthorized);
    });
  });

  it.each(SESSION_ROUTES)('should let a signed-in owner past the guard of %s (control)', async (_, route) => {
    const { cookie } = await seedAll();
    expect([401, 403]).not.toContain((await call(route, { cookie })).status);
  });

  it.each(SESSION_ROUTES)('should answer a manager on %s as the role table says', async (key, route) => {
    await seedAll();
    await seedUser('menedzher', 'manager-pass-1');
    const cookie = await login({ username: 'menedzher', password: 'manager-pass-1' });
    if (ruleOf(key) === 'owner') {
      await expectNoChange(async () => {
        await expectError(await call(route, { cookie }), 403, MSG.forbidden);
      });
    } else {
      expect([401, 403]).not.toContain((await call(route, { cookie })).status);
    }
  });

  it('should check the session before reading the body or the id', async () => {
    const ids = await seedAll();
    await expectNoChange(async () => {
      await expectError(await jsonRequest('POST', '/api/cabins', '{broken', {}), 401, MSG.unauthorized);
      await expectError(await jsonRequest('PUT', '/api/cabins/abc', {}, {}), 401, MSG.unauthorized);
      await expectError(
        await send('POST', '/api/upload', { body: 'x', headers: { 'content-type': 'text/plain' } }),
        401,
        MSG.unauthorized,
      );
      await expectError(await jsonRequest('PUT', `/api/reviews/${ids.review}`, '{', {}), 401, MSG.unauthorized);
    });
  });
});

describe('cross-origin writes', () => {
  const evil = 'https://evil.example';

  it.each([
    ['a JSON cabin create', (_: Ids, o: RequestOptions) => jsonRequest('POST', '/api/cabins', sampleCabin(), o)],
    [
      'a JSON settings save',
      (_: Ids, o: RequestOptions) => jsonRequest('PUT', '/api/settings', { heroTitle: 'CSRF' }, o),
    ],
    [
      'a multipart upload',
      (_: Ids, o: RequestOptions) => uploadRequest({ bytes: JPEG, name: 'a.jpg', type: 'image/jpeg' }, o),
    ],
    ['a cabin delete', (ids: Ids, o: RequestOptions) => send('DELETE', `/api/cabins/${ids.cabin}`, o)],
    [
      'a credentials change',
      (_: Ids, o: RequestOptions) =>
        jsonRequest('PUT', '/api/admin/credentials', { username: 'evil1', password: 'evil-password' }, o),
    ],
    ['a logout', (_: Ids, o: RequestOptions) => send('POST', '/api/admin/logout', o)],
    ['a review', (_: Ids, o: RequestOptions) => jsonRequest('POST', '/api/reviews', validReview(), o)],
    [
      'a plain-text form post',
      (_: Ids, o: RequestOptions) =>
        send('POST', '/api/cabins', { ...o, body: 'name=x', headers: { 'content-type': 'text/plain' } }),
    ],
  ])('should refuse %s from another origin with 403, even when signed in', async (_, call) => {
    const ids = await seedAll();
    await expectNoChange(async () => {
      await expectError(await call(ids, { cookie: ids.cookie, origin: evil }), 403, MSG.forbiddenOrigin);
    });
  });

  it('should refuse a login from another origin with 403 and set no cookie', async () => {
    await seedAll();
    await expectNoChange(async () => {
      const res = await jsonRequest(
        'POST',
        '/api/admin/login',
        { username: 'admin', password: 'test-password-1' },
        { origin: evil },
      );
      await expectError(res, 403, MSG.forbiddenOrigin);
      expect(res.headers.getSetCookie()).toEqual([]);
    });
  });

  it.each([
    ['Origin: null', { origin: 'null' }],
    ['another port', { origin: 'http://127.0.0.1:8080' }],
    ['https instead of http', { origin: 'https://127.0.0.1' }],
    ['Sec-Fetch-Site: cross-site', { headers: { 'sec-fetch-site': 'cross-site' } }],
    ['Sec-Fetch-Site: same-site', { headers: { 'sec-fetch-site': 'same-site' } }],
  ] as [string, RequestOptions][])('should refuse a write with %s (403)', async (_, extra) => {
    const cookie = await login();
    await expectNoChange(async () => {
      await expectError(
        await jsonRequest('POST', '/api/cabins', sampleCabin(), { cookie, ...extra }),
        403,
        MSG.forbiddenOrigin,
      );
    });
  });

  it('should accept a same-origin write, JSON and multipart', async () => {
    const cookie = await login();
    const created = await jsonRequest('POST', '/api/cabins', sampleCabin(), {
      cookie,
      origin: ORIGIN,
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(created.status).toBe(201);
    const uploaded = await uploadRequest(
      { bytes: JPEG, name: 'a.jpg', type: 'image/jpeg' },
      { cookie, origin: ORIGIN },
    );
    expect(uploaded.status).toBe(201);
    expect((await env.MEDIA.list()).objects).toHaveLength(1);
  });

  it('should accept a write without Origin (a non-browser client) when signed in', async () => {
    const cookie = await login();
    expect((await jsonRequest('POST', '/api/cabins', sampleCabin(), { cookie })).status).toBe(201);
  });

  it('should let another origin read public data', async () => {
    await seedCabin();
    const res = await send('GET', '/api/cabins', { origin: evil });
    expect(res.status).toBe(200);
    expect(await res.json()).toHaveLength(1);
  });
});

describe('security headers and unknown API paths', () => {
  const expectSecurityHeaders = (res: Response) => {
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    // Data, not a document: nothing in an answer may load or run (security-headers.ts, apiHeaders).
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('frame-src');
    // Headers that only mean something for a document are left to documents.
    for (const name of [
      'cross-origin-opener-policy',
      'origin-agent-cluster',
      'x-xss-protection',
      'x-download-options',
      'x-dns-prefetch-control',
      'x-permitted-cross-domain-policies',
    ]) {
      expect(res.headers.get(name), name).toBeNull();
    }
  };

  it.each([
    ['a public list', () => send('GET', '/api/cabins'), 200],
    ['public settings', () => send('GET', '/api/settings'), 200],
    ['a bad id', () => send('GET', '/api/cabins/abc'), 400],
    ['a refused admin read', () => send('GET', '/api/admin/session'), 401],
    ['an unknown API path', () => send('GET', '/api/nope'), 404],
  ])('should send the security headers and no-store on %s', async (_, call, status) => {
    const res = await call();
    expect(res.status).toBe(status);
    expectSecurityHeaders(res);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('should send the security headers on a refused cross-origin write', async () => {
    const res = await jsonRequest('POST', '/api/reviews', validReview(), { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expectSecurityHeaders(res);
  });

  it('should add HSTS on a real host only', async () => {
    const res = await send('GET', '/api/cabins', { host: 'https://kaspiy-dom.ru' });
    expect(res.status).toBe(200);
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  it.each([
    ['GET', '/api/nope'],
    ['GET', '/api'],
    ['GET', '/api/'],
    ['POST', '/api/nope'],
    ['GET', '/api/cabins/1/extra'],
    ['PATCH', '/api/cabins/1'],
  ])('should answer %s %s with 404 JSON', async (method, path) => {
    const res = await send(method, path, { headers: { 'content-type': 'application/json' } });
    await expectError(res, 404, MSG.notFound);
  });

  it.each(['/api/admin', '/api/admin/nope'])(
    'should answer %s with 401 to strangers and 404 JSON to the admin',
    async (path) => {
      await expectError(await send('GET', path), 401, MSG.unauthorized);
      const cookie = await login();
      await expectError(await send('GET', path, { cookie }), 404, MSG.notFound);
    },
  );
});

describe('bad input never causes a 500', () => {
  type Bad = [string, (cookie: string, ids: Ids) => Promise<Response>];
  const bad: Bad[] = [
    [
      'deeply nested JSON',
      (c) => jsonRequest('POST', '/api/cabins', '['.repeat(5000) + ']'.repeat(5000), { cookie: c }),
    ],
    [
      'a huge number as price',
      (c) => jsonRequest('POST', '/api/cabins', '{"name":"x","description":"y","pricePerNight":1e400}', { cookie: c }),
    ],
    [
      'an object where a string belongs',
      (c) => jsonRequest('PUT', '/api/settings', { contactInfo: { phone: { a: 1 } } }, { cookie: c }),
    ],
    ['contactInfo as a string', (c) => jsonRequest('PUT', '/api/settings', { contactInfo: 'x' }, { cookie: c })],
    [
      'images as a list of numbers',
      (c, ids) => jsonRequest('PUT', `/api/cabins/${ids.cabin}`, { images: [1, 2] }, { cookie: c }),
    ],
    [
      'a lone surrogate in a review',
      () =>
        jsonRequest(
          'POST',
          '/api/reviews',
          '{"name":"\\ud800","email":"a@b.ru","comment":"x","consent":true,"rating":"x"}',
        ),
    ],
    ['a BOM before the JSON', (c) => jsonRequest('POST', '/api/cabins', '\ufeff{"name":1}', { cookie: c })],
    ['an empty JSON body', (c, ids) => jsonRequest('PUT', `/api/cabins/${ids.cabin}`, '', { cookie: c })],
    [
      'JSON content type with form data',
      (c) =>
        send('PUT', '/api/settings', { cookie: c, body: 'a=1&b=2', headers: { 'content-type': 'application/json' } }),
    ],
    ['an id beyond 32 bits', (c) => send('DELETE', '/api/cabins/99999999999999999999', { cookie: c })],
    ['an id with a unicode digit', () => send('GET', '/api/cabins/%D9%A1')],
    ['a percent-encoded id', () => send('GET', '/api/cabins/%31%00')],
    [
      'an upload with a bogus boundary',
      (c) =>
        send('POST', '/api/upload', {
          cookie: c,
          body: 'xx',
          headers: { 'content-type': 'multipart/form-data; boundary=' },
        }),
    ],
    [
      'an upload with no boundary',
      (c) => send('POST', '/api/upload', { cookie: c, body: 'xx', headers: { 'content-type': 'multipart/form-data' } }),
    ],
    [
      'a login with a 1 MB password',
      () => jsonRequest('POST', '/api/admin/login', { username: 'admin', password: 'p'.repeat(1024 * 1024) }),
    ],
    [
      'a login with extra fields',
      () => jsonRequest('POST', '/api/admin/login', { username: ['admin'], password: { $ne: '' } }),
    ],
    [
      'a review with an object e-mail',
      () => jsonRequest('POST', '/api/reviews', validReview({ email: { toString: 'x' } })),
    ],
    ['credentials as an array', (c) => jsonRequest('PUT', '/api/admin/credentials', [], { cookie: c })],
    ['an admin path as null', (c) => jsonRequest('PUT', '/api/admin/path', { path: null }, { cookie: c })],
    ['a malformed cookie', () => send('GET', '/api/admin/session', { cookie: 'kaspiy_admin=%E0%A4%A' })],
    ['a media key with a null byte', () => send('GET', '/media/a%00.jpg')],
  ];

  it.each(bad)('should answer %s with a 4xx {error}, not a 500', async (_, call) => {
    const ids = await seedAll();
    await expectNoChange(async () => {
      const res = await call(ids.cookie, ids);
      const text = await res.text();
      expect(res.status, text.slice(0, 200)).toBeGreaterThanOrEqual(400);
      expect(res.status, text.slice(0, 200)).toBeLessThan(500);
      expect(JSON.parse(text)).toEqual({ error: expect.any(String) });
    });
  });
});

describe('odd but harmless input', () => {
  it('should ignore __proto__ and constructor keys in a settings save', async () => {
    const cookie = await login();
    await expectNoChange(async () => {
      const res = await jsonRequest(
        'PUT',
        '/api/settings',
        '{"__proto__":{"heroTitle":"x"},"constructor":{"prototype":{"y":1}}}',
        { cookie },
      );
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ heroTitle: expect.not.stringMatching(/^x$/) });
    });
    expect(({} as Record<string, unknown>).heroTitle).toBeUndefined();
  });
});

describe('publish state', () => {
  const direct = async (req: Request) => {
    const ctx = createExecutionContext();
    const res = await app.fetch(req, env, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };

  it('should report the content version and whether the live site shows it', async () => {
    const cookie = await login();
    const live = await env.ASSETS.fetch(new URL('/build.json', ORIGIN));
    const build = live.ok ? ((await live.json()) as { contentVersion?: number; builtAt?: string }) : null;
    const res = await client({ cookie }).api.admin.publish.$get();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      contentVersion: 0,
      liveVersion: build?.contentVersion ?? null,
      builtAt: build?.builtAt ?? null,
      upToDate: build?.contentVersion !== undefined && build.contentVersion >= 0,
      builder: null,
    });
  });

  it('should bump the content version after a successful public-content write, and not after a refused one', async () => {
    const cookie = await login();
    const headers = { cookie, 'content-type': 'application/json', 'cf-connecting-ip': '203.0.113.9' };
    expect(await getContentVersion(env)).toBe(0);

    const refused = await direct(
      new Request(url('/api/cabins'), { method: 'POST', headers, body: JSON.stringify({ name: '' }) }),
    );
    expect(refused.status).toBe(400);
    expect(await getContentVersion(env)).toBe(0);

    const unauthorised = await direct(
      new Request(url('/api/settings'), { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' }),
    );
    expect(unauthorised.status).toBe(401);
    expect(await getContentVersion(env)).toBe(0);

    const created = await direct(
      new Request(url('/api/cabins'), { method: 'POST', headers, body: JSON.stringify(sampleCabin()) }),
    );
    expect(created.status).toBe(201);
    expect(await getContentVersion(env)).toBe(1);

    const saved = await direct(
      new Request(url('/api/settings'), { method: 'PUT', headers, body: JSON.stringify({ heroTitle: 'Новый' }) }),
    );
    expect(saved.status).toBe(200);
    expect(await getContentVersion(env)).toBe(2);

    // A visitor's review waits for moderation: nothing public changed.
    const review = await direct(
      new Request(url('/api/reviews'), { method: 'POST', headers, body: JSON.stringify(validReview()) }),
    );
    expect(review.status).toBe(201);
    expect(await getContentVersion(env)).toBe(2);

    const publish = await send('GET', '/api/admin/publish', { cookie });
    expect(await publish.json()).toMatchObject({ contentVersion: 2 });
  });
});
