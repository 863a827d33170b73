import { env } from 'cloudflare:test';
import type { InferResponseType } from 'hono/client';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import { EARLY_LATE_MESSAGES } from '../../schema/pricing.ts';
import {
  answerOf,
  callWith,
  client,
  expectError,
  expectNoChange,
  jsonOf,
  jsonRequest,
  login,
  resetDataWithAdmin,
  seedCabin,
  send,
  validBooking,
  type Api,
  type Booked,
} from './helpers.ts';
import { block, booking, feedEvent } from './stays.ts';
import { SHOP } from './yookassa-shop.ts';

// An early check-in and a late check-out (docs/api.md «Pricing»), on both runtimes: extras the
// owner sets with an hour, offered by the quote only when the night before the check-in, or the
// check-out's night, is free; a booking with one ticked beside a busy night is refused 409 with
// the reason; and the night it keeps, once booked, is busy for everyone else, even when both
// bookings come at once.

beforeEach(resetDataWithAdmin);
// Bursts of bookings at once are slow on a loaded machine: room to finish.
vi.setConfig({ testTimeout: 30_000 });

const day = (n: number) => addDays(todayInMoscow(), n);
type QuoteAnswer = InferResponseType<Api['quote']['$get'], 200>;
type PricingAnswer = InferResponseType<Api['admin']['pricing']['$put'], 200>;

const quote = (q: Record<string, string | number>) =>
  send('GET', `/api/quote?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`);
async function okQuote(q: Record<string, string | number>): Promise<QuoteAnswer> {
  return jsonOf<QuoteAnswer>(await quote(q), 200);
}

/** The owner's extras: an early check-in from 10:00 for 1 500 ₽, a late check-out to 18:00 for 1 000 ₽, a баня. */
async function ownerSetsExtras(cookie: string) {
  const res = await jsonRequest(
    'PUT',
    '/api/admin/pricing',
    {
      discounts: [],
      extras: [
        { name: 'Ранний заезд с 10:00', price: 1500, per: 'stay', kind: 'earlyCheckIn', time: '10:00' },
        { name: 'Поздний выезд до 18:00', price: 1000, per: 'stay', kind: 'lateCheckOut', time: '18:00' },
        { name: 'Баня', price: 2000, per: 'stay' },
      ],
    },
    { cookie },
  );
  const { extras } = await jsonOf<PricingAnswer>(res, 200);
  expect(extras.map((e) => [e.kind, e.time])).toEqual([
    ['earlyCheckIn', '10:00'],
    ['lateCheckOut', '18:00'],
    ['ordinary', null],
  ]);
  return { early: extras[0]!.id, late: extras[1]!.id, banya: extras[2]!.id };
}

/** A stay of 3 nights from `from` days ahead, and the quote's query for it with these extras ticked. */
const stayAt = (from: number) => ({ checkIn: day(from), checkOut: day(from + 3) });
const ask = (cabinId: number, from: number, extras: number[]) => ({
  cabinId,
  ...stayAt(from),
  guests: 2,
  extras: extras.join(','),
});

const rowOf = (id: number) =>
  env.DB.prepare('SELECT status, early_check_in AS early, late_check_out AS late FROM bookings WHERE id = ?')
    .bind(id)
    .first<{ status: string; early: string | null; late: string | null }>();
const busyOf = async (cabinId: number) =>
  (
    await jsonOf<{ busy: { start: string; end: string }[] }>(
      await send('GET', `/api/cabins/${cabinId}/availability`),
      200,
    )
  ).busy;

describe('the quote offers them only beside a free night', () => {
  it('should price both with free neighbours, and keep their hours on the booking, the owner’s card and the guest’s page', async () => {
    const cookie = await login();
    const cabin = await seedCabin({ pricePerNight: 5000 });
    const { early, late, banya } = await ownerSetsExtras(cookie);
    const plain = await okQuote(ask(cabin.id, 40, []));
    expect(plain.withheld).toEqual([]);
    const q = await okQuote(ask(cabin.id, 40, [early, late, banya]));
    expect(q.extras).toEqual([early, late, banya]);
    expect(q.total).toBe(plain.total + 1500 + 1000 + 2000);
    expect(q.lines.filter((l) => l.kind === 'extra')).toEqual([
      { kind: 'extra', label: 'Ранний заезд с 10:00', amount: 1500 },
      { kind: 'extra', label: 'Поздний выезд до 18:00', amount: 1000 },
      { kind: 'extra', label: 'Баня', amount: 2000 },
    ]);

    const made = await jsonOf<Booked>(
      await jsonRequest('POST', '/api/bookings', validBooking(cabin.id, { ...stayAt(40), extras: [early, late] })),
      201,
    );
    expect(made.total).toBe(plain.total + 2500);
    expect(await rowOf(made.id)).toEqual({ status: 'new', early: '10:00', late: '18:00' });
    const list = await answerOf(await client({ cookie }).api.admin.bookings.$get({ query: {} }), 200);
    expect(list.find((b) => b.id === made.id)).toMatchObject({ earlyCheckIn: '10:00', lateCheckOut: '18:00' });
    const page = await jsonOf(await send('GET', `/api/guest/${made.guestUrl.slice(3)}`), 200);
    expect(page).toMatchObject({ checkInTime: '10:00', checkOutTime: '18:00' });
    // Confirmed, «Сегодня» of its arrival day says the early hour, and of its departure day the late one.
    expect(
      (await jsonRequest('PUT', `/api/admin/bookings/${made.id}`, { status: 'confirmed' }, { cookie })).status,
    ).toBe(200);
    const { checkIn, checkOut } = stayAt(40);
    type Day = { arrivals: { id: number; checkInTime: string }[]; departures: { id: number; checkOutTime: string }[] };
    const arrival = await jsonOf<Day>(await send('GET', `/api/admin/today?date=${checkIn}`, { cookie }), 200);
    expect(arrival.arrivals.find((a) => a.id === made.id)).toMatchObject({ checkInTime: '10:00' });
    const departure = await jsonOf<Day>(await send('GET', `/api/admin/today?date=${checkOut}`, { cookie }), 200);
    expect(departure.departures.find((a) => a.id === made.id)).toMatchObject({ checkOutTime: '18:00' });

    // Without them, the settings' hours.
    const other = await jsonOf<Booked>(
      await jsonRequest('POST', '/api/bookings', validBooking(cabin.id, { ...stayAt(50), extras: [banya] })),
      201,
    );
    expect(await rowOf(other.id)).toEqual({ status: 'new', early: null, late: null });
    expect(await jsonOf(await send('GET', `/api/guest/${other.guestUrl.slice(3)}`), 200)).toMatchObject({
      checkInTime: '14:00',
      checkOutTime: '12:00',
    });
  });

  it.each([
    ['a confirmed booking', 'booking'],
    ['a night closed by hand', 'block'],
    ['an imported event', 'feed'],
    ['a stay read from Avito', 'avito'],
  ] as const)(
    'should leave the early check-in out when %s takes the night before, and the late check-out when it takes the check-out’s night',
    async (_, source) => {
      const cookie = await login();
      const cabin = await seedCabin({ pricePerNight: 5000 });
      const { early, late, banya } = await ownerSetsExtras(cookie);
      const { checkIn, checkOut } = stayAt(40);
      const take = async (start: string, end: string) => {
        if (source === 'booking') await booking(cookie, cabin.id, start, end);
        else if (source === 'block') await block(cookie, cabin.id, start, end);
        else if (source === 'feed') await feedEvent(cabin.id, start, end);
        else
          await env.DB.prepare(
            `INSERT INTO channel_stays (cabin_id, channel, external_id, start, "end", guests, price, status, guest_name, updated_at)
           VALUES (?, 'avito', ?, ?, ?, 2, 10000, 'active', 'Гость Авито', '2026-01-01T00:00:00.000Z')`,
          )
            .bind(cabin.id, `av-${start}`, start, end)
            .run();
      };
      // The night before the check-in: the early check-in goes, the late one stays.
      await take(addDays(checkIn, -2), checkIn);
      const before = await okQuote(ask(cabin.id, 40, [early, late, banya]));
      expect(before.extras).toEqual([late, banya]);
      expect(before.withheld).toEqual([{ id: early, reason: EARLY_LATE_MESSAGES.earlyCheckIn }]);
      expect(before.lines.some((l) => l.label.startsWith('Ранний'))).toBe(false);
      // The check-out's night too: both go, and the price is the one without them.
      await take(checkOut, addDays(checkOut, 2));
      const both = await okQuote(ask(cabin.id, 40, [early, late, banya]));
      expect(both.extras).toEqual([banya]);
      expect(both.withheld).toEqual([
        { id: early, reason: EARLY_LATE_MESSAGES.earlyCheckIn },
        { id: late, reason: EARLY_LATE_MESSAGES.lateCheckOut },
      ]);
      expect(both.total).toBe((await okQuote(ask(cabin.id, 40, [banya]))).total);
      // A night further off takes neither.
      const further = await okQuote(ask(cabin.id, 50, [early, late]));
      expect(further).toMatchObject({ extras: [early, late], withheld: [] });
    },
  );

  it('should refuse POST /bookings with an early check-in beside a busy night 409 with the reason, and change nothing', async () => {
    const cookie = await login();
    const cabin = await seedCabin();
    const { early, late, banya } = await ownerSetsExtras(cookie);
    const { checkIn, checkOut } = stayAt(40);
    await block(cookie, cabin.id, addDays(checkIn, -1), checkIn);
    await block(cookie, cabin.id, checkOut, addDays(checkOut, 1));
    await expectNoChange(async () => {
      await expectError(
        await jsonRequest(
          'POST',
          '/api/bookings',
          validBooking(cabin.id, { checkIn, checkOut, extras: [early, banya] }),
        ),
        409,
        EARLY_LATE_MESSAGES.earlyCheckIn,
      );
      await expectError(
        await jsonRequest('POST', '/api/bookings', validBooking(cabin.id, { checkIn, checkOut, extras: [late] })),
        409,
        EARLY_LATE_MESSAGES.lateCheckOut,
      );
    });
    // Without them the same stay is booked.
    expect(
      (await jsonRequest('POST', '/api/bookings', validBooking(cabin.id, { checkIn, checkOut, extras: [banya] })))
        .status,
    ).toBe(201);
  });
});

describe('the night an early check-in or a late check-out keeps', () => {
  it('should show the night before a confirmed early check-in busy, and refuse a booking of it', async () => {
    const cookie = await login();
    const cabin = await seedCabin();
    const { early, late } = await ownerSetsExtras(cookie);
    const { checkIn, checkOut } = stayAt(40);
    const made = await jsonOf<Booked>(
      await jsonRequest('POST', '/api/bookings', validBooking(cabin.id, { checkIn, checkOut, extras: [early, late] })),
      201,
    );
    expect(
      (await jsonRequest('PUT', `/api/admin/bookings/${made.id}`, { status: 'confirmed' }, { cookie })).status,
    ).toBe(200);
    expect(await busyOf(cabin.id)).toEqual([{ start: addDays(checkIn, -1), end: addDays(checkOut, 1) }]);
    for (const [start, end] of [
      [addDays(checkIn, -3), checkIn],
      [checkOut, addDays(checkOut, 2)],
    ] as const)
      await expectError(
        await jsonRequest('POST', '/api/bookings', validBooking(cabin.id, { checkIn: start, checkOut: end })),
        409,
        MSG.bookingNotFree,
      );
    // Up to the morning before: a stay that leaves the day before the early one's night is free.
    expect(
      (
        await jsonRequest(
          'POST',
          '/api/bookings',
          validBooking(cabin.id, { checkIn: addDays(checkIn, -4), checkOut: addDays(checkIn, -1) }),
        )
      ).status,
    ).toBe(201);
  });

  it('should confirm only one of an early check-in and a booking of the night before, confirmed at once', async () => {
    const cookie = await login();
    const { early, late } = await ownerSetsExtras(cookie);
    // Five cabins, each with both pairs of requests, all confirmed at once.
    const cabins = await Promise.all(Array.from({ length: 5 }, (_, i) => seedCabin({ name: `Домик ${i}` })));
    const pairs = await Promise.all(
      cabins.map(async (cabin) => {
        const { checkIn, checkOut } = stayAt(40);
        const post = async (body: Record<string, unknown>) =>
          (await jsonOf<Booked>(await jsonRequest('POST', '/api/bookings', validBooking(cabin.id, body)), 201)).id;
        return {
          cabin: cabin.id,
          early: await post({ checkIn, checkOut, extras: [early] }),
          before: await post({ checkIn: addDays(checkIn, -2), checkOut: checkIn }),
          late: await post({ checkIn: addDays(checkOut, 10), checkOut: addDays(checkOut, 12), extras: [late] }),
          after: await post({ checkIn: addDays(checkOut, 12), checkOut: addDays(checkOut, 14) }),
        };
      }),
    );
    const ids = pairs.flatMap((p) => [p.early, p.before, p.late, p.after]);
    const answers = await Promise.all(
      ids.map((id) => jsonRequest('PUT', `/api/admin/bookings/${id}`, { status: 'confirmed' }, { cookie })),
    );
    const status = new Map(ids.map((id, i) => [id, answers[i]!.status]));
    for (const p of pairs) {
      for (const [mine, theirs] of [
        [p.early, p.before],
        [p.late, p.after],
      ] as const) {
        expect([status.get(mine), status.get(theirs)].sort()).toEqual([200, 409]);
        const rows = [await rowOf(mine), await rowOf(theirs)];
        expect(rows.filter((r) => r!.status === 'confirmed')).toHaveLength(1);
      }
    }
  });

  it('should hold only one of an early check-in and a booking of the night before, sent at once with prepayment', async () => {
    const cookie = await login();
    const call = callWith(SHOP);
    const { early, late } = await ownerSetsExtras(cookie);
    await jsonOf(
      await call('PUT', '/api/settings', {
        cookie,
        body: { bookingMode: 'prepayment', prepayment: { kind: 'percent', percent: 30 }, holdMinutes: 30 },
      }),
      200,
    );
    const cabins = await Promise.all(Array.from({ length: 4 }, (_, i) => seedCabin({ name: `Домик ${i}` })));
    const { checkIn, checkOut } = stayAt(40);
    const book = (cabinId: number, body: Record<string, unknown>) =>
      call('POST', '/api/bookings', { body: validBooking(cabinId, body) });
    const answers = await Promise.all(
      cabins.flatMap((cabin) => [
        book(cabin.id, { checkIn, checkOut, extras: [early] }),
        book(cabin.id, { checkIn: addDays(checkIn, -2), checkOut: checkIn }),
        book(cabin.id, { checkIn: addDays(checkOut, 10), checkOut: addDays(checkOut, 12), extras: [late] }),
        book(cabin.id, { checkIn: addDays(checkOut, 12), checkOut: addDays(checkOut, 14) }),
      ]),
    );
    const refusals = new Set([MSG.bookingNotFree, EARLY_LATE_MESSAGES.earlyCheckIn, EARLY_LATE_MESSAGES.lateCheckOut]);
    for (let i = 0; i < answers.length; i += 2) {
      const pair = [answers[i]!, answers[i + 1]!];
      expect(pair.map((r) => r.status).sort()).toEqual([201, 409]);
      const refused = pair.find((r) => r.status === 409)!;
      expect(refusals.has(((await refused.json()) as { error: string }).error)).toBe(true);
    }
    // Stored: one hold of each pair, never both.
    const held = await env.DB.prepare(
      "SELECT cabin_id AS cabin, count(*) AS n FROM bookings WHERE status = 'awaiting_payment' GROUP BY cabin_id",
    ).all<{ cabin: number; n: number }>();
    expect(held.results.map((r) => r.n)).toEqual(cabins.map(() => 2));
    expect((await env.DB.prepare('SELECT count(*) AS n FROM bookings').first<{ n: number }>())!.n).toBe(
      cabins.length * 2,
    );
  });
});

describe('the owner sets them: PUT /api/admin/pricing', () => {
  it.each([
    ['a kind of its own', { kind: 'breakfast', time: '10:00' }, `Услуга 1: ${MSG.extraKindInvalid}`],
    ['an early check-in without its hour', { kind: 'earlyCheckIn' }, `Услуга 1: ${MSG.extraTimeInvalid}`],
    ['a late check-out at 25:00', { kind: 'lateCheckOut', time: '25:00' }, `Услуга 1: ${MSG.extraTimeInvalid}`],
    [
      'a mandatory early check-in',
      { kind: 'earlyCheckIn', time: '10:00', mandatory: true },
      `Услуга 1: ${MSG.extraEarlyLateMandatory}`,
    ],
  ])('should refuse %s with a clear error, and change nothing', async (_, over, message) => {
    const cookie = await login();
    await expectNoChange(async () =>
      expectError(
        await jsonRequest(
          'PUT',
          '/api/admin/pricing',
          { discounts: [], extras: [{ name: 'Ранний заезд', price: 1500, per: 'stay', ...over }] },
          { cookie },
        ),
        400,
        message,
      ),
    );
  });

  it('should keep an ordinary extra without an hour, whatever hour is sent', async () => {
    const cookie = await login();
    const res = await jsonRequest(
      'PUT',
      '/api/admin/pricing',
      { discounts: [], extras: [{ name: 'Баня', price: 2000, per: 'stay', time: '10:00' }] },
      { cookie },
    );
    expect((await jsonOf<PricingAnswer>(res, 200)).extras[0]).toMatchObject({ kind: 'ordinary', time: null });
  });
});
