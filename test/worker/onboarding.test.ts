import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { CHECKLIST, type ChecklistAnswer } from '../../schema/onboarding.ts';
import { recordDemo } from '../../worker/queries/demo.ts';
import { updateSettings } from '../../worker/queries/settings.ts';
import {
  ADMIN_PASSWORD,
  expectError,
  jsonRequest,
  login,
  resetDataWithAdmin,
  seedCabin,
  seedReview,
  send,
  validBooking,
  type Booked,
  jsonOf,
} from './helpers.ts';

// The owner's first hour: «С чего начать» read from the data, and «Убрать демо-данные»,
// which takes away what the seeding made and the owner did not change, and nothing else.

const DEMO_SETTINGS = {
  phone: '+7 (928) 555-12-34',
  email: 'info@kaspiy-dom.ru',
  address: 'Каспийск, ул. Приморская, 12',
  mapEmbedCode: '',
  registryNumber: 'С052024000123',
};

/** A small demo as scripts/seed.ts makes one: three cabins (two with photos in the bucket), a review, a booking, the demo's contacts. */
async function seedDemo() {
  const photos = ['/media/demo-001-house.jpg', '/media/demo-002-room.jpg'];
  for (const src of photos) await env.MEDIA.put(src.replace('/media/', ''), new Uint8Array([0xff, 0xd8, 0xff, 0xd9]));
  const a = await seedCabin({ name: 'Демо-домик А', images: [photos[0]!] });
  const b = await seedCabin({ name: 'Демо-домик Б', images: [photos[1]!] });
  const c = await seedCabin({ name: 'Демо-домик В', images: [] });
  const review = await seedReview({ name: 'Демо-гость', approved: true });
  const cookie = await login();
  const booked = await jsonRequest('POST', '/api/bookings', validBooking(b.id));
  const booking = (await jsonOf<Booked>(booked, 201)).id;
  await updateSettings(env, DEMO_SETTINGS);
  await recordDemo(env, { bookings: [booking], photos, settings: DEMO_SETTINGS });
  return { a, b, c, review, booking, photos, cookie };
}

const checklist = async (cookie: string) => {
  const res = await send('GET', '/api/admin/checklist', { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as ChecklistAnswer;
};
const done = (list: ChecklistAnswer) => Object.fromEntries(list.items.map((i) => [i.key, i.done]));

describe('«С чего начать» and «Убрать демо-данные»', () => {
  beforeEach(resetDataWithAdmin);

  it('should list every step undone on the demo, and mark a step done once the owner makes it theirs', async () => {
    const { cookie } = await seedDemo();
    const first = await checklist(cookie);
    expect(first.items.map((i) => i.key)).toEqual(CHECKLIST.map((c) => c.key));
    expect(first.dismissed).toBe(false);
    expect(done(first)).toMatchObject({
      contacts: false,
      cabins: false,
      payments: false,
      registry: false,
      calendar: false,
    });
    expect(first.demo).toEqual({ cabins: 3, reviews: 1, bookings: 1, photos: 2, settings: 4 });

    // The owner's own contacts with a map, a register number, a choice of how guests book.
    const own = {
      phone: '+7 900 111-22-33',
      email: 'owner@example.ru',
      address: 'Дербент, ул. Морская, 1',
      registryNumber: 'С05202500777',
      mapEmbedCode: '<iframe src="https://yandex.ru/map-widget/v1/?ll=48.3%2C42.0&z=13"></iframe>',
      bookingMode: 'request',
    };
    expect((await jsonRequest('PUT', '/api/settings', own, { cookie })).status).toBe(200);
    // A cabin of their own with a photo.
    await seedCabin({ name: 'Мой домик', images: ['/media/own.jpg'] });
    expect(done(await checklist(cookie))).toMatchObject({
      contacts: true,
      cabins: true,
      payments: true,
      registry: true,
    });

    // Still the password the server was set up with (ADMIN_PASSWORD) until the owner changes it.
    expect(done(await checklist(cookie))).toMatchObject({ password: false, twoFactor: false });
    const changed = await jsonRequest(
      'PUT',
      '/api/admin/credentials',
      { username: 'admin', currentPassword: ADMIN_PASSWORD, newPassword: 'a-new-long-password-7' },
      { cookie },
    );
    expect(changed.status).toBe(200);
    expect(done(await checklist(cookie))).toMatchObject({ password: true });

    // Hidden on request, and it stays hidden.
    const hidden = await jsonRequest('PUT', '/api/admin/checklist', { dismissed: true }, { cookie });
    expect(hidden.status).toBe(200);
    expect((await checklist(cookie)).dismissed).toBe(true);
    await expectError(await jsonRequest('PUT', '/api/admin/checklist', { dismissed: 'yes' }, { cookie }), 400);
  });

  it('should take away the demo the owner left as it was, keep what they changed or added, and do it once', async () => {
    const { a, b, c, review, booking, photos, cookie } = await seedDemo();
    // The owner changed demo cabin A (their own price now) and added a cabin and a review.
    expect((await jsonRequest('PUT', `/api/cabins/${a.id}`, { pricePerNight: 7777 }, { cookie })).status).toBe(200);
    const mine = await seedCabin({ name: 'Мой домик' });
    // A real guest's request on demo cabin C, left as seeded: C is the owner's now and stays, with the request.
    const real = await jsonRequest('POST', '/api/bookings', validBooking(c.id, { name: 'Настоящий гость' }));
    const realId = (await jsonOf<Booked>(real, 201)).id;
    const myReview = await seedReview({ name: 'Настоящий гость' });
    expect((await jsonRequest('PUT', '/api/settings', { email: 'owner@example.ru' }, { cookie })).status).toBe(200);

    const summary = await send('GET', '/api/admin/demo', { cookie });
    expect(await summary.json()).toEqual({ demo: { cabins: 1, reviews: 1, bookings: 1, photos: 1, settings: 3 } });
    const removed = await send('DELETE', '/api/admin/demo', { cookie });
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ removed: { cabins: 1, reviews: 1, bookings: 1, photos: 1, settings: 3 } });

    const ids = async (table: string) =>
      (await env.DB.prepare(`SELECT id FROM ${table} ORDER BY id`).all<{ id: number }>()).results.map((r) => r.id);
    expect(await ids('cabins')).toEqual([a.id, c.id, mine.id]);
    expect((await ids('bookings')).includes(realId)).toBe(true);
    expect(await ids('reviews')).toEqual([myReview.id]);
    expect((await ids('bookings')).includes(booking)).toBe(false);
    expect((await ids('reviews')).includes(review.id)).toBe(false);
    expect((await ids('cabins')).includes(b.id)).toBe(false);
    // Demo B's photo went; demo A's stays, as A does.
    expect(await env.MEDIA.get(photos[1]!.replace('/media/', ''))).toBeNull();
    expect(await env.MEDIA.get(photos[0]!.replace('/media/', ''))).not.toBeNull();
    // The demo's phone and register number are gone; the owner's e-mail stays.
    const settings = (await (await send('GET', '/api/settings')).json()) as Record<string, string>;
    expect(settings).toMatchObject({ phone: '', registryNumber: '', email: 'owner@example.ru' });

    // Nothing of the demo is left to take: the second time changes nothing.
    expect(await (await send('GET', '/api/admin/demo', { cookie })).json()).toEqual({ demo: null });
    expect(await (await send('DELETE', '/api/admin/demo', { cookie })).json()).toEqual({ removed: null });
    expect(await ids('cabins')).toEqual([a.id, c.id, mine.id]);
  });

  it('should keep a demo booking someone started paying for, and its cabin: records of money are never deleted', async () => {
    const { b, booking, cookie } = await seedDemo();
    // The owner tried a payment link on the demo's request; ЮKassa's payment was never finished.
    await env.DB.prepare(
      "INSERT INTO payments (id, booking_id, amount, status, created_at, updated_at) VALUES ('pay-demo', ?, 405000, 'canceled', '2026-05-01T09:00:00.000Z', '2026-05-01T09:00:00.000Z')",
    )
      .bind(booking)
      .run();
    expect(await (await send('GET', '/api/admin/demo', { cookie })).json()).toEqual({
      demo: { cabins: 2, reviews: 1, bookings: 0, photos: 1, settings: 4 },
    });
    const removed = await send('DELETE', '/api/admin/demo', { cookie });
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ removed: { cabins: 2, reviews: 1, bookings: 0, photos: 1, settings: 4 } });
    expect((await env.DB.prepare('SELECT id FROM cabins').all<{ id: number }>()).results).toEqual([{ id: b.id }]);
    expect(
      await env.DB.prepare('SELECT booking_id FROM payments')
        .all()
        .then((r) => r.results),
    ).toEqual([{ booking_id: booking }]);
  });

  it.each([
    ['GET', '/api/admin/checklist'],
    ['PUT', '/api/admin/checklist'],
    ['GET', '/api/admin/demo'],
    ['DELETE', '/api/admin/demo'],
  ])('should refuse %s %s without a session', async (method, path) => {
    await seedDemo();
    await expectError(await jsonRequest(method, path, method === 'PUT' ? { dismissed: true } : undefined), 401);
    expect((await env.DB.prepare('SELECT count(*) AS n FROM cabins').first<{ n: number }>())!.n).toBe(3);
  });
});
