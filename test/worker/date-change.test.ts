import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { CHANGE_MSG } from '../../schema/date-change.ts';
import { formatDate } from '../../schema/format.ts';
import { MSG } from '../../schema/messages.ts';
import { readLog } from '../../stand-ins/yookassa-api.ts';
import {
  type Booked,
  callWith,
  expectError,
  expectNoChange,
  jsonOf,
  login,
  resetDataWithAdmin,
  seedCabin,
  validBooking,
} from './helpers.ts';
import { SHOP, yk } from './yookassa-shop.ts';

// A guest moves the dates of their stay from their own page (docs/api.md «Date changes»), on both
// runtimes against the ЮKassa stand-in: priced by the one quote function, moved at once when it
// costs the same or less (the overpaid part back by the cancellation policy), or the new nights held
// while the difference is paid; unpaid in time, the old dates stand. Of racing moves, bookings and
// ЮKassa's notifications exactly one acts.

const call = callWith(SHOP);
// Today is read once per test: a test that moves the clock 16 minutes on may cross Moscow's midnight.
let today = todayInMoscow();
const day = (n: number) => addDays(today, n);

beforeEach(async () => {
  today = todayInMoscow();
  await resetDataWithAdmin();
});
afterEach(() => vi.useRealTimers());

type Page = {
  status: string;
  checkIn: string;
  checkOut: string;
  total: number;
  paid: number;
  due: number;
  cabin: { id: number; name: string };
  change?: {
    allowed: boolean;
    reason?: string;
    until: string;
    cabins?: { id: number; name: string }[];
    pending?: { checkIn: string; due: number };
  };
};
type Quote = { quote: { nights: number; total: number }; difference: number; due: number; refund: number };
type Moved = {
  status: string;
  checkIn: string;
  checkOut: string;
  due?: number;
  refunded?: number;
  confirmationUrl?: string;
};

const page = async (token: string) => jsonOf<Page>(await call('GET', `/api/guest/${token}`), 200);
const quote = (token: string, q: Record<string, string>) =>
  call('GET', `/api/guest/${token}/change?${new URLSearchParams(q)}`);
const move = (token: string, body: Record<string, unknown>) => call('POST', `/api/guest/${token}/change`, { body });
const busy = async (cabinId: number) =>
  (
    await jsonOf<{ busy: { start: string; end: string }[] }>(
      await call('GET', `/api/cabins/${cabinId}/availability`),
      200,
    )
  ).busy;
const settings = async (cookie: string, patch: Record<string, unknown>) =>
  jsonOf(await call('PUT', '/api/settings', { cookie, body: patch }), 200);
/** Prepayment through ЮKassa: `percent` of the total paid up front, nights held `holdMinutes`. */
const prepaymentOn = (cookie: string, p: { percent: number; holdMinutes: number; [more: string]: unknown }) => {
  const { percent, ...rest } = p;
  return settings(cookie, { bookingMode: 'prepayment', prepayment: { kind: 'percent', percent }, ...rest });
};
/** ЮKassa's id of a payment, from the stand-in's page address. */
const paymentIdOf = (confirmationUrl: string | undefined) => confirmationUrl!.split('/pay/')[1]!;
const paymentRows = (bookingId: number) =>
  env.DB.prepare(
    'SELECT id, kind, amount, status, refund_amount, refund_reason FROM payments WHERE booking_id = ? ORDER BY created_at',
  )
    .bind(bookingId)
    .all<{
      id: string;
      kind: string;
      amount: number;
      status: string;
      refund_amount: number | null;
      refund_reason: string | null;
    }>()
    .then((r) => r.results);
const changeRows = (bookingId: number) =>
  env.DB.prepare(
    'SELECT status, to_check_in, to_check_out, due, refund FROM date_changes WHERE booking_id = ? ORDER BY id',
  )
    .bind(bookingId)
    .all<{ status: string; to_check_in: string; to_check_out: string; due: number; refund: number }>()
    .then((r) => r.results);
const notify = (id: string) =>
  call('POST', '/api/payments/yookassa', {
    body: { type: 'notification', event: 'payment.succeeded', object: { id } },
  });
const payAtStandIn = async (id: string) =>
  expect((await fetch(`${yk.base}/_payments/${id}/succeed`, { method: 'POST' })).status).toBe(200);

/** A request the owner confirmed (no payment): its id and page token. */
async function confirmed(cookie: string, cabinId: number, checkIn: string, checkOut: string) {
  const booked = await jsonOf<Booked>(
    await call('POST', '/api/bookings', { body: validBooking(cabinId, { checkIn, checkOut }) }),
    201,
  );
  await jsonOf(await call('PUT', `/api/admin/bookings/${booked.id}`, { cookie, body: { status: 'confirmed' } }), 200);
  return { id: booked.id, token: booked.guestUrl.slice(3) };
}

/** A booking with 30 % prepaid through ЮKassa and confirmed by its notification. */
async function prepaid(cabinId: number, checkIn: string, checkOut: string, more: Record<string, unknown> = {}) {
  const booked = await jsonOf<Booked>(
    await call('POST', '/api/bookings', { body: validBooking(cabinId, { checkIn, checkOut, ...more }) }),
    201,
  );
  const [prepayment] = await paymentRows(booked.id);
  await payAtStandIn(prepayment!.id);
  await jsonOf(await notify(prepayment!.id), 200);
  return { id: booked.id, token: booked.guestUrl.slice(3), prepayment: prepayment! };
}

describe('a guest moves the dates of their stay', () => {
  it('should price the new dates, move a stay of the same price at once and free the old nights', async () => {
    const cookie = await login();
    const cabin = await seedCabin({ pricePerNight: 5000 });
    const { token } = await confirmed(cookie, cabin.id, day(30), day(33));
    expect((await page(token)).change).toMatchObject({ allowed: true, until: day(27) });

    const priced = await jsonOf<Quote>(await quote(token, { checkIn: day(32), checkOut: day(35) }), 200);
    expect(priced).toMatchObject({ quote: { nights: 3, total: 15000 }, difference: 0, due: 0, refund: 0 });

    const moved = await jsonOf<Moved>(await move(token, { checkIn: day(32), checkOut: day(35) }), 200);
    expect(moved).toMatchObject({ status: 'confirmed', checkIn: day(32), checkOut: day(35), refunded: 0 });
    expect(await page(token)).toMatchObject({ status: 'confirmed', checkIn: day(32), checkOut: day(35), total: 15000 });
    // The old nights are free, the new ones busy: the calendar, search, iCal and Avito read the same.
    expect(await busy(cabin.id)).toEqual([expect.objectContaining({ start: day(32), end: day(35) })]);
  });

  it('should hold the new nights while the guest pays the difference, then move the booking once paid', async () => {
    const cookie = await login();
    await prepaymentOn(cookie, { percent: 30, holdMinutes: 30 });
    const cabin = await seedCabin({ pricePerNight: 5000 });
    const { id, token, prepayment } = await prepaid(cabin.id, day(30), day(33));

    // Two days later and one night longer: 5 000 ₽ more.
    const priced = await jsonOf<Quote>(await quote(token, { checkIn: day(32), checkOut: day(36) }), 200);
    expect(priced).toMatchObject({ quote: { nights: 4, total: 20000 }, difference: 5000, due: 500000, refund: 0 });
    const started = await jsonOf<Moved>(await move(token, { checkIn: day(32), checkOut: day(36) }), 200);
    expect(started).toMatchObject({ status: 'awaiting_payment', due: 500000 });
    const changeId = paymentIdOf(started.confirmationUrl);
    const made = (await readLog(yk.base)).payments.find((p) => p.id === changeId);
    expect(made).toMatchObject({
      amount: { value: '5000.00' },
      description: `Доплата за перенос дат, бронирование №${id}`,
    });

    // While it is paid: the old nights are still the guest's, the new ones held for them.
    const held = await page(token);
    expect(held).toMatchObject({
      checkIn: day(30),
      checkOut: day(33),
      change: { allowed: false, pending: { checkIn: day(32), due: 500000 } },
    });
    expect(await busy(cabin.id)).toEqual([expect.objectContaining({ start: day(30), end: day(36) })]);
    // Another guest cannot take the held nights meanwhile.
    await expectError(
      await call('POST', '/api/bookings', { body: validBooking(cabin.id, { checkIn: day(34), checkOut: day(37) }) }),
      409,
    );
    // A second tap on the same dates gives the same payment page; other dates wait for this one.
    expect(await jsonOf<Moved>(await move(token, { checkIn: day(32), checkOut: day(36) }), 200)).toMatchObject({
      confirmationUrl: started.confirmationUrl,
    });
    await expectError(await move(token, { checkIn: day(40), checkOut: day(43) }), 409);

    await payAtStandIn(changeId);
    await jsonOf(await notify(changeId), 200);
    const after = await page(token);
    expect(after).toMatchObject({ status: 'confirmed', checkIn: day(32), checkOut: day(36), total: 20000 });
    // Paid: the 30 % prepayment and the difference.
    expect(after.paid).toBe(prepayment.amount + 500000);
    expect(after.due).toBe(2000000 - prepayment.amount - 500000);
    expect(await busy(cabin.id)).toEqual([expect.objectContaining({ start: day(32), end: day(36) })]);
    expect((await changeRows(id)).map((c) => c.status)).toEqual(['applied']);
  });

  it('should leave the old dates as they were when the difference is not paid in time, and give back a payment that comes too late', async () => {
    const cookie = await login();
    await prepaymentOn(cookie, { percent: 30, holdMinutes: 15 });
    const cabin = await seedCabin({ pricePerNight: 4000 });
    const { id, token } = await prepaid(cabin.id, day(20), day(22));
    const started = await jsonOf<Moved>(await move(token, { checkIn: day(25), checkOut: day(28) }), 200);
    const changeId = paymentIdOf(started.confirmationUrl);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 16 * 60_000);
    expect(await busy(cabin.id)).toEqual([expect.objectContaining({ start: day(20), end: day(22) })]);
    const stood = await page(token);
    expect(stood).toMatchObject({ checkIn: day(20), checkOut: day(22), change: { allowed: true } });
    expect(stood.change?.pending).toBeUndefined();

    // The guest paid on ЮKassa's page after all: it goes back by itself, the dates stay.
    await payAtStandIn(changeId);
    await jsonOf(await notify(changeId), 200);
    expect(await page(token)).toMatchObject({ checkIn: day(20), checkOut: day(22), total: 8000 });
    expect((await paymentRows(id)).find((p) => p.id === changeId)).toMatchObject({
      status: 'succeeded',
      refund_amount: 400000,
      refund_reason: 'late',
    });
    expect((await readLog(yk.base)).calls.some((c) => c.path === '/refunds' && c.paymentId === changeId)).toBe(true);
    expect((await changeRows(id)).map((c) => c.status)).toEqual(['expired']);
  });

  it('should give back what was paid over a cheaper stay while cancelling is free, through ЮKassa', async () => {
    const cookie = await login();
    await prepaymentOn(cookie, { percent: 100, holdMinutes: 30, cancellation: { freeUntilDays: 7, keepPercent: 50 } });
    const cabin = await seedCabin({ pricePerNight: 5000 });
    const { id, token, prepayment } = await prepaid(cabin.id, day(30), day(34));
    expect(prepayment.amount).toBe(2000000);
    const priced = await jsonOf<Quote>(await quote(token, { checkIn: day(30), checkOut: day(32) }), 200);
    expect(priced).toMatchObject({ difference: -10000, due: 0, refund: 1000000 });
    const moved = await jsonOf<Moved>(await move(token, { checkIn: day(30), checkOut: day(32) }), 200);
    expect(moved).toMatchObject({ status: 'confirmed', refunded: 1000000 });
    const after = await page(token);
    expect(after).toMatchObject({ checkOut: day(32), total: 10000, paid: 1000000, due: 0 });
    expect((await paymentRows(id))[0]).toMatchObject({ refund_amount: 1000000, refund_reason: 'change' });
    const refund = (await readLog(yk.base)).calls.find((c) => c.path === '/refunds' && c.paymentId === prepayment.id);
    expect(refund).toMatchObject({ amount: '10000.00' });
  });

  it('should keep the policy’s share of the price given up once cancelling is no longer free', async () => {
    const cookie = await login();
    await prepaymentOn(cookie, { percent: 100, holdMinutes: 30, cancellation: { freeUntilDays: 14, keepPercent: 50 } });
    const cabin = await seedCabin({ pricePerNight: 5000 });
    const { token } = await prepaid(cabin.id, day(10), day(14));
    // 2 nights given up (10 000 ₽): half of it is kept, half goes back.
    expect(await jsonOf<Quote>(await quote(token, { checkIn: day(10), checkOut: day(12) }), 200)).toMatchObject({
      difference: -10000,
      refund: 500000,
    });
  });

  it('should refuse moves outside the owner’s rules with the reason, changing nothing', async () => {
    const cookie = await login();
    const cabin = await seedCabin({ pricePerNight: 5000 });
    const other = await seedCabin({ pricePerNight: 5000, name: 'Второй домик' });
    const soon = await confirmed(cookie, cabin.id, day(2), day(4));
    await expectNoChange(async () => {
      await expectError(
        await move(soon.token, { checkIn: day(5), checkOut: day(7) }),
        400,
        CHANGE_MSG.tooLate.replace('{date}', formatDate(day(-1))),
      );
    });
    const today = await confirmed(cookie, cabin.id, day(0), day(1));
    await expectError(await move(today.token, { checkIn: day(8), checkOut: day(9) }), 400, CHANGE_MSG.arrived);

    const later = await confirmed(cookie, cabin.id, day(40), day(42));
    await expectError(await move(later.token, { checkIn: day(40), checkOut: day(42) }), 400, CHANGE_MSG.sameStay);
    await expectError(
      await move(later.token, { checkIn: day(50), checkOut: day(52), cabinId: other.id }),
      400,
      CHANGE_MSG.sameCabinOnly,
    );
    await expectError(await move(later.token, { checkIn: day(-3), checkOut: day(2) }), 400, MSG.bookingCheckInPast);
    await expectError(await move(later.token, { checkIn: day(45), checkOut: day(44) }), 400);
    // Busy nights: 409.
    await confirmed(cookie, cabin.id, day(60), day(63));
    await expectError(await move(later.token, { checkIn: day(61), checkOut: day(62) }), 409, CHANGE_MSG.taken);
    await expectError(await quote(later.token, { checkIn: day(61), checkOut: day(62) }), 409, CHANGE_MSG.taken);

    // A request not yet confirmed is not moved by the guest.
    const request = await jsonOf<Booked>(
      await call('POST', '/api/bookings', { body: validBooking(cabin.id, { checkIn: day(70), checkOut: day(72) }) }),
      201,
    );
    await expectError(
      await move(request.guestUrl.slice(3), { checkIn: day(74), checkOut: day(76) }),
      400,
      CHANGE_MSG.notConfirmed,
    );

    // Where the owner allows any cabin, another free one is priced by its own rules.
    await settings(cookie, { changes: { allowedUntilDays: 3, anyCabin: true } });
    const moved = await jsonOf<Moved>(
      await move(later.token, { checkIn: day(40), checkOut: day(42), cabinId: other.id }),
      200,
    );
    expect(moved.status).toBe('confirmed');
    expect((await page(later.token)).cabin.id).toBe(other.id);
    expect(await busy(cabin.id)).not.toContainEqual(expect.objectContaining({ start: day(40) }));
  });

  it('should offer the cabins that take the party and move the stay to another free one: its nights, its price, its cleaning', async () => {
    const cookie = await login();
    const own = await seedCabin({ name: 'Домик у моря', pricePerNight: 5000 });
    const other = await seedCabin({ name: 'Лесной', pricePerNight: 4000 });
    await seedCabin({ name: 'Для одного', pricePerNight: 3000, maxGuests: 1 });
    await seedCabin({ name: 'Скрытый', pricePerNight: 3000, active: false });
    const { id, token } = await confirmed(cookie, own.id, day(30), day(33));
    // Only where the owner allows another cabin.
    expect((await page(token)).change?.cabins).toBeUndefined();
    await settings(cookie, { changes: { allowedUntilDays: 3, anyCabin: true } });
    expect((await page(token)).change?.cabins).toEqual([
      { id: own.id, name: 'Домик у моря' },
      { id: other.id, name: 'Лесной' },
    ]);
    // The departure's cleaning, written when «Сегодня» reads the day.
    const tasksOn = async (d: string) =>
      jsonOf<{ id: number; cabinId: number; bookingId: number | null }[]>(
        await call('GET', `/api/admin/tasks?from=${d}&to=${d}`, { cookie }),
        200,
      );
    const [cleaning] = await tasksOn(day(33));
    expect(cleaning).toMatchObject({ cabinId: own.id, bookingId: id });

    const priced = await jsonOf<Quote & { cabin: { id: number; name: string } }>(
      await quote(token, { checkIn: day(30), checkOut: day(33), cabinId: String(other.id) }),
      200,
    );
    expect(priced).toMatchObject({ cabin: { id: other.id, name: 'Лесной' }, quote: { total: 12000 }, due: 0 });
    const moved = await jsonOf<Moved>(
      await move(token, { checkIn: day(30), checkOut: day(33), cabinId: other.id }),
      200,
    );
    expect(moved).toMatchObject({ status: 'confirmed', checkIn: day(30), checkOut: day(33) });
    expect(await page(token)).toMatchObject({ cabin: { id: other.id, name: 'Лесной' }, total: 12000 });
    // The old cabin's nights are free for others, the new one's taken; the cleaning went with the guest.
    expect(await busy(own.id)).toEqual([]);
    expect(await busy(other.id)).toEqual([expect.objectContaining({ start: day(30), end: day(33) })]);
    expect(await tasksOn(day(33))).toEqual([expect.objectContaining({ id: cleaning!.id, cabinId: other.id })]);
    // Another guest may now have the old cabin's nights.
    await confirmed(cookie, own.id, day(30), day(33));
    // Taken nights of another cabin: the same refusal as for the own one, nothing moved.
    await confirmed(cookie, own.id, day(40), day(43));
    await expectNoChange(async () => {
      await expectError(
        await quote(token, { checkIn: day(41), checkOut: day(43), cabinId: String(own.id) }),
        409,
        CHANGE_MSG.taken,
      );
      await expectError(
        await move(token, { checkIn: day(40), checkOut: day(42), cabinId: own.id }),
        409,
        CHANGE_MSG.taken,
      );
    });
  });

  it('should keep the early check-in the new stay has, and drop the one the new cabin does not offer', async () => {
    const cookie = await login();
    await prepaymentOn(cookie, { percent: 30, holdMinutes: 30, changes: { allowedUntilDays: 3, anyCabin: true } });
    const own = await seedCabin({ pricePerNight: 5000 });
    const other = await seedCabin({ pricePerNight: 8000, name: 'Большой дом' });
    const { extras } = await jsonOf<{ extras: { id: number }[] }>(
      await call('PUT', '/api/admin/pricing', {
        cookie,
        body: {
          discounts: [],
          extras: [
            {
              name: 'Ранний заезд с 10:00',
              price: 1500,
              per: 'stay',
              kind: 'earlyCheckIn',
              time: '10:00',
              cabinIds: [own.id],
            },
          ],
        },
      }),
      200,
    );
    const { token } = await prepaid(own.id, day(30), day(33), { extras: [extras[0]!.id] });
    type Hours = { checkInTime: string; total: number; lines: { label: string }[]; cabin: { id: number } };
    const hours = async () => jsonOf<Hours>(await call('GET', `/api/guest/${token}`), 200);
    const standard = (await jsonOf<{ checkInTime: string }>(await call('GET', '/api/settings'), 200)).checkInTime;
    expect(await hours()).toMatchObject({ checkInTime: '10:00', total: 16500 });

    // The same cabin, the same price: moved at once, the early check-in with it.
    await jsonOf(await move(token, { checkIn: day(40), checkOut: day(43) }), 200);
    expect(await hours()).toMatchObject({ checkInTime: '10:00', total: 16500 });

    // A dearer cabin without an early check-in: once the difference is paid, the hour is the settings' again.
    const started = await jsonOf<Moved>(
      await move(token, { checkIn: day(50), checkOut: day(53), cabinId: other.id }),
      200,
    );
    expect(started).toMatchObject({ status: 'awaiting_payment', due: (24000 - 16500) * 100 });
    const changeId = paymentIdOf(started.confirmationUrl);
    await payAtStandIn(changeId);
    await jsonOf(await notify(changeId), 200);
    const after = await hours();
    expect(after).toMatchObject({ cabin: { id: other.id }, checkInTime: standard, total: 24000 });
    expect(after.lines.map((l) => l.label)).not.toContain('Ранний заезд с 10:00');
    expect(standard).not.toBe('10:00');
  });

  it('should let exactly one of a move to another cabin and bookings of that cabin’s nights have them', async () => {
    const cookie = await login();
    // New bookings held for payment take their nights at once, as the move does.
    await prepaymentOn(cookie, { percent: 30, holdMinutes: 30, changes: { allowedUntilDays: 3, anyCabin: true } });
    const own = await seedCabin({ pricePerNight: 5000 });
    const other = await seedCabin({ pricePerNight: 5000, name: 'Второй домик' });
    const { id, token } = await prepaid(own.id, day(30), day(32));
    const results = await Promise.all([
      call('POST', '/api/bookings', { body: validBooking(other.id, { checkIn: day(50), checkOut: day(52) }) }),
      move(token, { checkIn: day(50), checkOut: day(52), cabinId: other.id }),
      call('POST', '/api/bookings', { body: validBooking(other.id, { checkIn: day(51), checkOut: day(53) }) }),
    ]);
    expect(results.filter((r) => r.status === 200 || r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(2);
    const won = results[1]!.status === 200;
    // The second cabin's nights of [50, 53) are one stay's; the first keeps the guest's only if they lost.
    expect((await busy(other.id)).filter((s) => s.start < day(53) && s.end > day(50))).toHaveLength(1);
    expect(await busy(own.id)).toEqual(won ? [] : [expect.objectContaining({ start: day(30), end: day(32) })]);
    expect((await page(token)).cabin.id).toBe(won ? other.id : own.id);
    expect((await changeRows(id)).map((c) => c.status)).toEqual(won ? ['applied'] : []);
  });

  it('should let exactly one of two guests racing with four moves for the same nights have them', async () => {
    const cookie = await login();
    const cabin = await seedCabin({ pricePerNight: 5000 });
    const a = await confirmed(cookie, cabin.id, day(30), day(32));
    const b = await confirmed(cookie, cabin.id, day(40), day(42));
    const results = await Promise.all([
      move(a.token, { checkIn: day(50), checkOut: day(52) }),
      move(b.token, { checkIn: day(50), checkOut: day(52) }),
      move(a.token, { checkIn: day(51), checkOut: day(53) }),
      move(b.token, { checkIn: day(49), checkOut: day(51) }),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(3);
    // The nights of [49, 53) are one stay's, never two.
    const stays = await busy(cabin.id);
    const inRange = stays.filter((s) => s.start < day(53) && s.end > day(49));
    expect(inRange).toHaveLength(1);
    expect(stays).toHaveLength(2);
  });

  it('should let exactly one of a guest’s move and new bookings held for payment have the same nights', async () => {
    const cookie = await login();
    await prepaymentOn(cookie, { percent: 30, holdMinutes: 30 });
    const cabin = await seedCabin({ pricePerNight: 5000 });
    const { id, token } = await prepaid(cabin.id, day(30), day(32));
    const results = await Promise.all([
      call('POST', '/api/bookings', { body: validBooking(cabin.id, { checkIn: day(50), checkOut: day(52) }) }),
      move(token, { checkIn: day(50), checkOut: day(52) }),
      call('POST', '/api/bookings', { body: validBooking(cabin.id, { checkIn: day(51), checkOut: day(53) }) }),
    ]);
    const won = results.filter((r) => r.status === 200 || r.status === 201);
    expect(won).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(2);
    // The nights of [50, 53) are one stay's: the moved booking's or one new hold's, never both.
    const stays = await busy(cabin.id);
    expect(stays.filter((s) => s.start < day(53) && s.end > day(50))).toHaveLength(1);
    const moved = (await page(token)).checkIn === day(50);
    expect(moved).toBe(results[1]!.status === 200);
    expect((await changeRows(id)).map((c) => c.status)).toEqual(moved ? ['applied'] : []);
  });

  it('should move the booking once when ЮKassa’s notifications and page reads race the paid difference', async () => {
    const cookie = await login();
    await prepaymentOn(cookie, { percent: 30, holdMinutes: 30 });
    const cabin = await seedCabin({ pricePerNight: 5000 });
    const { id, token } = await prepaid(cabin.id, day(30), day(32));
    const started = await jsonOf<Moved>(await move(token, { checkIn: day(31), checkOut: day(34) }), 200);
    const changeId = paymentIdOf(started.confirmationUrl);
    await payAtStandIn(changeId);
    const results = await Promise.all([
      notify(changeId),
      call('GET', `/api/guest/${token}`),
      notify(changeId),
      call('GET', `/api/guest/${token}`),
      notify(changeId),
      notify(changeId),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect((await changeRows(id)).map((c) => c.status)).toEqual(['applied']);
    const change = (await paymentRows(id)).find((p) => p.id === changeId);
    expect(change).toMatchObject({ status: 'succeeded', refund_amount: null });
    expect(await page(token)).toMatchObject({ checkIn: day(31), checkOut: day(34), total: 15000 });
    expect(await busy(cabin.id)).toEqual([expect.objectContaining({ start: day(31), end: day(34) })]);
  });
});
