import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import { createGuestBooking, type BookingDeps, type GuestBookingInput } from '../../worker/booking/create.ts';
import { priceRequest } from '../../worker/calendar/quote.ts';
import type { Bindings } from '../../worker/env.ts';
import { addBlock, replaceSeasons } from '../../worker/queries/calendar.ts';
import { replacePromoCodes } from '../../worker/queries/pricing.ts';
import { updateSettings } from '../../worker/queries/settings.ts';
import { resetDataWithAdmin, seedCabin } from './helpers.ts';

/**
 * A guest's booking at the level of its steps (worker/booking/create.ts), without HTTP: each
 * reason it answers, and what it leaves in the database, on both runtimes. The route's answers to
 * the same cases are bookings.test.ts's and payments.test.ts's.
 */
const yk = inject('yookassa');
const SHOP: Partial<Bindings> = {
  YOOKASSA_API_URL: yk.apiUrl,
  YOOKASSA_SHOP_ID: yk.shopId,
  YOOKASSA_SECRET_KEY: yk.secretKey,
};
const withShop = () => ({ ...env, ...SHOP }) as Bindings;
/**
 * ЮKassa failing for this call alone: the stand-in refuses a key it does not know (401). Its
 * outage switch is not used here: the stand-in is shared by both runtimes' files running at
 * once, and payments.test.ts on the other runtime would see the outage too.
 */
const withFailingShop = () => ({ ...env, ...SHOP, YOOKASSA_SECRET_KEY: 'not-the-shops-key' }) as Bindings;

const day = (n: number) => addDays(todayInMoscow(), n);
const input = (cabinId: number, overrides: Partial<GuestBookingInput> = {}): GuestBookingInput => ({
  cabinId,
  checkIn: day(60),
  checkOut: day(63),
  guests: 2,
  name: 'Анна',
  phone: '+7 928 555-12-34',
  email: 'anna@example.ru',
  comment: '',
  channel: 'whatsapp',
  extras: [],
  promo: '',
  ...overrides,
});

/** The background work each call hands over, awaited so none of it runs into the next test. */
let tasks: Promise<unknown>[] = [];
const deps = (extra: Partial<BookingDeps> = {}): BookingDeps => ({
  later: (_, task) => void tasks.push(task.catch(() => {})),
  origin: 'http://127.0.0.1',
  ...extra,
});

const rowOf = (id: number) =>
  env.DB.prepare('SELECT status, promo_code AS promoCode FROM bookings WHERE id = ?')
    .bind(id)
    .first<{ status: string; promoCode: string | null }>();
const count = async (table: 'bookings' | 'payments') =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())!.n;

async function prepaymentOn() {
  await updateSettings(env, {
    bookingMode: 'prepayment',
    prepayment: { kind: 'percent', percent: 30 },
    holdMinutes: 30,
  });
}

beforeEach(async () => {
  tasks = [];
  await resetDataWithAdmin();
});
afterEach(async () => {
  await Promise.all(tasks);
});

describe('a request («Заявка»)', () => {
  it('should store free nights as «Новая» and answer the priced stay', async () => {
    const cabin = await seedCabin({ pricePerNight: 5000 });
    const made = await createGuestBooking(env, input(cabin.id), deps());
    expect(made).toMatchObject({ ok: true, kind: 'request', answer: { nights: 3 } });
    if (!made.ok) return;
    expect(made.answer.total).toBeGreaterThanOrEqual(15000);
    expect(made).not.toHaveProperty('payment');
    expect(await rowOf(made.booking.id)).toMatchObject({ status: 'new' });
    expect(tasks).toHaveLength(1);
  });

  it('should answer notFree for nights a block holds, and store nothing', async () => {
    const cabin = await seedCabin();
    await addBlock(env, cabin.id, { start: day(61), end: day(62), note: '' });
    expect(await createGuestBooking(env, input(cabin.id), deps())).toEqual({ ok: false, reason: 'notFree' });
    expect(await count('bookings')).toBe(0);
    expect(tasks).toEqual([]);
  });

  it('should answer tooShort below the minimum stay, and store nothing', async () => {
    const cabin = await seedCabin();
    await replaceSeasons(env, cabin.id, [], 4);
    expect(await createGuestBooking(env, input(cabin.id), deps())).toEqual({ ok: false, reason: 'tooShort' });
    expect(await count('bookings')).toBe(0);
  });

  it("should pass pricing's own refusal on as it is", async () => {
    const cabin = await seedCabin({ maxGuests: 2 });
    expect(await createGuestBooking(env, input(cabin.id, { guests: 3 }), deps())).toEqual({
      ok: false,
      reason: 'guests',
      error: MSG.bookingTooManyGuests,
    });
    expect(await count('bookings')).toBe(0);
  });
});

describe('a booking with prepayment', () => {
  it("should hold free nights and answer ЮKassa's payment page", async () => {
    const cabin = await seedCabin({ pricePerNight: 5000 });
    await prepaymentOn();
    const made = await createGuestBooking(withShop(), input(cabin.id), deps());
    expect(made).toMatchObject({ ok: true, kind: 'held', booking: { status: 'awaiting_payment' } });
    if (!made.ok || made.kind !== 'held') return;
    expect(made.payment.confirmationUrl).toMatch(/^https?:\/\//);
    expect(made.payment.amount).toBeGreaterThan(0);
    expect(made.payment.holdUntil).toBe(made.booking.holdUntil);
    expect(await rowOf(made.booking.id)).toMatchObject({ status: 'awaiting_payment' });
    expect(await count('payments')).toBe(1);
  });

  it('should answer notFree to a second guest for nights already held', async () => {
    const cabin = await seedCabin();
    await prepaymentOn();
    expect(await createGuestBooking(withShop(), input(cabin.id), deps())).toMatchObject({ kind: 'held' });
    expect(await createGuestBooking(withShop(), input(cabin.id, { name: 'Борис' }), deps())).toEqual({
      ok: false,
      reason: 'notFree',
    });
    expect(await count('bookings')).toBe(1);
  });

  it("should answer promoUsedUp when the code's last use went to another guest after this stay was priced", async () => {
    const cabin = await seedCabin();
    await prepaymentOn();
    await replacePromoCodes(env, [
      {
        code: 'LAST',
        percent: 10,
        amount: null,
        validFrom: null,
        validTo: null,
        stayFrom: null,
        stayTo: null,
        maxUses: 1,
      },
    ]);
    const made = await createGuestBooking(
      withShop(),
      input(cabin.id, { promo: 'LAST' }),
      deps({
        // Priced while the code had its use; another guest's hold takes it before this one's.
        price: async (req) => {
          const priced = await priceRequest(env, req);
          await env.DB.prepare("UPDATE promo_codes SET uses = 1 WHERE code = 'LAST'").run();
          return priced;
        },
      }),
    );
    expect(made).toEqual({ ok: false, reason: 'promoUsedUp' });
    expect(await count('bookings')).toBe(0);
    expect(await count('payments')).toBe(0);
  });

  it('should keep the booking as a request when ЮKassa refuses the payment (fellBackToRequest)', async () => {
    const cabin = await seedCabin();
    await prepaymentOn();
    const made = await createGuestBooking(withFailingShop(), input(cabin.id), deps());
    expect(made).toMatchObject({ ok: true, kind: 'fellBackToRequest', booking: { status: 'new', holdUntil: null } });
    if (!made.ok) return;
    expect(made).not.toHaveProperty('payment');
    expect(await rowOf(made.booking.id)).toMatchObject({ status: 'new' });
    expect(await count('payments')).toBe(0);
  });
});
