import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { STAMP_TRUST_MS } from '../../worker/platform/public-read-memory.ts';
import { updateSettings } from '../../worker/queries/settings.ts';
import { jsonRequest, login, resetDataWithAdmin, seedCabin, seedReview, send } from './helpers.ts';
import { block, feedEvent } from './stays.ts';

// Both servers keep their answers to public reads (the self-hosted server: app-memory.ts; the
// Worker: public-read-memory.ts). Whatever writes the data, and whenever the clock alone changes
// it, a visitor's read must tell: each case reads twice first, so an answer is kept, then changes
// the data behind the API's back (straight in the database, as the cron, a restore or another
// isolate does) and reads again a second later (a Worker isolate trusts the data stamp it read for
// STAMP_TRUST_MS; the self-hosted server reads it every time). A save through the API is seen by
// the very next read.

beforeEach(resetDataWithAdmin);
afterEach(() => vi.useRealTimers());

const getJson = async <T>(path: string, asVisitor = true): Promise<T> => {
  const res = await send('GET', path, { asVisitor });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
};
/** Read once after the setup's writes (asking D1, as helpers.ts does), then as a visitor: kept. */
const readTwice = async <T>(path: string): Promise<T> => {
  await getJson(path, false);
  return getJson<T>(path);
};
/** The clock moved on by as long as a Worker isolate trusts the data stamp it last read. */
const aSecondLater = () => {
  const at = Date.now();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(at + STAMP_TRUST_MS);
};
type Busy = { busy: { start: string; end: string }[] };
const taken = (r: Busy, start: string, end: string) => r.busy.some((b) => b.start < end && start < b.end);

describe('public reads after the data changed behind the API', () => {
  const checkIn = addDays(todayInMoscow(), 20);
  const checkOut = addDays(checkIn, 3);
  const searchPath = `/api/search?checkIn=${checkIn}&checkOut=${checkOut}&guests=2`;
  type Found = { results: { id: number }[] };

  it('should show nights an imported calendar took, in free dates and in search', async () => {
    const cabin = await seedCabin();
    expect(taken(await readTwice<Busy>(`/api/cabins/${cabin.id}/availability`), checkIn, checkOut)).toBe(false);
    expect((await readTwice<Found>(searchPath)).results.map((r) => r.id)).toEqual([cabin.id]);

    await feedEvent(cabin.id, checkIn, checkOut);
    aSecondLater();

    expect(taken(await getJson<Busy>(`/api/cabins/${cabin.id}/availability`), checkIn, checkOut)).toBe(true);
    expect((await getJson<Found>(searchPath)).results).toEqual([]);
  });

  it('should show a price changed in the database in the catalogue and on the cabin', async () => {
    const cabin = await seedCabin({ pricePerNight: 4500 });
    await readTwice(`/api/cabins`);
    await readTwice(`/api/cabins/${cabin.id}`);

    await env.DB.prepare('UPDATE cabins SET price_per_night = 5200 WHERE id = ?').bind(cabin.id).run();
    aSecondLater();

    expect((await getJson<{ pricePerNight: number }[]>('/api/cabins')).map((c) => c.pricePerNight)).toEqual([5200]);
    expect((await getJson<{ pricePerNight: number }>(`/api/cabins/${cabin.id}`)).pricePerNight).toBe(5200);
  });

  it('should show new settings and a newly approved review', async () => {
    const review = await seedReview();
    expect((await readTwice<unknown[]>('/api/reviews/approved')).length).toBe(0);
    expect((await readTwice<{ heroTitle: string }>('/api/settings')).heroTitle).not.toBe('Новый заголовок');

    await updateSettings(env, { heroTitle: 'Новый заголовок' });
    await env.DB.prepare('UPDATE reviews SET approved = 1 WHERE id = ?').bind(review.id).run();
    aSecondLater();

    expect((await getJson<{ heroTitle: string }>('/api/settings')).heroTitle).toBe('Новый заголовок');
    expect((await getJson<{ id: number }[]>('/api/reviews/approved')).map((r) => r.id)).toEqual([review.id]);
  });

  it('should free the nights of a payment hold the moment it runs out, with nothing written', async () => {
    const cabin = await seedCabin();
    const start = Date.now();
    const holdUntil = new Date(start + 10 * 60_000).toISOString();
    await env.DB.prepare(
      `INSERT INTO bookings (cabin_id, check_in, check_out, nights, guests, total, name, phone, channel, status, hold_until, created_at, updated_at)
       VALUES (?, ?, ?, 3, 2, 13500, 'Анна', '+79285551234', 'whatsapp', 'awaiting_payment', ?, ?, ?)`,
    )
      .bind(cabin.id, checkIn, checkOut, holdUntil, new Date(start).toISOString(), new Date(start).toISOString())
      .run();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    expect(taken(await readTwice<Busy>(`/api/cabins/${cabin.id}/availability`), checkIn, checkOut)).toBe(true);
    expect((await readTwice<Found>(searchPath)).results).toEqual([]);

    vi.setSystemTime(Date.parse(holdUntil) + 1000);

    expect(taken(await getJson<Busy>(`/api/cabins/${cabin.id}/availability`), checkIn, checkOut)).toBe(false);
    expect((await getJson<Found>(searchPath)).results.map((r) => r.id)).toEqual([cabin.id]);
  });

  it("should show the owner's saves to the very next read", async () => {
    const cabin = await seedCabin();
    const cookie = await login();
    expect(taken(await readTwice<Busy>(`/api/cabins/${cabin.id}/availability`), checkIn, checkOut)).toBe(false);
    expect((await readTwice<{ heroTitle: string }>('/api/settings')).heroTitle).not.toBe('Новый заголовок');

    await block(cookie, cabin.id, checkIn, checkOut);
    expect((await jsonRequest('PUT', '/api/settings', { heroTitle: 'Новый заголовок' }, { cookie })).status).toBe(200);

    expect(taken(await getJson<Busy>(`/api/cabins/${cabin.id}/availability`), checkIn, checkOut)).toBe(true);
    expect((await getJson<Found>(searchPath)).results).toEqual([]);
    expect((await getJson<{ heroTitle: string }>('/api/settings')).heroTitle).toBe('Новый заголовок');
  });
});
