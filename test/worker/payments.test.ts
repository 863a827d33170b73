import { env } from 'cloudflare:test';
import type { InferResponseType } from 'hono/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { formatNights, formatPrice } from '../../schema/format.ts';
import { MSG } from '../../schema/messages.ts';
import { linesOf } from '../../schema/search.ts';
import type { Bindings } from '../../worker/env.ts';
import { runPaymentSchedule } from '../../worker/payments/schedule.ts';
import type { Receipt } from '../../worker/payments/yookassa.ts';
import {
  expectError,
  expectNoChange,
  login,
  resetDataWithAdmin,
  seedCabin,
  validBooking,
  callWith,
  jsonOf,
  type Api,
  type Booked,
} from './helpers.ts';
import { ownShop, SHOP, standInControl, yk } from './yookassa-shop.ts';

/**
 * Prepayment through ЮKassa (docs/api.md «Prepayment»), on both runtimes, against the
 * ЮKassa stand-in on 127.0.0.1 (stand-ins/yookassa-api.ts) started by the projects' global
 * setup. The app is called with the runtime's own bindings plus the shop's keys, the way a server
 * with YOOKASSA_* set runs it; without them, as one without.
 */
const NO_SHOP: Partial<Bindings> = { YOOKASSA_API_URL: '', YOOKASSA_SHOP_ID: '', YOOKASSA_SECRET_KEY: '' };
const day = (n: number) => addDays(todayInMoscow(), n);

const call = callWith(SHOP);
const json = jsonOf;

// What the routes answer, as the typed client knows them.
type Availability = InferResponseType<Api['cabins'][':id']['availability']['$get'], 200>;
type Search = InferResponseType<Api['search']['$get'], 200>;
type OwnerBookings = InferResponseType<Api['admin']['bookings']['$get'], 200>;
type OwnerRefund = InferResponseType<Api['admin']['bookings'][':id']['refund']['$post'], 200>;
type PaymentLink = InferResponseType<Api['admin']['bookings'][':id']['payment-link']['$post'], 200>;
type Pricing = InferResponseType<Api['admin']['pricing']['$put'], 200>;

/** The stand-in's own controls: the guest pays or cancels on its page; what receipts it was given. */
const standIn = (path: string, init?: RequestInit) => fetch(`${yk.base}${path}`, init);
const pay = async (paymentId: string, how: 'succeed' | 'cancel' = 'succeed') =>
  expect((await standIn(`/_payments/${paymentId}/${how}`, { method: 'POST' })).status).toBe(200);
async function receiptsOf(paymentId: string) {
  const log = (await (await standIn('/_log')).json()) as {
    receipts: { kind: string; paymentId: string; receipt: Receipt & { settlements?: unknown[] } }[];
  };
  return log.receipts.filter((r) => r.paymentId === paymentId);
}
const notify = (event: string, id: string) =>
  call('POST', '/api/payments/yookassa', {
    body: { type: 'notification', event, object: { id, status: 'succeeded', paid: true } },
  });

async function settings(cookie: string, patch: Record<string, unknown>, bindings: Partial<Bindings> = SHOP) {
  return call('PUT', '/api/settings', { cookie, body: patch, bindings });
}
async function prepaymentOn(cookie: string, extra: Record<string, unknown> = {}) {
  await json(
    await settings(cookie, {
      bookingMode: 'prepayment',
      prepayment: { kind: 'percent', percent: 30 },
      holdMinutes: 30,
      ...extra,
    }),
    200,
  );
}
/** A booking held for prepayment: the request's answer, which then carries its payment. */
type Started = Booked & { payment: NonNullable<Booked['payment']> };
const book = (cabinId: number, overrides: Record<string, unknown> = {}) =>
  call('POST', '/api/bookings', { body: validBooking(cabinId, overrides) });
async function paymentIdOf(bookingId: number) {
  const row = await env.DB.prepare('SELECT id FROM payments WHERE booking_id = ? ORDER BY created_at DESC')
    .bind(bookingId)
    .first<{ id: string }>();
  return row!.id;
}
const statusOf = async (id: number) =>
  (await env.DB.prepare('SELECT status FROM bookings WHERE id = ?').bind(id).first<{ status: string }>())!.status;
const busy = async (cabinId: number) =>
  (await json<Availability>(await call('GET', `/api/cabins/${cabinId}/availability`), 200)).busy;
const guestToken = async (id: number) =>
  (await env.DB.prepare('SELECT guest_token AS t FROM bookings WHERE id = ?').bind(id).first<{ t: string }>())!.t;

beforeEach(resetDataWithAdmin);
afterEach(() => {
  vi.useRealTimers();
});

describe('the owner turns prepayment on: PUT /api/settings', () => {
  it("should refuse «Бронирование с предоплатой» without ЮKassa's keys, say why, and change nothing", async () => {
    const cookie = await login();
    await expectNoChange(async () =>
      expectError(await settings(cookie, { bookingMode: 'prepayment' }, NO_SHOP), 400, MSG.paymentsNotConfigured),
    );
    expect(await json(await call('GET', '/api/admin/payments', { cookie, bindings: NO_SHOP }), 200)).toEqual({
      configured: false,
    });
    expect(await json(await call('GET', '/api/admin/payments', { cookie }), 200)).toEqual({ configured: true });
  });

  it('should keep the prepayment, hold time, fee, tax and VAT code as set, and read them back', async () => {
    const cookie = await login();
    const patch = {
      bookingMode: 'prepayment',
      prepayment: { kind: 'firstNight', percent: 50 },
      holdMinutes: 45,
      cleaningFee: 1500,
      touristTax: { enabled: true, ratePercent: 2.5, minPerNight: 100 },
      vatCode: 11,
    };
    expect(await json(await settings(cookie, patch), 200)).toMatchObject(patch);
    expect(await json(await call('GET', '/api/settings'), 200)).toMatchObject(patch);
  });

  it.each([
    ['a hold of 4 minutes', { holdMinutes: 4 }, MSG.holdMinutesInvalid],
    ['a hold of a day and a minute', { holdMinutes: 1441 }, MSG.holdMinutesInvalid],
    ['a prepayment of 0 %', { prepayment: { kind: 'percent', percent: 0 } }, MSG.prepaymentInvalid],
    ['a prepayment of 101 %', { prepayment: { kind: 'percent', percent: 101 } }, MSG.prepaymentInvalid],
    ['an unknown kind of prepayment', { prepayment: { kind: 'half', percent: 50 } }, MSG.prepaymentInvalid],
    ['a negative cleaning fee', { cleaningFee: -1 }, MSG.cleaningFeeInvalid],
    ['a fee in kopecks', { cleaningFee: 99.5 }, MSG.cleaningFeeInvalid],
    [
      'a tourist tax of 6 %',
      { touristTax: { enabled: true, ratePercent: 6, minPerNight: 100 } },
      MSG.touristTaxRateInvalid,
    ],
    [
      'a tax minimum of −1 ₽',
      { touristTax: { enabled: true, ratePercent: 2, minPerNight: -1 } },
      MSG.touristTaxMinInvalid,
    ],
    ['a VAT code ЮKassa does not have for us', { vatCode: 4 }, MSG.vatCodeInvalid],
    ['an unknown booking mode', { bookingMode: 'auction' }, MSG.bookingModeInvalid],
  ])('should refuse %s with a Russian 400 and change nothing', async (_, patch, message) => {
    const cookie = await login();
    await expectNoChange(async () => expectError(await settings(cookie, patch), 400, message));
  });
});

describe('fees and tax in every total', () => {
  it('should price a request as nights by season, the cleaning fee and the tourist tax, the same on the card, in search and in «Заявки»', async () => {
    const cabin = await seedCabin({ pricePerNight: 5000, maxGuests: 4 });
    const cookie = await login();
    await json(
      await call('PUT', `/api/admin/cabins/${cabin.id}/seasons`, {
        cookie,
        body: { seasons: [{ start: day(62), end: day(90), pricePerNight: 8000, minNights: 1 }] },
      }),
      200,
    );
    await json(
      await settings(cookie, { cleaningFee: 1500, touristTax: { enabled: true, ratePercent: 2, minPerNight: 100 } }),
      200,
    );
    const answer = await json<Started>(await book(cabin.id, { checkIn: day(60), checkOut: day(64) }), 201);
    // 2 × 5 000 + 2 × 8 000 = 26 000; tax 2 % = 520 (over the 4 × 100 minimum); + 1 500.
    expect(answer.lines).toEqual([
      { kind: 'nights', label: `${formatPrice(5000)} × ${formatNights(2)}`, amount: 10000 },
      { kind: 'nights', label: `${formatPrice(8000)} × ${formatNights(2)}`, amount: 16000 },
      { kind: 'fee', label: 'Уборка', amount: 1500 },
      { kind: 'tax', label: 'Туристический налог 2\u00a0%', amount: 520 },
    ]);
    expect(answer.total).toBe(28020);
    expect(answer).not.toHaveProperty('payment');
    const search = await json<Search>(
      await call('GET', `/api/search?checkIn=${day(60)}&checkOut=${day(64)}&guests=2`),
      200,
    );
    expect(search.results[0]).toMatchObject({ id: cabin.id, total: 28020 });
    expect(linesOf(search, search.results[0]!)).toEqual(answer.lines);
    const [row] = await json<OwnerBookings>(await call('GET', '/api/admin/bookings', { cookie }), 200);
    expect(row).toMatchObject({ total: 28020, lines: answer.lines, status: 'new' });
    const availability = await json<Availability>(await call('GET', `/api/cabins/${cabin.id}/availability`), 200);
    expect(availability.charges).toEqual({
      cleaningFee: 1500,
      touristTax: { enabled: true, ratePercent: 2, minPerNight: 100 },
    });
  });

  it("should charge the tourist tax's minimum per night when the rate comes to less", async () => {
    const cabin = await seedCabin({ pricePerNight: 3000 });
    const cookie = await login();
    await json(await settings(cookie, { touristTax: { enabled: true, ratePercent: 2, minPerNight: 100 } }), 200);
    // 3 nights × 3 000 = 9 000; 2 % = 180 < 3 × 100.
    const answer = await json<Started>(await book(cabin.id), 201);
    expect(answer.lines.at(-1)).toEqual({ kind: 'tax', label: 'Туристический налог 2\u00a0%', amount: 300 });
    expect(answer.total).toBe(9300);
  });
});

describe('a booking with prepayment: POST /api/bookings', () => {
  it('should hold the nights, create the payment with its receipt and send the guest to pay; paid, the booking confirms itself', async () => {
    const cabin = await seedCabin({ pricePerNight: 5000 });
    const cookie = await login();
    await prepaymentOn(cookie, { cleaningFee: 1000 });
    const started = await json<Started>(await book(cabin.id, { checkIn: day(30), checkOut: day(33) }), 201);
    expect(started.total).toBe(16000);
    // 30 % of 16 000 ₽, in kopecks; the hold lasts the owner's 30 minutes.
    expect(started.payment.amount).toBe(480000);
    expect(started.payment.confirmationUrl).toMatch(new RegExp(`^${yk.base}/pay/`));
    expect(Date.parse(started.payment.holdUntil) - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(await statusOf(started.id)).toBe('awaiting_payment');
    // Held: busy for everyone else, though not yet paid.
    expect(await busy(cabin.id)).toEqual([{ start: day(30), end: day(33) }]);
    await expectError(await book(cabin.id, { checkIn: day(31), checkOut: day(34) }), 409, MSG.bookingNotFree);

    const id = await paymentIdOf(started.id);
    const [receipt] = await receiptsOf(id);
    expect(receipt!.receipt).toEqual({
      customer: { email: 'anna@example.ru' },
      // An item per line of the price, each its share of the 30 % paid: the stay 15 000 ₽, the cleaning 1 000 ₽.
      items: [
        {
          description: expect.stringMatching(/^Проживание: «Домик у моря», /),
          quantity: '1.00',
          amount: { value: '4500.00', currency: 'RUB' },
          vat_code: 1,
          payment_mode: 'partial_prepayment',
          payment_subject: 'service',
        },
        {
          description: 'Уборка',
          quantity: '1.00',
          amount: { value: '300.00', currency: 'RUB' },
          vat_code: 1,
          payment_mode: 'partial_prepayment',
          payment_subject: 'service',
        },
      ],
    });

    // A notification's word is not taken: before the guest pays, «succeeded» changes nothing.
    await expectNoChange(async () => json(await notify('payment.succeeded', id), 200));
    expect(await statusOf(started.id)).toBe('awaiting_payment');
    await pay(id);
    expect(await json(await notify('payment.succeeded', id), 200)).toEqual({ ok: true, outcome: 'confirmed' });
    expect(await statusOf(started.id)).toBe('confirmed');
    // A repeat changes nothing.
    await expectNoChange(async () =>
      expect(await json(await notify('payment.succeeded', id), 200)).toEqual({ ok: true, outcome: 'unchanged' }),
    );
    const [row] = await json<OwnerBookings>(await call('GET', '/api/admin/bookings', { cookie }), 200);
    expect(row).toMatchObject({ status: 'confirmed', payment: { amount: 480000, status: 'succeeded' } });
  });

  it('should give the receipt an item per line of a stay priced with a code and an extra, the same lines as the booking', async () => {
    const cabin = await seedCabin({ pricePerNight: 5000, name: 'Домик у моря' });
    const cookie = await login();
    await prepaymentOn(cookie, { cleaningFee: 1000, prepayment: { kind: 'percent', percent: 100 } });
    const pricing = await json<Pricing>(
      await call('PUT', '/api/admin/pricing', {
        cookie,
        body: { discounts: [], extras: [{ name: 'Баня', price: 2000, per: 'stay', mandatory: false }] },
      }),
      200,
    );
    await json(
      await call('PUT', '/api/admin/promo-codes', { cookie, body: { codes: [{ code: 'LETO', percent: 10 }] } }),
      200,
    );
    const started = await json<Started>(
      await book(cabin.id, { checkIn: day(30), checkOut: day(33), extras: [pricing.extras[0]!.id], promo: 'leto' }),
      201,
    );
    expect(started.lines.map((l) => [l.kind, l.amount])).toEqual([
      ['nights', 15000],
      ['promo', -1500],
      ['extra', 2000],
      ['fee', 1000],
    ]);
    const [receipt] = await receiptsOf(await paymentIdOf(started.id));
    expect(
      receipt!.receipt.items.map(
        (i: { description: string; amount: { value: string }; payment_mode: string; payment_subject: string }) => [
          i.description.replace(/,.*/, ''),
          i.amount.value,
          i.payment_mode,
          i.payment_subject,
        ],
      ),
    ).toEqual([
      ['Проживание: «Домик у моря»', '13500.00', 'full_prepayment', 'service'],
      ['Баня', '2000.00', 'full_prepayment', 'service'],
      ['Уборка', '1000.00', 'full_prepayment', 'service'],
    ]);
  });

  it('should take the first night as the prepayment when the owner chose it', async () => {
    const cabin = await seedCabin({ pricePerNight: 4200 });
    await prepaymentOn(await login(), { prepayment: { kind: 'firstNight', percent: 30 } });
    const started = await json<Started>(await book(cabin.id, { email: '' }), 201);
    expect(started.payment.amount).toBe(420000);
    const [receipt] = await receiptsOf(await paymentIdOf(started.id));
    expect(receipt!.receipt.customer).toEqual({ phone: '79285551234' });
  });

  it('should refuse a notification for a payment it never made (404) and a malformed one (400), changing nothing', async () => {
    await expectNoChange(async () =>
      expectError(await notify('payment.succeeded', 'forged-payment-id'), 404, MSG.paymentNotFound),
    );
    await expectNoChange(async () =>
      expectError(await call('POST', '/api/payments/yookassa', { body: { event: 'payment.succeeded' } }), 400),
    );
  });

  it('should tell the guest back from the payment page where things stand, reading the payment back from ЮKassa', async () => {
    const cabin = await seedCabin();
    await prepaymentOn(await login());
    const started = await json<Started>(await book(cabin.id), 201);
    const token = await guestToken(started.id);
    expect(started.payment.confirmationUrl).toBeTruthy();
    const before = await json(await call('GET', `/api/bookings/${started.id}/status?token=${token}`), 200);
    expect(before).toMatchObject({
      status: 'awaiting_payment',
      payment: { amount: started.payment.amount, status: 'pending' },
    });
    // No notification has come (the server may not be reachable from ЮKassa): the read-back confirms it.
    await pay(await paymentIdOf(started.id));
    expect(await json(await call('GET', `/api/bookings/${started.id}/status?token=${token}`), 200)).toMatchObject({
      status: 'confirmed',
      payment: { status: 'succeeded' },
    });
    await expectError(
      await call('GET', `/api/bookings/${started.id}/status?token=${'0'.repeat(36)}`),
      404,
      MSG.bookingNotFound,
    );
    await expectError(await call('GET', `/api/bookings/${started.id}/status?token=nope`), 400, MSG.bookingAccessDenied);
  });

  it('should free the nights when the guest cancels on the payment page', async () => {
    const cabin = await seedCabin();
    await prepaymentOn(await login());
    const started = await json<Started>(await book(cabin.id), 201);
    const id = await paymentIdOf(started.id);
    await pay(id, 'cancel');
    expect(await json(await notify('payment.canceled', id), 200)).toEqual({ ok: true, outcome: 'expired' });
    expect(await statusOf(started.id)).toBe('expired');
    expect(await busy(cabin.id)).toEqual([]);
  });

  it('should free the nights when the hold runs out, say so in «Заявки», and refund a payment that comes after', async () => {
    const cabin = await seedCabin();
    await prepaymentOn(await login());
    const started = await json<Started>(await book(cabin.id), 201);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 31 * 60_000);
    expect(await busy(cabin.id)).toEqual([]);
    // (The owner's session of 30 minutes ran out too.)
    const [row] = await json<OwnerBookings>(await call('GET', '/api/admin/bookings', { cookie: await login() }), 200);
    expect(row!.status).toBe('expired');
    // The guest pays anyway, late: the money goes back by itself, with its receipt.
    const id = await paymentIdOf(started.id);
    await pay(id);
    expect(await json(await notify('payment.succeeded', id), 200)).toEqual({ ok: true, outcome: 'refunded' });
    expect(await statusOf(started.id)).toBe('expired');
    const receipts = await receiptsOf(id);
    expect(receipts.map((r) => r.kind)).toEqual(['payment', 'refund']);
    const payment = await env.DB.prepare('SELECT refund_status, refund_reason FROM payments WHERE id = ?')
      .bind(id)
      .first();
    expect(payment).toEqual({ refund_status: 'succeeded', refund_reason: 'late' });
    // A repeat refunds nothing more.
    await json(await notify('payment.succeeded', id), 200);
    expect((await receiptsOf(id)).length).toBe(2);
  });

  it('should let exactly one of two guests racing for the same nights hold them', async () => {
    const cabin = await seedCabin();
    await prepaymentOn(await login());
    const answers = await Promise.all([book(cabin.id, { name: 'Первый' }), book(cabin.id, { name: 'Второй' })]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    const held = await env.DB.prepare("SELECT count(*) AS n FROM bookings WHERE status = 'awaiting_payment'").first<{
      n: number;
    }>();
    expect(held!.n).toBe(1);
  });

  it('should keep the booking as a request and say so when ЮKassa is down', async () => {
    const cabin = await seedCabin();
    await prepaymentOn(await login());
    // A shop of this test's own goes down: the stand-in is shared with the tests running beside it.
    const down = await ownShop('down');
    expect(await standInControl('/_outage', { down: true, shopId: down.YOOKASSA_SHOP_ID })).toBe(200);
    const answer = await json<Booked>(
      await call('POST', '/api/bookings', { body: validBooking(cabin.id), bindings: down }),
      201,
    );
    expect(answer.paymentError).toBe(MSG.paymentUnavailable);
    expect(answer.payment).toBeUndefined();
    expect(await statusOf(answer.id)).toBe('new');
    expect(await busy(cabin.id)).toEqual([]);
  });
});

describe('the owner and a paid booking', () => {
  it('should refund the prepayment with its receipt and cancel the booking; a second refund finds nothing paid', async () => {
    const cabin = await seedCabin();
    const cookie = await login();
    await prepaymentOn(cookie);
    const started = await json<Started>(await book(cabin.id), 201);
    const id = await paymentIdOf(started.id);
    await pay(id);
    await json(await notify('payment.succeeded', id), 200);
    await expectError(await call('POST', `/api/admin/bookings/${started.id}/refund`), 401);
    const refunded = await json<OwnerRefund>(
      await call('POST', `/api/admin/bookings/${started.id}/refund`, { cookie }),
      200,
    );
    expect(refunded).toMatchObject({
      booking: { status: 'cancelled' },
      payment: { refundStatus: 'succeeded', refundReason: 'owner' },
    });
    expect(await busy(cabin.id)).toEqual([]);
    expect((await receiptsOf(id)).map((r) => [r.kind, r.receipt.items[0].payment_mode])).toEqual([
      ['payment', 'partial_prepayment'],
      ['refund', 'partial_prepayment'],
    ]);
    await expectNoChange(async () =>
      expectError(
        await call('POST', `/api/admin/bookings/${started.id}/refund`, { cookie }),
        409,
        MSG.paymentNothingPaid,
      ),
    );
  });

  it('should send a payment link for a request received as «Заявка», holding its nights', async () => {
    const cabin = await seedCabin();
    const cookie = await login();
    const request = await json<Booked>(await book(cabin.id), 201);
    await expectError(
      await call('POST', `/api/admin/bookings/${request.id}/payment-link`, { cookie, bindings: NO_SHOP }),
      400,
      MSG.paymentsNotConfigured,
    );
    const link = await json<PaymentLink>(
      await call('POST', `/api/admin/bookings/${request.id}/payment-link`, { cookie }),
      200,
    );
    expect(link.booking.status).toBe('awaiting_payment');
    expect(link.payment.confirmationUrl).toMatch(/\/pay\//);
    expect(await busy(cabin.id)).toHaveLength(1);
    await expectNoChange(async () =>
      expectError(
        await call('POST', `/api/admin/bookings/${request.id}/payment-link`, { cookie }),
        409,
        MSG.paymentLinkTransition,
      ),
    );
  });

  it('should send the settlement receipt of a paid prepayment on the check-in day, once', async () => {
    const cabin = await seedCabin();
    await prepaymentOn(await login());
    const started = await json<Started>(await book(cabin.id, { checkIn: day(3), checkOut: day(5) }), 201);
    const id = await paymentIdOf(started.id);
    await pay(id);
    await json(await notify('payment.succeeded', id), 200);
    const bindings = { ...env, ...SHOP } as Bindings;
    expect(await runPaymentSchedule(bindings)).toEqual({ expired: 0, receipts: 0 });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 3 * 86_400_000);
    expect(await runPaymentSchedule(bindings)).toEqual({ expired: 0, receipts: 1 });
    expect(await runPaymentSchedule(bindings)).toEqual({ expired: 0, receipts: 0 });
    const settlement = (await receiptsOf(id)).find((r) => r.kind === 'settlement')!;
    expect(settlement.receipt.items[0]).toMatchObject({
      payment_mode: 'full_payment',
      payment_subject: 'service',
      amount: { value: (started.payment.amount / 100).toFixed(2) },
    });
    expect(settlement.receipt.settlements).toEqual([
      { type: 'prepayment', amount: { value: (started.payment.amount / 100).toFixed(2), currency: 'RUB' } },
    ]);
  });
});
