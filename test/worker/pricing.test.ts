import type { InferResponseType } from 'hono/client';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { addDays, isoWeekday, todayInMoscow } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import {
  expectError,
  expectNoChange,
  jsonRequest,
  login,
  resetDataWithAdmin,
  seedCabin,
  send,
  validBooking,
  answerOf,
  client,
  jsonOf,
  type Api,
  type Booked,
} from './helpers.ts';

// Prices the way owners sell (docs/api.md «Pricing»), on both runtimes: the owner's rules
// through the admin API, one price in the quote, search and the stored booking.

beforeEach(resetDataWithAdmin);

const day = (n: number) => addDays(todayInMoscow(), n);
/** The next Thursday at least `weeks` weeks ahead. */
function thursday(weeks: number) {
  let d = day(7 * weeks);
  while (isoWeekday(d) !== 4) d = addDays(d, 1);
  return d;
}
type QuoteAnswer = InferResponseType<Api['quote']['$get'], 200>;
type PricingAnswer = InferResponseType<Api['admin']['pricing']['$put'], 200>;

async function quote(q: Record<string, string | number>) {
  return send('GET', `/api/quote?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`);
}
async function okQuote(q: Record<string, string | number>): Promise<QuoteAnswer> {
  const res = await quote(q);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as QuoteAnswer;
}
/** The cabins a search finds, each with its price for the stay. */
async function search(checkIn: string, checkOut: string, guests: number) {
  const res = await client().api.search.$get({ query: { checkIn, checkOut, guests: String(guests) } });
  return answerOf(res, 200);
}
/** The owner's promo codes, with their uses. */
async function promoCodes(cookie: string) {
  return (await answerOf(await client({ cookie }).api.admin['promo-codes'].$get(), 200)).codes;
}
/** The owner's list of bookings. */
async function bookings(cookie: string) {
  return answerOf(await client({ cookie }).api.admin.bookings.$get({ query: {} }), 200);
}

/** The owner's setup of the issue's «Done when»: weekend price, extra-guest fee, a week's discount, a code and a баня at 2 000 ₽ a stay. */
async function ownerSetsPrices(cookie: string) {
  const cabin = await seedCabin({ pricePerNight: 5000, maxGuests: 6 });
  expect(
    (
      await jsonRequest(
        'PUT',
        `/api/cabins/${cabin.id}`,
        { weekendPricePerNight: 7000, baseGuests: 2, extraGuestPerNight: 500 },
        { cookie },
      )
    ).status,
  ).toBe(200);
  const pricing = await jsonRequest(
    'PUT',
    '/api/admin/pricing',
    {
      discounts: [{ kind: 'longStay', minNights: 7, percent: 10 }],
      extras: [{ name: 'Баня', price: 2000, per: 'stay', mandatory: false }],
    },
    { cookie },
  );
  const { extras } = await jsonOf<PricingAnswer>(pricing, 200);
  expect(
    (
      await jsonRequest(
        'PUT',
        '/api/admin/promo-codes',
        { codes: [{ code: 'leto', percent: 10, maxUses: 5 }] },
        { cookie },
      )
    ).status,
  ).toBe(200);
  return { cabin, banya: extras[0]!.id };
}

describe('prices: one price in the quote, search and the booking', () => {
  it('should price a Thursday-to-Sunday stay for 4 with the weekend, the extra guests, the баня and the code, the same everywhere', async () => {
    const cookie = await login();
    const { cabin, banya } = await ownerSetsPrices(cookie);
    const checkIn = thursday(3);
    const checkOut = addDays(checkIn, 3);
    const q = await okQuote({ cabinId: cabin.id, checkIn, checkOut, guests: 4, extras: String(banya), promo: 'leto' });
    expect(q.lines.map((l) => [l.kind, l.amount])).toEqual([
      ['nights', 5000],
      ['nights', 14000],
      ['extraGuests', 3000],
      ['promo', -2200],
      ['extra', 2000],
    ]);
    expect(q.total).toBe(21800);

    // Search prices the searched guests with the mandatory extras only: no баня, no code.
    const found = await search(checkIn, checkOut, 4);
    expect(found.results.find((r) => r.id === cabin.id)!.total).toBe(
      (await okQuote({ cabinId: cabin.id, checkIn, checkOut, guests: 4 })).total,
    );

    const booked = await jsonRequest(
      'POST',
      '/api/bookings',
      validBooking(cabin.id, { checkIn, checkOut, guests: 4, extras: [banya], promo: 'LETO' }),
    );
    expect(booked.status, await booked.clone().text()).toBe(201);
    const answer = (await booked.json()) as Booked;
    expect(answer.total).toBe(q.total);
    expect(answer.lines).toEqual(q.lines);
    const list = await bookings(cookie);
    expect(list.find((b) => b.id === answer.id)).toMatchObject({
      total: 21800,
      lines: q.lines,
      promoCode: 'LETO',
      extras: [banya],
    });
    const uses = () => promoCodes(cookie);
    // A request does not use the code up; the owner's confirmation does.
    expect(await uses()).toMatchObject([{ code: 'LETO', uses: 0 }]);
    expect(
      (await jsonRequest('PUT', `/api/admin/bookings/${answer.id}`, { status: 'confirmed' }, { cookie })).status,
    ).toBe(200);
    expect(await uses()).toMatchObject([{ code: 'LETO', uses: 1 }]);
  });

  it("should let a single date's price override the weekend and the season, and give the week's discount", async () => {
    const cookie = await login();
    const { cabin } = await ownerSetsPrices(cookie);
    const checkIn = thursday(4);
    expect(
      (
        await jsonRequest(
          'PUT',
          `/api/admin/cabins/${cabin.id}/date-prices`,
          { prices: [{ date: addDays(checkIn, 1), price: 15000 }] },
          { cookie },
        )
      ).status,
    ).toBe(200);
    const q = await okQuote({ cabinId: cabin.id, checkIn, checkOut: addDays(checkIn, 7), guests: 2 });
    // Thu 5 000, Fri 15 000 (its own date), Sat 7 000, Sun–Wed 4 × 5 000; 7 nights: −10 %.
    expect(q.lines).toContainEqual(expect.objectContaining({ kind: 'discount', amount: -4700 }));
    expect(q.total).toBe(42300);
  });

  it('should never trust a price sent by the browser', async () => {
    const cabin = await seedCabin({ pricePerNight: 5000 });
    await expectNoChange(async () =>
      expectError(await jsonRequest('POST', '/api/bookings', { ...validBooking(cabin.id), total: 1 }), 400),
    );
  });
});

describe('prices: promo codes', () => {
  it.each([
    ['an unknown code', 'NOPE', {}, MSG.promoNotFound],
    ['a code not yet valid', 'LATER', { validFrom: 60 }, MSG.promoNotYet],
    ['an expired code', 'OLD', { validTo: -1 }, MSG.promoExpired],
    ['a code for other stays', 'WINTER', { stayTo: 5 }, MSG.promoNotForDates],
    ['a code used up', 'ONCE', { maxUses: 1, used: true }, MSG.promoUsedUp],
  ])(
    'should refuse %s with the reason in Russian (400)',
    async (_, code, o: {
      validFrom?: number;
      validTo?: number;
      stayTo?: number;
      maxUses?: number;
      used?: boolean;
    }, message) => {
      const cookie = await login();
      const cabin = await seedCabin({ pricePerNight: 5000 });
      const codes =
        code === 'NOPE'
          ? []
          : [
              {
                code,
                percent: 10,
                validFrom: o.validFrom === undefined ? undefined : day(o.validFrom),
                validTo: o.validTo === undefined ? undefined : day(o.validTo),
                stayTo: o.stayTo === undefined ? undefined : day(o.stayTo),
                maxUses: o.maxUses,
              },
            ];
      expect((await jsonRequest('PUT', '/api/admin/promo-codes', { codes }, { cookie })).status).toBe(200);
      if (o.used) {
        const used = await jsonRequest(
          'POST',
          '/api/bookings',
          validBooking(cabin.id, { checkIn: day(40), checkOut: day(42), promo: code }),
        );
        expect(used.status).toBe(201);
        expect(
          (
            await jsonRequest(
              'PUT',
              `/api/admin/bookings/${((await used.json()) as Booked).id}`,
              { status: 'confirmed' },
              { cookie },
            )
          ).status,
        ).toBe(200);
      }
      const stay = { cabinId: cabin.id, checkIn: day(20), checkOut: day(23), guests: 2 };
      await expectError(await quote({ ...stay, promo: code }), 400, message);
      await expectNoChange(async () =>
        expectError(
          await jsonRequest(
            'POST',
            '/api/bookings',
            validBooking(cabin.id, { checkIn: stay.checkIn, checkOut: stay.checkOut, promo: code }),
          ),
          400,
          message,
        ),
      );
    },
  );

  it("should count a code's use when the owner confirms a request, so requests never confirmed do not use it up", async () => {
    const cookie = await login();
    const [a, b] = [await seedCabin(), await seedCabin()];
    expect(
      (
        await jsonRequest(
          'PUT',
          '/api/admin/promo-codes',
          { codes: [{ code: 'LAST', amount: 1000, maxUses: 1 }] },
          { cookie },
        )
      ).status,
    ).toBe(200);
    const answers = await Promise.all(
      [a, b].map((cabin) =>
        jsonRequest(
          'POST',
          '/api/bookings',
          validBooking(cabin.id, { checkIn: day(30), checkOut: day(32), promo: 'LAST' }),
        ),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual([201, 201]);
    const uses = async () => (await promoCodes(cookie))[0]!.uses;
    expect(await uses()).toBe(0);
    const [first] = (await Promise.all(answers.map((r) => r.json()))) as Booked[];
    expect(
      (await jsonRequest('PUT', `/api/admin/bookings/${first!.id}`, { status: 'confirmed' }, { cookie })).status,
    ).toBe(200);
    expect(await uses()).toBe(1);
    // Confirmed again after a cancellation, the same booking does not count twice.
    expect(
      (await jsonRequest('PUT', `/api/admin/bookings/${first!.id}`, { status: 'cancelled' }, { cookie })).status,
    ).toBe(200);
    expect(
      (await jsonRequest('PUT', `/api/admin/bookings/${first!.id}`, { status: 'confirmed' }, { cookie })).status,
    ).toBe(200);
    expect(await uses()).toBe(1);
    await expectError(
      await quote({ cabinId: a.id, checkIn: day(40), checkOut: day(42), guests: 2, promo: 'LAST' }),
      400,
      MSG.promoUsedUp,
    );
  });

  it("should give back a code's use when the booking could not be stored (its nights were taken)", async () => {
    const cookie = await login();
    const cabin = await seedCabin();
    expect(
      (
        await jsonRequest(
          'PUT',
          '/api/admin/promo-codes',
          { codes: [{ code: 'BACK', percent: 5, maxUses: 1 }] },
          { cookie },
        )
      ).status,
    ).toBe(200);
    expect(
      (await jsonRequest('POST', `/api/admin/cabins/${cabin.id}/blocks`, { start: day(30), end: day(31) }, { cookie }))
        .status,
    ).toBe(201);
    await expectError(
      await jsonRequest(
        'POST',
        '/api/bookings',
        validBooking(cabin.id, { checkIn: day(30), checkOut: day(32), promo: 'BACK' }),
      ),
      409,
      MSG.bookingNotFree,
    );
    expect((await promoCodes(cookie))[0]!.uses).toBe(0);
  });
});

describe('prices: promo codes as owners write them and guests type them', () => {
  it.each([
    ['«каспий10» in lower case', 'КАСПИЙ10', 'каспий10'],
    ['«KACПИЙ10» with Latin K, A and C', 'КАСПИЙ10', 'KACПИЙ10'],
    ['"RFCGBQ10", typed on the QWERTY layout', 'КАСПИЙ10', 'RFCGBQ10'],
    ['"KTNJ" for «ЛЕТО», typed on the QWERTY layout', 'ЛЕТО', 'KTNJ'],
    ['"ЫГЬЬУК" for "SUMMER", typed on the Russian layout', 'SUMMER', 'ЫГЬЬУК'],
  ])(
    'should apply %s to the quote and the booking, and keep the code as the owner wrote it',
    async (_, saved, typed) => {
      const cookie = await login();
      const cabin = await seedCabin({ pricePerNight: 5000 });
      // resetData leaves promo codes and their uses: the list is emptied first so this code starts unused.
      expect((await jsonRequest('PUT', '/api/admin/promo-codes', { codes: [] }, { cookie })).status).toBe(200);
      expect(
        (await jsonRequest('PUT', '/api/admin/promo-codes', { codes: [{ code: saved, percent: 10 }] }, { cookie }))
          .status,
      ).toBe(200);
      const stay = { checkIn: day(20), checkOut: day(22) };
      const q = await okQuote({ cabinId: cabin.id, ...stay, guests: 2, promo: typed });
      expect(q.lines).toContainEqual({ kind: 'promo', label: `Промокод ${saved} 10\u00a0%`, amount: -1000 });
      expect(q.total).toBe(9000);
      const booked = await jsonRequest('POST', '/api/bookings', validBooking(cabin.id, { ...stay, promo: typed }));
      expect(booked.status, await booked.clone().text()).toBe(201);
      const { id } = (await booked.json()) as Booked;
      const list = await bookings(cookie);
      expect(list.find((b) => b.id === id)).toMatchObject({ total: 9000, promoCode: saved });
      // The owner's confirmation counts its use against the code as written.
      expect((await jsonRequest('PUT', `/api/admin/bookings/${id}`, { status: 'confirmed' }, { cookie })).status).toBe(
        200,
      );
      expect(await promoCodes(cookie)).toEqual([expect.objectContaining({ code: saved, uses: 1 })]);
    },
  );
});

describe("prices: the owner's bad input is refused and changes nothing", () => {
  it.each([
    ['a weekend price of 0', 'PUT', 'cabin', { weekendPricePerNight: 0 }, MSG.weekendPriceInvalid],
    ['more guests in the price than the cabin takes', 'PUT', 'cabin', { baseGuests: 9 }, MSG.baseGuestsOverMax],
    [
      'a code with both a percentage and an amount',
      'PUT',
      '/api/admin/promo-codes',
      { codes: [{ code: 'BOTH', percent: 10, amount: 500 }] },
      `Промокод 1: ${MSG.promoValueInvalid}`,
    ],
    [
      'a code valid for no date',
      'PUT',
      '/api/admin/promo-codes',
      { codes: [{ code: 'NEVER', percent: 10, validFrom: '2027-05-10', validTo: '2027-05-01' }] },
      `Промокод 1: ${MSG.promoPeriodInvalid}`,
    ],
    [
      'a code typed twice',
      'PUT',
      '/api/admin/promo-codes',
      {
        codes: [
          { code: 'TWICE', percent: 10 },
          { code: 'twice', amount: 100 },
        ],
      },
      `Промокод 2: ${MSG.promoCodeRepeated}`,
    ],
    [
      'a code a guest would type as another: look-alike letters',
      'PUT',
      '/api/admin/promo-codes',
      {
        codes: [
          { code: 'КАСПИЙ10', percent: 10 },
          { code: 'SPA', percent: 5 },
          { code: 'KACПИЙ10', amount: 100 },
        ],
      },
      `Промокод 3: ${MSG.promoCodeLookAlike}`,
    ],
    [
      'a code a guest would type as another: the other layout',
      'PUT',
      '/api/admin/promo-codes',
      {
        codes: [
          { code: 'ЛЕТО', percent: 10 },
          { code: 'KTNJ', amount: 100 },
        ],
      },
      `Промокод 2: ${MSG.promoCodeLookAlike}`,
    ],
    [
      'a code of signs',
      'PUT',
      '/api/admin/promo-codes',
      { codes: [{ code: 'ЛЕТО!', percent: 10 }] },
      `Промокод 1: ${MSG.promoCodeInvalid}`,
    ],
    [
      'a discount of 0 %',
      'PUT',
      '/api/admin/pricing',
      { discounts: [{ kind: 'longStay', minNights: 7, percent: 0 }], extras: [] },
      `Скидка 1: ${MSG.discountPercentInvalid}`,
    ],
    [
      'an extra priced per nothing',
      'PUT',
      '/api/admin/pricing',
      { discounts: [], extras: [{ name: 'Баня', price: 2000, per: 'hour' }] },
      `Услуга 1: ${MSG.extraPerInvalid}`,
    ],
    [
      'an extra that is no more',
      'PUT',
      '/api/admin/pricing',
      { discounts: [], extras: [{ id: 999, name: 'Баня', price: 2000, per: 'stay' }] },
      MSG.extraNotFound,
    ],
  ])('should refuse %s with a clear error', async (_, method, path, body, message) => {
    const cookie = await login();
    const cabin = await seedCabin({ maxGuests: 4 });
    const target = path === 'cabin' ? `/api/cabins/${cabin.id}` : path;
    await expectNoChange(async () => expectError(await jsonRequest(method, target, body, { cookie }), 400, message));
  });

  it('should state the price of an extra per guest-night over a 60-night stay, never a 500', async () => {
    const cookie = await login();
    const cabin = await seedCabin({ pricePerNight: 3000, maxGuests: 8 });
    expect(
      (
        await jsonRequest(
          'PUT',
          '/api/admin/pricing',
          { discounts: [], extras: [{ name: 'Завтрак', price: 700, per: 'guestNight', mandatory: true }] },
          { cookie },
        )
      ).status,
    ).toBe(200);
    const q = await okQuote({ cabinId: cabin.id, checkIn: day(10), checkOut: day(70), guests: 8 });
    expect(q.lines).toContainEqual(expect.objectContaining({ kind: 'extra', amount: 700 * 8 * 60 }));
    expect(q.total).toBe(3000 * 60 + 700 * 8 * 60);
  });

  it('should refuse an extra the cabin does not offer, and a quote for the past', async () => {
    const cookie = await login();
    const [cabin, other] = [await seedCabin(), await seedCabin()];
    const saved = await jsonRequest(
      'PUT',
      '/api/admin/pricing',
      { discounts: [], extras: [{ name: 'Трансфер', price: 1500, per: 'stay', cabinIds: [other.id] }] },
      { cookie },
    );
    const id = ((await saved.json()) as PricingAnswer).extras[0]!.id;
    await expectError(
      await quote({ cabinId: cabin.id, checkIn: day(10), checkOut: day(12), guests: 2, extras: String(id) }),
      400,
      MSG.extraNotFound,
    );
    await expectError(
      await quote({ cabinId: cabin.id, checkIn: day(-2), checkOut: day(1), guests: 2 }),
      400,
      MSG.bookingCheckInPast,
    );
  });
});

describe('prices: one total in search, the quote and the booking, for random rules', () => {
  it('should give the same total in search results, GET /api/quote and the stored booking, whatever the owner set', async () => {
    const cookie = await login();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          price: fc.integer({ min: 500, max: 20_000 }),
          weekend: fc.option(fc.integer({ min: 1, max: 30_000 }), { nil: null }),
          baseGuests: fc.integer({ min: 1, max: 4 }),
          extraGuest: fc.integer({ min: 0, max: 2000 }),
          discount: fc.option(
            fc.record({
              kind: fc.constant('longStay' as const),
              minNights: fc.integer({ min: 1, max: 6 }),
              percent: fc.integer({ min: 1, max: 60 }),
            }),
            { nil: null },
          ),
          extra: fc.option(
            fc.record({
              name: fc.constant('Бельё'),
              price: fc.integer({ min: 0, max: 3000 }),
              per: fc.constantFrom('stay', 'night', 'guest', 'guestNight'),
              mandatory: fc.constant(true),
            }),
            { nil: null },
          ),
          start: fc.integer({ min: 5, max: 200 }),
          nights: fc.integer({ min: 1, max: 10 }),
          guests: fc.integer({ min: 1, max: 6 }),
        }),
        async (r) => {
          const cabin = await seedCabin({ pricePerNight: r.price, maxGuests: 6, name: `Случайный ${run++}` });
          expect(
            (
              await jsonRequest(
                'PUT',
                `/api/cabins/${cabin.id}`,
                { weekendPricePerNight: r.weekend, baseGuests: r.baseGuests, extraGuestPerNight: r.extraGuest },
                { cookie },
              )
            ).status,
          ).toBe(200);
          expect(
            (
              await jsonRequest(
                'PUT',
                '/api/admin/pricing',
                { discounts: r.discount ? [r.discount] : [], extras: r.extra ? [r.extra] : [] },
                { cookie },
              )
            ).status,
          ).toBe(200);
          const checkIn = day(r.start);
          const checkOut = addDays(checkIn, r.nights);
          const q = await okQuote({ cabinId: cabin.id, checkIn, checkOut, guests: r.guests });
          const found = await search(checkIn, checkOut, r.guests);
          expect(found.results.find((x) => x.id === cabin.id)?.total).toBe(q.total);
          const booked = await jsonRequest(
            'POST',
            '/api/bookings',
            validBooking(cabin.id, { checkIn, checkOut, guests: r.guests }),
          );
          expect(booked.status).toBe(201);
          expect(((await booked.json()) as QuoteAnswer).total).toBe(q.total);
          expect(q.total).toBeGreaterThanOrEqual(0);
        },
      ),
      { numRuns: 12 },
    );
  });
});
