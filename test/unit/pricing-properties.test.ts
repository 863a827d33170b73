import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, nightsBetween, nightsOf } from '../../schema/dates.ts';
import { formatNights, formatPrice } from '../../schema/format.ts';
import {
  nightParts,
  nightPrice,
  quoteMany,
  quoteStay,
  type Discount,
  type Extra,
  type PricingRules,
  type StayAsk,
} from '../../schema/pricing.ts';

// Property tests of the one pricing function: for random cabins, rules, stays and
// guests, the lines sum to the total, no total falls below zero, amounts are whole roubles, and
// the nights are priced exactly as night-by-night rules say.

const DAY0 = '2027-01-01';
const date = (maxDays = 500) => fc.integer({ min: 0, max: maxDays }).map((n) => addDays(DAY0, n));
const price = fc.integer({ min: 0, max: 50_000 });

/** Seasons that never overlap: sorted cut points taken pairwise. */
const seasons = fc
  .uniqueArray(fc.integer({ min: 0, max: 500 }), { maxLength: 8 })
  .map((cuts) => [...cuts].sort((a, b) => a - b))
  .chain((cuts) =>
    fc
      .tuple(
        ...Array.from({ length: Math.floor(cuts.length / 2) }, () =>
          fc.tuple(
            price,
            fc.option(fc.integer({ min: 1, max: 60_000 }), { nil: null }),
            fc.integer({ min: 1, max: 14 }),
          ),
        ),
      )
      .map((rates) =>
        rates
          .map(([pricePerNight, weekendPricePerNight, minNights], i) => ({
            start: addDays(DAY0, cuts[2 * i]!),
            end: addDays(DAY0, cuts[2 * i + 1]!),
            pricePerNight,
            weekendPricePerNight,
            minNights,
          }))
          .filter((s) => s.start < s.end),
      ),
  );

const discount: fc.Arbitrary<Discount> = fc.oneof(
  fc.record({
    kind: fc.constant('longStay' as const),
    minNights: fc.integer({ min: 1, max: 30 }),
    percent: fc.integer({ min: 1, max: 100 }),
  }),
  fc.record({
    kind: fc.constant('earlyBooking' as const),
    minDaysAhead: fc.integer({ min: 0, max: 200 }),
    percent: fc.integer({ min: 1, max: 100 }),
  }),
  fc.record({
    kind: fc.constant('lastMinute' as const),
    maxDaysAhead: fc.integer({ min: 0, max: 30 }),
    percent: fc.integer({ min: 1, max: 100 }),
  }),
);
const extra = (id: number): fc.Arbitrary<Extra> =>
  fc.record({
    id: fc.constant(id),
    name: fc.constantFrom('Баня', 'Трансфер', 'Завтрак', 'Бельё'),
    price: fc.integer({ min: 0, max: 20_000 }),
    per: fc.constantFrom('stay', 'night', 'guest', 'guestNight'),
    mandatory: fc.boolean(),
    cabinIds: fc.constant(null),
  });

const rules: fc.Arbitrary<PricingRules> = fc.record({
  cabin: fc.record({
    pricePerNight: price,
    weekendPricePerNight: fc.option(fc.integer({ min: 1, max: 60_000 }), { nil: null }),
    weekendNights: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { maxLength: 3 }),
    minNights: fc.integer({ min: 1, max: 7 }),
    baseGuests: fc.integer({ min: 1, max: 6 }),
    extraGuestPerNight: fc.integer({ min: 0, max: 5000 }),
  }),
  seasons,
  datePrices: fc.uniqueArray(fc.record({ date: date(), price }), { maxLength: 6, selector: (d) => d.date }),
  discounts: fc.array(discount, { maxLength: 4 }),
  extras: fc.tuple(extra(1), extra(2), extra(3)).map((xs) => xs),
  charges: fc.record({
    cleaningFee: fc.integer({ min: 0, max: 5000 }),
    touristTax: fc.record({
      enabled: fc.boolean(),
      ratePercent: fc.constantFrom(1, 2, 2.5, 5),
      minPerNight: fc.integer({ min: 0, max: 200 }),
    }),
  }),
});

const ask: fc.Arbitrary<StayAsk> = fc
  .record({
    checkIn: date(440),
    nights: fc.integer({ min: 1, max: 60 }),
    guests: fc.integer({ min: 1, max: 12 }),
    extras: fc.subarray([1, 2, 3]),
    promo: fc.option(
      fc.oneof(
        fc.record({ code: fc.constant('LETO'), percent: fc.integer({ min: 1, max: 100 }), amount: fc.constant(null) }),
        fc.record({
          code: fc.constant('MINUS'),
          percent: fc.constant(null),
          amount: fc.integer({ min: 1, max: 500_000 }),
        }),
      ),
      { nil: null },
    ),
    ahead: fc.integer({ min: 0, max: 300 }),
  })
  .map(({ checkIn, nights, ahead, ...rest }) => ({
    ...rest,
    checkIn,
    checkOut: addDays(checkIn, nights),
    today: addDays(checkIn, -ahead),
  }));

describe('prices: properties of the one pricing function', () => {
  it('should give lines of whole roubles that sum to the total, which is never negative', () => {
    fc.assert(
      fc.property(rules, ask, (r, a) => {
        const q = quoteStay(r, a);
        expect(q.lines.reduce((s, l) => s + l.amount, 0)).toBe(q.total);
        expect(q.total).toBeGreaterThanOrEqual(0);
        for (const l of q.lines) {
          expect(Number.isInteger(l.amount)).toBe(true);
          if (l.kind === 'discount' || l.kind === 'promo') expect(l.amount).toBeLessThan(0);
          else expect(l.amount).toBeGreaterThanOrEqual(0);
        }
        // The accommodation after discounts is never below zero: a code cannot eat the extras.
        const lodging = q.lines
          .filter((l) => ['nights', 'extraGuests', 'discount', 'promo'].includes(l.kind))
          .reduce((s, l) => s + l.amount, 0);
        expect(lodging).toBeGreaterThanOrEqual(0);
        expect(q.lines.filter((l) => l.kind === 'discount').length).toBeLessThanOrEqual(1);
      }),
      { numRuns: 500 },
    );
  });

  it('should price every night as its own rule says, whichever path groups them', () => {
    fc.assert(
      fc.property(rules, ask, (r, a) => {
        const parts = nightParts(r, a.checkIn, a.checkOut);
        expect(parts.reduce((n, p) => n + p.nights, 0)).toBe(nightsBetween(a.checkIn, a.checkOut));
        parts.forEach((p, i) => expect(p.start).toBe(i === 0 ? a.checkIn : parts[i - 1]!.end));
        const byNight = nightsOf(a.checkIn, a.checkOut).map((n) => nightPrice(n, r));
        expect(parts.flatMap((p) => Array(p.nights).fill(p.pricePerNight))).toEqual(byNight);
      }),
      { numRuns: 500 },
    );
  });

  it('should put every mandatory extra in, and an optional one only when ticked', () => {
    fc.assert(
      fc.property(rules, ask, (r, a) => {
        const q = quoteStay(r, a);
        for (const e of r.extras) expect(q.extras.includes(e.id)).toBe(e.mandatory || (a.extras ?? []).includes(e.id));
      }),
      { numRuns: 200 },
    );
  });
});

describe('prices: many cabins at once (search)', () => {
  // Cabins as pricingRules gives them: each its own rates, seasons and dates, one discounts list,
  // one charges object and the same extras for all; some cabins copies of others (by value).
  const cabins = fc
    .tuple(fc.array(rules, { minLength: 1, maxLength: 4 }), fc.array(fc.nat(), { minLength: 1, maxLength: 12 }))
    .map(([sets, picks]) => {
      const [{ discounts, extras, charges }] = sets as [PricingRules];
      return picks.map((p): PricingRules => {
        const r = sets[p % sets.length]!;
        return {
          cabin: { ...r.cabin, weekendNights: [...r.cabin.weekendNights] },
          seasons: r.seasons.map((s) => ({ ...s })),
          datePrices: r.datePrices.map((d) => ({ ...d })),
          discounts,
          extras,
          charges,
        };
      });
    });

  it('should give every cabin the quote quoteStay gives it, alone, for each stay asked', () => {
    fc.assert(
      fc.property(cabins, ask, fc.integer({ min: -7, max: 7 }), (list, a, shift) => {
        const { checkIn, checkOut, ...same } = a;
        const quotes = quoteMany(same);
        for (const r of list) {
          const price = quotes(r);
          expect(price(checkIn, checkOut)).toEqual(quoteStay(r, a));
          const later = { checkIn: addDays(checkIn, shift), checkOut: addDays(checkOut, shift) };
          expect(price(later.checkIn, later.checkOut)).toEqual(quoteStay(r, { ...a, ...later }));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('should tell apart cabins that differ in a single rule, and share the quote of equal ones', () => {
    const base: PricingRules = {
      cabin: {
        pricePerNight: 5000,
        weekendPricePerNight: null,
        weekendNights: [5, 6],
        minNights: 1,
        baseGuests: 2,
        extraGuestPerNight: 100,
      },
      seasons: [
        { start: '2027-06-01', end: '2027-09-01', pricePerNight: 8000, weekendPricePerNight: 8500, minNights: 2 },
      ],
      datePrices: [{ date: '2027-07-02', price: 6000 }],
      discounts: [],
      extras: [{ id: 1, name: 'Бельё', price: 300, per: 'guest', mandatory: true, cabinIds: null }],
      charges: { cleaningFee: 0, touristTax: { enabled: false, ratePercent: 2, minPerNight: 100 } },
    };
    // Thursday to Sunday, in the season (a single date on the Friday) and after it.
    const stays = [
      ['2027-07-01', '2027-07-04'],
      ['2027-10-07', '2027-10-10'],
    ] as const;
    const same = { guests: 3, today: '2027-01-01' };
    const quotes = quoteMany(same);
    const copy = quotes({
      ...base,
      cabin: { ...base.cabin, weekendNights: [5, 6] },
      seasons: [{ ...base.seasons[0]! }],
      datePrices: [{ ...base.datePrices[0]! }],
    });
    const basePrice = quotes(base);
    for (const [checkIn, checkOut] of stays) expect(copy(checkIn, checkOut)).toBe(basePrice(checkIn, checkOut));
    const season = base.seasons[0]!;
    // Each differs from the base in one value only, and that value changes a quote.
    const variants: PricingRules[] = [
      { ...base, datePrices: [{ date: '2027-07-02', price: 6500 }] },
      { ...base, datePrices: [{ date: '2027-07-03', price: 6000 }] },
      { ...base, seasons: [{ ...season, start: '2027-07-02' }] },
      { ...base, seasons: [{ ...season, end: '2027-07-03' }] },
      { ...base, seasons: [{ ...season, pricePerNight: 8100 }] },
      { ...base, seasons: [{ ...season, weekendPricePerNight: 9000 }] },
      { ...base, seasons: [{ ...season, minNights: 3 }] },
      { ...base, cabin: { ...base.cabin, pricePerNight: 5100 } },
      { ...base, cabin: { ...base.cabin, weekendPricePerNight: 7000 } },
      { ...base, cabin: { ...base.cabin, weekendNights: [4, 6] } },
      { ...base, cabin: { ...base.cabin, minNights: 4 } },
      { ...base, cabin: { ...base.cabin, baseGuests: 1 } },
      { ...base, cabin: { ...base.cabin, extraGuestPerNight: 200 } },
      { ...base, discounts: [{ kind: 'longStay', minNights: 2, percent: 10 }] },
      { ...base, extras: [{ ...base.extras[0]!, price: 400 }] },
      { ...base, charges: { ...base.charges, cleaningFee: 1000 } },
    ];
    for (const v of variants) {
      const price = quotes(v);
      const alone = stays.map(([checkIn, checkOut]) => quoteStay(v, { ...same, checkIn, checkOut }));
      stays.forEach(([checkIn, checkOut], i) => expect(price(checkIn, checkOut)).toEqual(alone[i]));
      expect(alone).not.toEqual(stays.map(([checkIn, checkOut]) => basePrice(checkIn, checkOut)));
    }
  });
});

describe('prices: what an owner sets', () => {
  const base: PricingRules = {
    cabin: {
      pricePerNight: 5000,
      weekendPricePerNight: 7000,
      weekendNights: [5, 6],
      minNights: 1,
      baseGuests: 2,
      extraGuestPerNight: 500,
    },
    seasons: [],
    datePrices: [{ date: '2027-12-31', price: 15000 }],
    discounts: [
      { kind: 'longStay', minNights: 7, percent: 10 },
      { kind: 'longStay', minNights: 14, percent: 15 },
      { kind: 'earlyBooking', minDaysAhead: 60, percent: 5 },
    ],
    extras: [
      { id: 1, name: 'Баня', price: 2000, per: 'stay', mandatory: false, cabinIds: null },
      { id: 2, name: 'Бельё', price: 300, per: 'guest', mandatory: true, cabinIds: null },
    ],
    charges: { cleaningFee: 1000, touristTax: { enabled: false, ratePercent: 2, minPerNight: 100 } },
  };

  it('should price a Thursday-to-Sunday stay for 4 with the weekend, extra guests, the баня and a code', () => {
    // 2027-07-01 is a Thursday: Thu 5 000, Fri and Sat 7 000.
    const q = quoteStay(base, {
      checkIn: '2027-07-01',
      checkOut: '2027-07-04',
      guests: 4,
      extras: [1],
      promo: { code: 'LETO', percent: 10, amount: null },
      today: '2027-06-20',
    });
    expect(q.lines).toEqual([
      { kind: 'nights', label: `${formatPrice(5000)} × ${formatNights(1)}`, amount: 5000 },
      { kind: 'nights', label: `${formatPrice(7000)} × ${formatNights(2)}`, amount: 14000 },
      {
        kind: 'extraGuests',
        label: `Дополнительные гости: 2 × ${formatPrice(500)} × ${formatNights(3)}`,
        amount: 3000,
      },
      { kind: 'promo', label: 'Промокод LETO 10\u00a0%', amount: -2200 },
      { kind: 'extra', label: 'Баня', amount: 2000 },
      { kind: 'extra', label: 'Бельё × 4 гост.', amount: 1200 },
      { kind: 'fee', label: 'Уборка', amount: 1000 },
    ]);
    expect(q.total).toBe(24000);
  });

  it('should let the largest discount win and name it, and let a single date override every rule', () => {
    const q = quoteStay(base, { checkIn: '2027-12-20', checkOut: '2028-01-05', guests: 2, today: '2027-12-01' });
    expect(q.lines.filter((l) => l.kind === 'discount')).toEqual([
      { kind: 'discount', label: 'Скидка за долгое проживание 15\u00a0%', amount: expect.any(Number) },
    ]);
    expect(nightPrice('2027-12-31', base)).toBe(15000);
  });

  it('should never let an amount code take the stay below zero', () => {
    const q = quoteStay(
      { ...base, extras: [] },
      {
        checkIn: '2027-07-05',
        checkOut: '2027-07-06',
        guests: 1,
        promo: { code: 'ALL', percent: null, amount: 1_000_000 },
        today: '2027-07-01',
      },
    );
    expect(q.lines.find((l) => l.kind === 'promo')!.amount).toBe(-5000);
    expect(q.total).toBe(1000);
  });
});
