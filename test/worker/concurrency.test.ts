import type { InferResponseType } from 'hono/client';
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LOGIN_THROTTLE, REVIEW_THROTTLE } from '../../schema/constants.ts';
import { MSG } from '../../schema/messages.ts';
import type { Settings } from '../../schema/settings.ts';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  JPEG,
  freshIp,
  jsonRequest,
  login,
  resetDataWithAdmin,
  seedCabin,
  send,
  uploadRequest,
  validReview,
  type Api,
  jsonOf,
  type Uploaded,
} from './helpers.ts';

/**
 * Many requests at once against the real D1 and R2: nothing lost, nothing doubled, limits
 * held. Every request of a burst is started before any answer is awaited.
 */
beforeEach(resetDataWithAdmin);
// Bursts are slow on a loaded machine (the whole suite runs files in parallel): room to finish.
vi.setConfig({ testTimeout: 30_000 });

type ReviewRow = { id: number; name: string; comment: string; approved: number };
const allReviews = async () =>
  (await env.DB.prepare('SELECT id, name, comment, approved FROM reviews ORDER BY id').all<ReviewRow>()).results;

/** Statuses of a burst, as `{ 201: 5, 429: 25 }`. */
const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});

describe('a burst of reviews from many addresses', () => {
  it('should store exactly one row for every 2xx of 200 concurrent submissions, and nothing else', {
    timeout: 60_000,
  }, async () => {
    const N = 200;
    const sent = Array.from({ length: N }, (_, i) =>
      validReview({ name: `Гость ${i}`, comment: `Отзыв номер ${i}: всё понравилось` }),
    );
    const responses = await Promise.all(
      sent.map((body) => jsonRequest('POST', '/api/reviews', body, { ip: freshIp() })),
    );
    const answers = await Promise.all(
      responses.map(async (r) => ({
        status: r.status,
        body: (await r.json()) as Partial<InferResponseType<Api['reviews']['$post'], 201>>,
      })),
    );

    // Distinct addresses: no limit applies, so every one is accepted; and never a 5xx.
    expect(tally(answers.map((a) => a.status))).toEqual({ 201: N });
    const rows = await allReviews();
    expect(rows).toHaveLength(answers.filter((a) => a.status === 201).length);
    const ids = answers.map((a) => a.body.id);
    expect(new Set(ids).size).toBe(N);
    const byId = new Map(rows.map((r) => [r.id, r]));
    answers.forEach((a, i) => {
      // The row behind each answer holds exactly what that request sent, unapproved.
      expect(byId.get(a.body.id!)).toEqual({
        id: a.body.id,
        name: `Гость ${i}`,
        comment: sent[i]!.comment,
        approved: 0,
      });
    });
  });
});

describe('rate limits under a burst from one address', () => {
  it('should accept at most the limit of 30 concurrent reviews from one address and answer the rest 429', async () => {
    const ip = freshIp();
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        jsonRequest('POST', '/api/reviews', validReview({ comment: `Параллельный отзыв ${i}` }), { ip }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(tally(statuses)).toEqual({ 201: REVIEW_THROTTLE.max, 429: 30 - REVIEW_THROTTLE.max });
    for (const r of responses.filter((x) => x.status === 429))
      expect(await r.json()).toEqual({ error: MSG.reviewThrottled });
    expect(await allReviews()).toHaveLength(REVIEW_THROTTLE.max);
  });

  it('should check at most the limit of 30 concurrent wrong passwords from one address and answer the rest 429', async () => {
    const ip = freshIp();
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        jsonRequest('POST', '/api/admin/login', { username: ADMIN_USERNAME, password: `guess-${i}` }, { ip }),
      ),
    );
    // Only the first attempts reach the password check (401); the others never do.
    expect(tally(responses.map((r) => r.status))).toEqual({
      401: LOGIN_THROTTLE.login.free,
      429: 30 - LOGIN_THROTTLE.login.free,
    });
    for (const r of responses) expect(r.headers.getSetCookie()).toEqual([]);
    // Still refused with the right password, and no session was ever made.
    const right = await jsonRequest(
      'POST',
      '/api/admin/login',
      { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      { ip },
    );
    expect(right.status).toBe(429);
    expect((await env.DB.prepare('SELECT COUNT(*) AS n FROM admin_sessions').first<{ n: number }>())!.n).toBe(0);
  });

  it('should let a burst that includes the right password in at most once the limit is used up', async () => {
    const ip = freshIp();
    const bodies = Array.from({ length: 20 }, (_, i) => ({
      username: ADMIN_USERNAME,
      password: i === 19 ? ADMIN_PASSWORD : `guess-${i}`,
    }));
    const responses = await Promise.all(bodies.map((b) => jsonRequest('POST', '/api/admin/login', b, { ip })));
    const statuses = responses.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 401 || s === 429)).toBe(true);
    // However the attempts interleave, no more than the limit were checked.
    expect(statuses.filter((s) => s !== 429).length).toBeLessThanOrEqual(LOGIN_THROTTLE.login.free);
  });
});

describe('concurrent admin edits', () => {
  it('should keep every field of 20 concurrent partial settings saves (no lost updates)', async () => {
    const cookie = await login();
    const patches: Record<string, unknown>[] = [
      { siteName: 'Каспий-1' },
      { phone: '+7 900 111-11-11' },
      { email: 'one@example.ru' },
      { address: 'Адрес 1' },
      { footerDescription: 'Подвал 1' },
      { footerPhone: '+7 900 222-22-22' },
      { footerEmail: 'foot@example.ru' },
      { footerAddress: 'Адрес подвала 1' },
      { mapEmbedCode: '<iframe src="https://yandex.ru/map-widget/v1/?ll=47.6,42.9"></iframe>' },
      { ownerName: 'ИП Тестов' },
      { heroTitle: 'Заголовок 1' },
      { heroSubtitle: 'Подзаголовок 1' },
      { whyChooseUsTitle: 'Почему 1' },
      { whyChooseUsSubtitle: 'Потому 1' },
      { whyChooseUsFeatures: [{ title: 'Плюс', description: 'Один' }] },
      { galleryImages: ['/media/a.jpg', '/media/b.jpg'] },
      { checkInTime: '15:00' },
      { checkOutTime: '11:00' },
      { contactInfo: { phone: '+7 900 333-33-33' } },
      { contactInfo: { footerDescription: 'Вложенное описание' } },
    ];
    const responses = await Promise.all(patches.map((p) => jsonRequest('PUT', '/api/settings', p, { cookie })));
    expect(responses.map((r) => r.status)).toEqual(patches.map(() => 200));

    const all = (await (await send('GET', '/api/admin/settings', { cookie })).json()) as Settings;
    for (const patch of patches.slice(0, 18)) expect(all).toMatchObject(patch);
    const stored = Object.fromEntries(
      (await env.DB.prepare('SELECT key, value FROM settings').all<{ key: string; value: string }>()).results.map(
        (r) => [r.key, JSON.parse(r.value)],
      ),
    );
    expect(stored['contactInfo.phone']).toBe('+7 900 333-33-33');
    expect(stored['contactInfo.footerDescription']).toBe('Вложенное описание');
    expect(Object.keys(stored)).toHaveLength(20);
  });

  it('should keep every one of 20 concurrent edits of different cabins', async () => {
    const cookie = await login();
    const cabins = await Promise.all(
      Array.from({ length: 20 }, (_, i) => seedCabin({ name: `Домик ${i}`, pricePerNight: 1000 + i })),
    );
    const responses = await Promise.all(
      cabins.map((c, i) =>
        jsonRequest(
          'PUT',
          `/api/cabins/${c.id}`,
          { name: `Изменённый домик ${i}`, pricePerNight: 5000 + i },
          { cookie },
        ),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(cabins.map(() => 200));
    const rows = (
      await env.DB.prepare('SELECT id, name, price_per_night AS price FROM cabins ORDER BY id').all<{
        id: number;
        name: string;
        price: number;
      }>()
    ).results;
    expect(rows).toEqual(cabins.map((c, i) => ({ id: c.id, name: `Изменённый домик ${i}`, price: 5000 + i })));
  });

  it('should keep concurrent edits of different fields of the same cabin', async () => {
    const cookie = await login();
    const cabin = await seedCabin();
    const patches = [
      { name: 'Новое имя' },
      { description: 'Новое описание' },
      { pricePerNight: 7777 },
      { location: 'Дербент' },
      { distanceToSea: '1 мин' },
      { bedrooms: 3 },
      { bathrooms: 2 },
      { maxGuests: 6 },
      { amenities: ['Барбекю'] },
      { images: ['/media/new.jpg'] },
      { featured: true },
    ];
    const responses = await Promise.all(
      patches.map((p) => jsonRequest('PUT', `/api/cabins/${cabin.id}`, p, { cookie })),
    );
    expect(responses.map((r) => r.status)).toEqual(patches.map(() => 200));
    const read = (await (await send('GET', `/api/cabins/${cabin.id}`)).json()) as Record<string, unknown>;
    for (const patch of patches) expect(read).toMatchObject(patch);
  });

  it('should give 20 concurrent cabin creations 20 distinct ids, all stored', async () => {
    const cookie = await login();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        jsonRequest(
          'POST',
          '/api/cabins',
          { name: `Новый ${i}`, description: 'Описание', pricePerNight: 100 * i },
          { cookie },
        ),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 201));
    const ids = await Promise.all(
      responses.map(async (r) => (await jsonOf<InferResponseType<Api['cabins']['$post'], 201>>(r, 201)).id),
    );
    expect(new Set(ids).size).toBe(20);
    const rows = (await env.DB.prepare('SELECT id, name FROM cabins ORDER BY id').all<{ id: number; name: string }>())
      .results;
    expect(rows.map((r) => r.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
  });

  it('should store 20 concurrent uploads under 20 distinct keys', async () => {
    const cookie = await login();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => uploadRequest({ bytes: JPEG, name: 'a.jpg', type: 'image/jpeg' }, { cookie })),
    );
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 201));
    const urls = await Promise.all(responses.map(async (r) => (await jsonOf<Uploaded>(r, 201)).imageUrl));
    expect(new Set(urls).size).toBe(20);
    const keys = (await env.MEDIA.list()).objects.map((o) => `/media/${o.key}`);
    expect(keys.sort()).toEqual([...urls].sort());
  });
});
