import { env } from 'cloudflare:test';
import type { InferResponseType } from 'hono/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { GUEST_PAGE_DAYS_AFTER_DEPARTURE } from '../../schema/guest-page.ts';
import { MSG } from '../../schema/messages.ts';
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
import { SHOP, yk } from './yookassa-shop.ts';

/**
 * The guest's own page (docs/api.md «The guest's page and messages») on both runtimes,
 * against the ЮKassa stand-in (stand-ins/yookassa-api.ts): what the page shows, the rest
 * paid as a second payment, the stay as a calendar file, the cancellation by the owner's policy
 * with its refunds (what was asked of ЮKassa is read from the stand-in's log), a refund ЮKassa
 * refused at first and made by the schedule, and the owner's «Вернуть предоплату» afterwards.
 */
const day = (n: number) => addDays(todayInMoscow(), n);

const call = callWith(SHOP);
const json = jsonOf;

// What the routes answer, as the typed client knows them.
type GuestPage = InferResponseType<Api['guest'][':token']['$get'], 200>;
type GuestPay = InferResponseType<Api['guest'][':token']['pay']['$post'], 200>;
type Availability = InferResponseType<Api['cabins'][':id']['availability']['$get'], 200>;
type Search = InferResponseType<Api['search']['$get'], 200>;
type OwnerBookings = InferResponseType<Api['admin']['bookings']['$get'], 200>;
type OwnerRefund = InferResponseType<Api['admin']['bookings'][':id']['refund']['$post'], 200>;

const standIn = (path: string, body?: unknown) =>
  fetch(
    `${yk.base}${path}`,
    body === undefined
      ? undefined
      : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } },
  );
const payAtStandIn = async (paymentId: string) =>
  expect((await fetch(`${yk.base}/_payments/${paymentId}/succeed`, { method: 'POST' })).status).toBe(200);
type Call = { path: string; key: string; amount?: string; paymentId?: string; id?: string; error?: string };
type Log = { calls: Call[]; receipts: { kind: string; paymentId: string; receipt: Receipt }[] };
const standInLog = async () => (await (await standIn('/_log')).json()) as Log;
/** The refunds asked of the stand-in for these payments (ids are ЮKassa's, unique across both runtimes' tests). */
const refundsOf = async (...ids: string[]) =>
  (await standInLog()).calls.filter((c) => c.path === '/refunds' && ids.includes(c.paymentId ?? '') && !c.error);

const paymentRows = (bookingId: number) =>
  env.DB.prepare(
    "SELECT id, kind, amount, status, refund_amount, refund_id, refund_reason FROM payments WHERE booking_id = ? ORDER BY kind = 'balance', created_at",
  )
    .bind(bookingId)
    .all<{
      id: string;
      kind: string;
      amount: number;
      status: string;
      refund_amount: number | null;
      refund_id: string | null;
      refund_reason: string | null;
    }>()
    .then((r) => r.results);
const notify = (id: string) =>
  call('POST', '/api/payments/yookassa', {
    body: { type: 'notification', event: 'payment.succeeded', object: { id } },
  });
const busy = async (cabinId: number) =>
  (await json<Availability>(await call('GET', `/api/cabins/${cabinId}/availability`), 200)).busy;

async function book(cabinId: number, overrides: Record<string, unknown> = {}) {
  const booked = await json<Booked>(
    await call('POST', '/api/bookings', { body: validBooking(cabinId, overrides) }),
    201,
  );
  expect(booked.guestUrl).toMatch(/^\/b\/[0-9a-f]{36}$/);
  return { ...booked, page: `/api/guest/${booked.guestUrl.slice(3)}` };
}
/** A booking with prepayment, paid at the stand-in and confirmed by ЮKassa's notification. */
async function bookPaid(cabinId: number, overrides: Record<string, unknown> = {}) {
  const booked = await book(cabinId, overrides);
  const [prepayment] = await paymentRows(booked.id);
  await payAtStandIn(prepayment!.id);
  expect(await json(await notify(prepayment!.id), 200)).toMatchObject({ outcome: 'confirmed' });
  return { ...booked, prepayment: prepayment! };
}
async function put(cookie: string, patch: Record<string, unknown>) {
  await json(await call('PUT', '/api/settings', { cookie, body: patch }), 200);
}
const prepaymentOn = (cookie: string, percent: number, extra: Record<string, unknown> = {}) =>
  put(cookie, { bookingMode: 'prepayment', prepayment: { kind: 'percent', percent }, holdMinutes: 30, ...extra });

beforeEach(resetDataWithAdmin);
afterEach(() => {
  vi.useRealTimers();
});

describe("the guest's page of a booking with prepayment", () => {
  it('should show the stay, read the payment back, take the rest as a second payment, give the calendar file and cancel free of charge with both refunded', async () => {
    const cabin = await seedCabin({ pricePerNight: 5000, name: 'Домик у моря' });
    const cookie = await login();
    await prepaymentOn(cookie, 30);
    await json(
      await call('PUT', `/api/admin/cabins/${cabin.id}/instructions`, {
        cookie,
        body: { text: 'Ключ в сейфе у калитки, код 4512. Wi-Fi: Kaspiy / more2027' },
      }),
      200,
    );
    const booked = await book(cabin.id, { checkIn: day(30), checkOut: day(33) });
    // 3 nights × 5 000 ₽; 30 % prepaid, in kopecks.
    expect(booked.total).toBe(15000);
    expect(booked.payment!.amount).toBe(450000);

    // Waiting for the prepayment: the page offers the way back to ЮKassa, nothing of the way there yet.
    const waiting = await call('GET', booked.page);
    expect(waiting.headers.get('cache-control')).toBe('no-store');
    expect(waiting.headers.get('x-robots-tag')).toMatch(/noindex/);
    const before = await json<GuestPage>(waiting, 200);
    expect(before).toMatchObject({
      id: booked.id,
      status: 'awaiting_payment',
      cabin: { id: cabin.id, name: 'Домик у моря' },
      checkIn: day(30),
      checkOut: day(33),
      nights: 3,
      guests: 2,
      total: 15000,
      paid: 0,
      due: 1500000,
      canPay: false,
      refunded: 0,
    });
    expect(before.pendingPayment).toEqual({ amount: 450000, confirmationUrl: booked.payment!.confirmationUrl });
    expect(before.instructions).toBeUndefined();

    // Paid on ЮKassa's page; no notification came: the page reads the payment back and confirms.
    const [prepayment] = await paymentRows(booked.id);
    await payAtStandIn(prepayment!.id);
    const confirmed = await json<GuestPage>(await call('GET', booked.page), 200);
    expect(confirmed).toMatchObject({
      status: 'confirmed',
      paid: 450000,
      due: 1050000,
      canPay: true,
      canReview: false,
      reviewed: false,
    });
    expect(confirmed.cancel).toMatchObject({
      allowed: true,
      free: true,
      freeUntil: day(23),
      refund: 450000,
      kept: 0,
      policy: { freeUntilDays: 7, keepPercent: 30 },
    });
    expect(confirmed.instructions).toEqual({
      address: 'Республика Дагестан, Каспийск, ул. Приморская, 12',
      mapUrl: `https://yandex.ru/maps/?text=${encodeURIComponent('Республика Дагестан, Каспийск, ул. Приморская, 12')}`,
      text: 'Ключ в сейфе у калитки, код 4512. Wi-Fi: Kaspiy / more2027',
      phone: '+7 (928) 555-12-34',
      email: 'info@kaspiy-dom.ru',
      siteName: 'Каспий',
    });
    // The instructions are the guests' only: the public cabin does not carry them.
    expect(await (await call('GET', `/api/cabins/${cabin.id}`)).text()).not.toContain('код 4512');

    // The rest: one payment of what is due, with the guest's page as the way back; a second tap gives the same.
    const first = await json<GuestPay>(await call('POST', `${booked.page}/pay`, { body: {} }), 200);
    expect(first.amount).toBe(1050000);
    expect(await json(await call('POST', `${booked.page}/pay`, { body: {} }), 200)).toEqual(first);
    const rows = await paymentRows(booked.id);
    expect(rows.map((r) => [r.kind, r.amount, r.status])).toEqual([
      ['prepayment', 450000, 'succeeded'],
      ['balance', 1050000, 'pending'],
    ]);
    const balance = rows[1]!;
    const log = await standInLog();
    const made = log.calls.filter((c) => c.path === '/payments' && c.id === balance.id);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({
      amount: '10500.00',
      key: expect.stringMatching(new RegExp(`^balance-${booked.id}-\\d+-450000-0$`)),
    });
    expect(
      (
        (await (await standIn('/_log')).json()) as { payments: { id: string; confirmation: { return_url: string } }[] }
      ).payments.find((p) => p.id === balance.id)!.confirmation.return_url,
    ).toBe(`http://127.0.0.1${booked.guestUrl}`);
    const receipt = log.receipts.find((r) => r.paymentId === balance.id)!.receipt;
    expect(
      receipt.items.map((i: { amount: { value: string }; payment_mode: string }) => [i.amount.value, i.payment_mode]),
    ).toEqual([['10500.00', 'partial_prepayment']]);

    // Paid: the booking stays confirmed and everything is paid.
    await payAtStandIn(balance.id);
    expect(await json(await notify(balance.id), 200)).toEqual({ ok: true, outcome: 'paid' });
    expect(await json(await notify(balance.id), 200)).toEqual({ ok: true, outcome: 'unchanged' });
    expect(await json<GuestPage>(await call('GET', booked.page), 200)).toMatchObject({
      status: 'confirmed',
      paid: 1500000,
      due: 0,
      canPay: false,
    });
    await expectNoChange(async () =>
      expectError(await call('POST', `${booked.page}/pay`, { body: {} }), 409, MSG.guestNothingDue),
    );

    // The stay for the guest's calendar: one all-day event, check-in to the departure day.
    const ics = await call('GET', `${booked.page}/stay.ics`);
    expect(ics.status).toBe(200);
    expect(ics.headers.get('content-type')).toMatch(/^text\/calendar/);
    expect(ics.headers.get('content-disposition')).toBe(`attachment; filename="stay-${booked.id}.ics"`);
    const text = (await ics.text()).replace(/\r\n[ \t]/g, '');
    expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(1);
    expect(text).toContain(`DTSTART;VALUE=DATE:${day(30).replace(/-/g, '')}\r\n`);
    expect(text).toContain(`DTEND;VALUE=DATE:${day(33).replace(/-/g, '')}\r\n`);
    expect(text).toContain('SUMMARY:Домик у моря — Каспий\r\n');
    expect(text).toContain('LOCATION:Республика Дагестан\\, Каспийск\\, ул. Приморская\\, 12\r\n');
    expect(text).toMatch(
      /DESCRIPTION:Заезд с 14:00\\, выезд до 12:00\.\\nСтраница бронирования: http:\/\/127\.0\.0\.1\/b\/[0-9a-f]{36}\r\n/,
    );

    // Cancelled inside the free period (two taps at once): both payments go back in full, once; the nights are free.
    expect(await busy(cabin.id)).toHaveLength(1);
    const [cancelled, racing] = await Promise.all(
      [call('POST', `${booked.page}/cancel`, { body: {} }), call('POST', `${booked.page}/cancel`, { body: {} })].map(
        async (r) => json(await r, 200),
      ),
    );
    expect(cancelled).toEqual({ status: 'cancelled', refunded: 1500000 });
    expect(racing).toEqual(cancelled);
    const refunds = await refundsOf(prepayment!.id, balance.id);
    expect(refunds.map((r) => [r.paymentId, r.amount, r.key])).toEqual([
      [prepayment!.id, '4500.00', `refund-${prepayment!.id}`],
      [balance.id, '10500.00', `refund-${balance.id}`],
    ]);
    expect(await busy(cabin.id)).toEqual([]);
    const search = await json<Search>(
      await call('GET', `/api/search?checkIn=${day(30)}&checkOut=${day(33)}&guests=2`),
      200,
    );
    expect(search.results.map((r) => r.id)).toContain(cabin.id);

    // Again: the same answer, nothing asked of ЮKassa again.
    expect(await json(await call('POST', `${booked.page}/cancel`, { body: {} }), 200)).toEqual(cancelled);
    expect(await refundsOf(prepayment!.id, balance.id)).toHaveLength(2);
    const after = await json<GuestPage>(await call('GET', booked.page), 200);
    expect(after).toMatchObject({
      status: 'cancelled',
      paid: 0,
      due: 0,
      refunded: 1500000,
      canPay: false,
      cancel: { allowed: false, reason: MSG.guestCancelAlready },
    });
    expect(after.instructions).toBeUndefined();

    // «Заявки»: who cancelled, the guest's page, the money over both payments.
    const [row] = await json<OwnerBookings>(await call('GET', '/api/admin/bookings', { cookie }), 200);
    expect(row).toMatchObject({
      id: booked.id,
      status: 'cancelled',
      cancelledBy: 'guest',
      guestUrl: booked.guestUrl,
      paid: 0,
      refunded: 1500000,
      refundable: 0,
    });
  });

  it("should keep the policy's percent of a late cancellation, refund the rest of what was paid, and let the owner return the part kept", async () => {
    const cabin = await seedCabin({ pricePerNight: 5000 });
    const cookie = await login();
    await prepaymentOn(cookie, 50, { cancellation: { freeUntilDays: 14, keepPercent: 30 } });
    const booked = await bookPaid(cabin.id, { checkIn: day(10), checkOut: day(13) });
    // 50 % of 15 000 ₽ paid; 30 % of the total (4 500 ₽) is kept, the other 3 000 ₽ go back.
    const page = await json<GuestPage>(await call('GET', booked.page), 200);
    expect(page).toMatchObject({ paid: 750000, due: 750000 });
    expect(page.cancel).toMatchObject({ allowed: true, free: false, freeUntil: null, refund: 300000, kept: 450000 });
    expect(await json(await call('POST', `${booked.page}/cancel`, { body: {} }), 200)).toEqual({
      status: 'cancelled',
      refunded: 300000,
    });
    const [refund] = await refundsOf(booked.prepayment.id);
    expect(refund).toMatchObject({ amount: '3000.00', key: `refund-${booked.prepayment.id}` });
    // The refund's receipt keeps the payment's own mode (a part of the price was paid).
    const receipts = (await standInLog()).receipts.filter(
      (r) => r.paymentId === booked.prepayment.id && r.kind === 'refund',
    );
    expect(receipts.map((r) => r.receipt.items.map((i: { payment_mode: string }) => i.payment_mode))).toEqual([
      ['partial_prepayment'],
    ]);
    expect(await json<GuestPage>(await call('GET', booked.page), 200)).toMatchObject({
      status: 'cancelled',
      paid: 450000,
      refunded: 300000,
    });

    // The owner gives back the part kept as well: only what is left of the payment, under a key of its own.
    const owner = await json<OwnerRefund>(
      await call('POST', `/api/admin/bookings/${booked.id}/refund`, { cookie }),
      200,
    );
    expect(owner).toMatchObject({ booking: { status: 'cancelled', cancelledBy: 'guest' }, refunded: 750000, paid: 0 });
    expect((await refundsOf(booked.prepayment.id)).map((r) => [r.amount, r.key])).toEqual([
      ['3000.00', `refund-${booked.prepayment.id}`],
      ['4500.00', `refund-${booked.prepayment.id}-300000`],
    ]);
    await expectNoChange(async () =>
      expectError(
        await call('POST', `/api/admin/bookings/${booked.id}/refund`, { cookie }),
        409,
        MSG.paymentNothingPaid,
      ),
    );

    // ЮKassa tells of both refunds. The payment names the second; the first, read back, is ours
    // all the same: 200, or ЮKassa would send it again for a day. One it never made is a 404.
    const refundNotice = (id: string, paymentId = booked.prepayment.id) =>
      call('POST', '/api/payments/yookassa', {
        body: {
          type: 'notification',
          event: 'refund.succeeded',
          object: { id, payment_id: paymentId, status: 'succeeded' },
        },
      });
    const [earlier, latest] = await refundsOf(booked.prepayment.id);
    for (const r of [earlier!, latest!]) expect(await json(await refundNotice(r.id!), 200)).toEqual({ ok: true });
    await expectNoChange(async () => {
      // A refund ЮKassa never made, or one it made said to be of another payment.
      await expectError(await refundNotice('2f8e9a1c-0000-4000-8000-000000000000'), 404, MSG.paymentNotFound);
      await expectError(await refundNotice(earlier!.id!, 'another-shops-payment'), 404, MSG.paymentNotFound);
    });
  });

  it('should cancel even when ЮKassa refuses the refund, say what goes back, and have the schedule make the refund once', async () => {
    const cabin = await seedCabin({ pricePerNight: 5000 });
    await prepaymentOn(await login(), 30);
    const booked = await bookPaid(cabin.id, { checkIn: day(30), checkOut: day(33) });
    const id = booked.prepayment.id;
    await standIn('/_fail-refunds', { paymentId: id, fail: true });
    try {
      const answer = await json(await call('POST', `${booked.page}/cancel`, { body: {} }), 200);
      expect(answer).toEqual({ status: 'cancelled', refunded: 450000, refundError: MSG.guestRefundFailed });
      expect(await busy(cabin.id)).toEqual([]);
      expect((await paymentRows(booked.id))[0]).toMatchObject({
        refund_amount: 450000,
        refund_id: null,
        refund_reason: 'guest',
      });
      // Asked again, the same answer; ЮKassa still refuses, the schedule's try changes nothing.
      expect(await json(await call('POST', `${booked.page}/cancel`, { body: {} }), 200)).toEqual({
        status: 'cancelled',
        refunded: 450000,
      });
      await runPaymentSchedule({ ...env, ...SHOP } as Bindings);
      expect(await refundsOf(id)).toEqual([]);
    } finally {
      await standIn('/_fail-refunds', { paymentId: id, fail: false });
    }
    // ЮKassa is back: the next run of the schedule makes the refund, with the key the first ask had.
    await runPaymentSchedule({ ...env, ...SHOP } as Bindings);
    await runPaymentSchedule({ ...env, ...SHOP } as Bindings);
    expect((await refundsOf(id)).map((r) => [r.amount, r.key])).toEqual([['4500.00', `refund-${id}`]]);
    expect((await paymentRows(booked.id))[0]).toMatchObject({ refund_amount: 450000, refund_id: expect.any(String) });
  });

  it('should cancel a booking still waiting for its prepayment with nothing refunded, and refund that payment in full when it comes after', async () => {
    const cabin = await seedCabin({ pricePerNight: 5000 });
    await prepaymentOn(await login(), 30);
    const booked = await book(cabin.id);
    expect(await json(await call('POST', `${booked.page}/cancel`, { body: {} }), 200)).toEqual({
      status: 'cancelled',
      refunded: 0,
    });
    expect(await busy(cabin.id)).toEqual([]);
    const [prepayment] = await paymentRows(booked.id);
    await payAtStandIn(prepayment!.id);
    expect(await json(await notify(prepayment!.id), 200)).toEqual({ ok: true, outcome: 'refunded' });
    expect((await refundsOf(prepayment!.id)).map((r) => r.amount)).toEqual(['4500.00']);
    expect(await json<GuestPage>(await call('GET', booked.page), 200)).toMatchObject({
      status: 'cancelled',
      paid: 0,
      refunded: 450000,
    });
  });
});

describe("the guest's page of a request", () => {
  it('should show a request without payment, cancel it with nothing refunded, refuse what cannot be cancelled, and answer 404 for tokens it does not know', async () => {
    const cabin = await seedCabin({ pricePerNight: 5000 });
    const cookie = await login();
    const booked = await book(cabin.id);
    const page = await json<GuestPage>(await call('GET', booked.page), 200);
    expect(page).toMatchObject({
      status: 'new',
      total: 15000,
      paid: 0,
      due: 1500000,
      canPay: false,
      refunded: 0,
      cancel: { allowed: true, refund: 0 },
    });
    expect(page.instructions).toBeUndefined();
    await expectError(await call('POST', `${booked.page}/pay`, { body: {} }), 409, MSG.guestPayNotConfirmed);
    expect(await json(await call('POST', `${booked.page}/cancel`, { body: {} }), 200)).toEqual({
      status: 'cancelled',
      refunded: 0,
    });
    const [row] = await json<OwnerBookings>(await call('GET', '/api/admin/bookings', { cookie }), 200);
    expect(row).toMatchObject({
      status: 'cancelled',
      cancelledBy: 'guest',
      cancelledAt: expect.any(String),
      paid: 0,
      refunded: 0,
    });

    // The owner declined another one: it cannot be cancelled any more.
    const declined = await book(cabin.id, { checkIn: day(70), checkOut: day(72) });
    await json(await call('PUT', `/api/admin/bookings/${declined.id}`, { cookie, body: { status: 'declined' } }), 200);
    await expectNoChange(async () =>
      expectError(await call('POST', `${declined.page}/cancel`, { body: {} }), 409, MSG.guestCancelStatus),
    );

    for (const token of [
      '0'.repeat(36),
      'nope',
      booked.guestUrl.slice(3).toUpperCase(),
      `${booked.guestUrl.slice(3)}0`,
    ]) {
      const res = await call('GET', `/api/guest/${token}`);
      expect(res.headers.get('cache-control')).toBe('no-store');
      await expectError(res, 404, MSG.guestPageNotFound);
      await expectNoChange(async () =>
        expectError(await call('POST', `/api/guest/${token}/cancel`, { body: {} }), 404, MSG.guestPageNotFound),
      );
      await expectError(await call('GET', `/api/guest/${token}/stay.ics`), 404, MSG.guestPageNotFound);
    }
  });

  it('should refuse to cancel from the day of arrival on, and stop answering some weeks after departure', async () => {
    const cabin = await seedCabin({ pricePerNight: 5000 });
    const cookie = await login();
    const booked = await book(cabin.id, { checkIn: day(5), checkOut: day(8) });
    await json(await call('PUT', `/api/admin/bookings/${booked.id}`, { cookie, body: { status: 'confirmed' } }), 200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 5 * 86_400_000);
    const page = await json<GuestPage>(await call('GET', booked.page), 200);
    expect(page.cancel).toMatchObject({ allowed: false, reason: MSG.guestCancelArrived });
    await expectNoChange(async () =>
      expectError(await call('POST', `${booked.page}/cancel`, { body: {} }), 409, MSG.guestCancelArrived),
    );
    // After departure the page offers the review form; it answers until its last day, then 404.
    vi.setSystemTime(Date.now() + (3 + GUEST_PAGE_DAYS_AFTER_DEPARTURE) * 86_400_000);
    expect(await json<GuestPage>(await call('GET', booked.page), 200)).toMatchObject({
      status: 'confirmed',
      canReview: true,
      reviewed: false,
    });
    vi.setSystemTime(Date.now() + 86_400_000);
    await expectError(await call('GET', booked.page), 404, MSG.guestPageNotFound);
  });
});

describe("a cabin's arrival instructions: /api/admin/cabins/{id}/instructions", () => {
  it("should keep the owner's text, refuse one over 5000 characters, an unknown cabin and a visitor", async () => {
    const cabin = await seedCabin();
    const cookie = await login();
    expect(await json(await call('GET', `/api/admin/cabins/${cabin.id}/instructions`, { cookie }), 200)).toEqual({
      text: '',
    });
    expect(
      await json(
        await call('PUT', `/api/admin/cabins/${cabin.id}/instructions`, {
          cookie,
          body: { text: '  Заезд с 14:00.  ' },
        }),
        200,
      ),
    ).toEqual({ text: 'Заезд с 14:00.' });
    expect(await json(await call('GET', `/api/admin/cabins/${cabin.id}/instructions`, { cookie }), 200)).toEqual({
      text: 'Заезд с 14:00.',
    });
    await expectNoChange(async () => {
      await expectError(
        await call('PUT', `/api/admin/cabins/${cabin.id}/instructions`, { cookie, body: { text: 'я'.repeat(5001) } }),
        400,
        MSG.instructionsTooLong,
      );
      await expectError(
        await call('PUT', `/api/admin/cabins/${cabin.id + 1}/instructions`, { cookie, body: { text: 'x' } }),
        404,
        MSG.cabinNotFound,
      );
      await expectError(await call('PUT', `/api/admin/cabins/${cabin.id}/instructions`, { body: { text: 'x' } }), 401);
    });
    expect(await json(await call('GET', `/api/admin/cabins/${cabin.id}/instructions`, { cookie }), 200)).toEqual({
      text: 'Заезд с 14:00.',
    });
    await expectError(await call('GET', `/api/admin/cabins/${cabin.id}/instructions`), 401);
    await expectError(
      await call('GET', `/api/admin/cabins/${cabin.id + 1}/instructions`, { cookie }),
      404,
      MSG.cabinNotFound,
    );
  });
});
