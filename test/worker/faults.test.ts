import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../schema/messages.ts';
import app from '../../worker/index.ts';
import { createSession } from '../../worker/queries/sessions.ts';
import {
  JPEG,
  SESSION_COOKIE,
  expectError,
  failingD1,
  expectNoChange,
  jsonRequest,
  login,
  MULTIPART_TYPE,
  multipartBody,
  resetDataWithAdmin,
  seedCabin,
  send,
  snapshot,
  url,
  validReview,
} from './helpers.ts';

/**
 * Faults the worker must survive: an upload cut off mid-body, and D1 or R2 failing.
 *
 * The real D1 cannot be unplugged from inside the test, so a failing database is simulated
 * honestly at its binding: the app's own `fetch` is called with the real environment except
 * that `DB` (or `MEDIA`) is replaced by one whose every call fails the way a lost connection
 * does. Everything else (routing, middleware, error handling, the other binding) is real.
 */
beforeEach(resetDataWithAdmin);
afterEach(() => vi.restoreAllMocks());

const PHOTO_KEY = '11111111-2222-3333-4444-555555555555.jpg';

/** A JPEG of about 2 MB: the signature, then filler. */
const bigJpeg = () => {
  const bytes = new Uint8Array(2 * 1024 * 1024);
  bytes.set(JPEG);
  return bytes;
};

const enc = new TextEncoder();

/** Calls the worker directly with the given bindings, waiting for its background work. */
async function direct(req: Request, bindings: Partial<typeof env> = {}) {
  const ctx = createExecutionContext();
  const res = await app.fetch(req, { ...env, ...bindings }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** The real bucket, except that one method fails as R2 does when it is unavailable. */
function bucketFailingAt(method: 'get' | 'put', message: string): R2Bucket {
  return new Proxy(env.MEDIA, {
    get: (target, prop) => {
      if (prop === method) return () => Promise.reject(new Error(message));
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Photos that cabins or the gallery name but the bucket does not hold. */
async function danglingPhotos(): Promise<string[]> {
  const cabins = (await env.DB.prepare('SELECT images FROM cabins').all<{ images: string }>()).results.flatMap(
    (r) => JSON.parse(r.images) as string[],
  );
  const gallery = await env.DB.prepare("SELECT value FROM settings WHERE key = 'galleryImages'").first<{
    value: string;
  }>();
  const named = [...cabins, ...(gallery ? (JSON.parse(gallery.value) as string[]) : [])].filter((u) =>
    u.startsWith('/media/'),
  );
  const held = new Set((await env.MEDIA.list()).objects.map((o) => `/media/${o.key}`));
  return named.filter((u) => !held.has(u));
}

/** A cabin and a gallery whose photos all exist, so «nothing points to a missing photo» means something. */
async function seedPhotos(cookie: string) {
  await env.MEDIA.put(PHOTO_KEY, JPEG, { httpMetadata: { contentType: 'image/jpeg' } });
  await seedCabin({ images: [`/media/${PHOTO_KEY}`] });
  expect(
    (await jsonRequest('PUT', '/api/settings', { galleryImages: [`/media/${PHOTO_KEY}`] }, { cookie })).status,
  ).toBe(200);
  expect(await danglingPhotos()).toEqual([]);
}

describe('an upload interrupted mid-body', () => {
  it('should answer 400 to a multipart body cut off in the middle of the file, and store nothing', async () => {
    const cookie = await login();
    await seedPhotos(cookie);
    const whole = multipartBody(bigJpeg());
    await expectNoChange(async () => {
      const res = await send('POST', '/api/upload', {
        cookie,
        body: whole.slice(0, 1024 * 1024),
        headers: { 'content-type': MULTIPART_TYPE },
      });
      await expectError(res, 400, MSG.uploadMissing);
    });
    expect((await env.MEDIA.list()).objects.map((o) => o.key)).toEqual([PHOTO_KEY]);
    expect(await danglingPhotos()).toEqual([]);
  });

  it('should answer 4xx to a body stream that breaks off with an error, and store nothing', async () => {
    const cookie = await login();
    await seedPhotos(cookie);
    const whole = multipartBody(bigJpeg());
    let sent = 0;
    const breaking = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 1024 * 1024) {
          controller.error(new Error('connection reset by peer'));
          return;
        }
        controller.enqueue(whole.slice(sent, sent + 64 * 1024));
        sent += 64 * 1024;
      },
    });
    const before = await snapshot();
    // Through the worker's own fetch, so the broken stream is the request body it reads.
    const res = await direct(
      new Request(url('/api/upload'), {
        method: 'POST',
        headers: { cookie, 'content-type': MULTIPART_TYPE, 'cf-connecting-ip': '203.0.113.50' },
        body: breaking,
      }),
    );
    const text = await res.text();
    expect(res.status, text).toBeGreaterThanOrEqual(400);
    expect(res.status, text).toBeLessThan(500);
    expect(JSON.parse(text)).toEqual({ error: MSG.uploadMissing });
    expect(await snapshot()).toEqual(before);
    expect(await danglingPhotos()).toEqual([]);
  });

  it('should answer 400 to a JSON body stream that breaks off, and store nothing', async () => {
    const cookie = await login();
    const before = await snapshot();
    const text = enc.encode(JSON.stringify({ name: 'Домик', description: 'x'.repeat(100_000), pricePerNight: 1 }));
    const breaking = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(text.slice(0, 50_000));
        controller.error(new Error('connection reset by peer'));
      },
    });
    const res = await direct(
      new Request(url('/api/cabins'), {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: breaking,
      }),
    );
    await expectError(res, 400, MSG.badJson);
    expect(await snapshot()).toEqual(before);
  });

  it('should store nothing in D1 when R2 fails to take the photo, and answer a JSON 500 with a logged error', async () => {
    const cookie = await login();
    await seedPhotos(cookie);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failingBucket = bucketFailingAt('put', 'R2 put failed: We encountered an internal error. Please try again.');
    const form = new FormData();
    form.append('image', new File([JPEG], 'photo.jpg', { type: 'image/jpeg' }));
    const before = await snapshot();
    const res = await direct(new Request(url('/api/upload'), { method: 'POST', headers: { cookie }, body: form }), {
      MEDIA: failingBucket,
    });
    await expectError(res, 500, MSG.serverError);
    expect(await snapshot()).toEqual(before);
    expect(await danglingPhotos()).toEqual([]);
    expect(logged).toHaveBeenCalledWith(
      'Unhandled error',
      'POST',
      '/api/upload',
      expect.objectContaining({ message: expect.stringContaining('R2 put failed') }),
    );
  });
});

/** Whether an «Unhandled error» log line carries the D1 error (drizzle wraps it as the cause). */
function loggedD1Error(calls: unknown[][]): boolean {
  const mentions = (err: unknown): boolean =>
    err instanceof Error && (err.message.includes('D1_ERROR') || mentions((err as { cause?: unknown }).cause));
  return calls.some((args) => args[0] === 'Unhandled error' && mentions(args[3]));
}

describe('D1 failing', () => {
  /** Every route that touches the database, with a request it would otherwise accept. */
  const calls: [string, (cookie: string) => Request][] = [
    ['GET /api/cabins', () => new Request(url('/api/cabins'))],
    ['GET /api/cabins/1', () => new Request(url('/api/cabins/1'))],
    ['GET /api/settings', () => new Request(url('/api/settings'))],
    ['GET /api/reviews/approved', () => new Request(url('/api/reviews/approved'))],
    ['GET /api/build-info', () => new Request(url('/api/build-info'))],
    [
      'POST /api/reviews',
      () =>
        new Request(url('/api/reviews'), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'cf-connecting-ip': '203.0.113.7' },
          body: JSON.stringify(validReview()),
        }),
    ],
    [
      'POST /api/admin/login',
      () =>
        new Request(url('/api/admin/login'), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password: 'x' }),
        }),
    ],
    [
      'POST /api/admin/logout',
      (cookie) => new Request(url('/api/admin/logout'), { method: 'POST', headers: { cookie } }),
    ],
    ['GET /api/admin/session', (cookie) => new Request(url('/api/admin/session'), { headers: { cookie } })],
    [
      'PUT /api/settings',
      (cookie) =>
        new Request(url('/api/settings'), {
          method: 'PUT',
          headers: { cookie, 'content-type': 'application/json' },
          body: '{"heroTitle":"x"}',
        }),
    ],
    [
      'POST /api/upload',
      (cookie) => {
        const form = new FormData();
        form.append('image', new File([JPEG], 'a.jpg', { type: 'image/jpeg' }));
        return new Request(url('/api/upload'), { method: 'POST', headers: { cookie }, body: form });
      },
    ],
  ];

  describe.each(['reject', 'throw'] as const)('with every call that %ss', (mode) => {
    it.each(calls)(
      'should answer %s with a JSON 500, security headers and a logged error, promptly',
      async (_, make) => {
        const session = await createSession(env, { userId: 1 });
        const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
        const before = await snapshot();
        const started = Date.now();
        const res = await Promise.race([
          direct(make(`${SESSION_COOKIE}=${session.token}`), { DB: failingD1(mode) }),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the worker hung')), 5000)),
        ]);
        expect(Date.now() - started).toBeLessThan(5000);
        const body = await expectError(res, 500, MSG.serverError);
        expect(JSON.stringify(body)).not.toMatch(/D1_ERROR|Network|at .+:\d+/);
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(loggedD1Error(logged.mock.calls), 'the D1 error is logged').toBe(true);
        // The real database and bucket saw nothing (the upload is refused before R2 is touched).
        expect(await snapshot()).toEqual(before);
      },
    );
  });

  it('should still serve photos from R2 while D1 is down', async () => {
    await env.MEDIA.put(PHOTO_KEY, JPEG, { httpMetadata: { contentType: 'image/jpeg' } });
    const res = await direct(new Request(url(`/media/${PHOTO_KEY}`)), { DB: failingD1('reject') });
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(JPEG);
  });

  it('should answer an unknown page with the 404 page, not a 500, while D1 is down, and log why', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await direct(new Request(url('/no-such-page')), { DB: failingD1('reject') });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(logged).toHaveBeenCalled();
  });
});

describe('R2 failing', () => {
  it('should answer a photo request with a JSON 500 and a logged error when R2 cannot be read', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failingBucket = bucketFailingAt('get', 'R2 get failed');
    const res = await direct(new Request(url(`/media/${PHOTO_KEY}`)), { MEDIA: failingBucket });
    await expectError(res, 500, MSG.serverError);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(logged).toHaveBeenCalledWith(
      'Unhandled error',
      'GET',
      `/media/${PHOTO_KEY}`,
      expect.objectContaining({ message: 'R2 get failed' }),
    );
  });
});
