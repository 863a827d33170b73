import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, isoWeekday, nightsBetween, todayInMoscow } from '../../schema/dates.ts';
import { NO_CHARGES } from '../../schema/payment-options.ts';
import {
  CHILD_MAX_AGE,
  childrenBands,
  quoteStay,
  stayClosed,
  takesGuests,
  type ChildrenRule,
  type PricingRules,
  type SeasonRates,
} from '../../schema/pricing.ts';
import { stayRules } from '../../site/lib/stay-picker.ts';

// The owner's price rules for families and their days, as properties of the one pricing function
// (schema/pricing.ts) for random cabins, children and stays: what a child pays by age, pets, and
// the seasons' closed weekdays and longest stay, which the server refuses and the card never offers.

// From a month ahead: the booking card offers no day before today.
const DAY0 = addDays(todayInMoscow(), 30);
const age = fc.integer({ min: 0, max: CHILD_MAX_AGE });
const ages = fc.array(age, { maxLength: 5 });
const children: fc.Arbitrary<ChildrenRule> = fc.record({
  freeUnderAge: fc.integer({ min: 0, max: CHILD_MAX_AGE + 1 }),
  sharePercentUntilAge: fc.integer({ min: 0, max: CHILD_MAX_AGE + 1 }),
  sharePercent: fc.integer({ min: 0, max: 100 }),
});

/** A cabin's rules beside the children's: a discount, a cleaning fee, the tourist tax and an extra by the guest. */
const rules: fc.Arbitrary<PricingRules> = fc
  .record({
    pricePerNight: fc.integer({ min: 0, max: 30_000 }),
    baseGuests: fc.integer({ min: 1, max: 6 }),
    extraGuestPerNight: fc.integer({ min: 0, max: 5000 }),
    cleaningFee: fc.integer({ min: 0, max: 3000 }),
    discount: fc.integer({ min: 0, max: 50 }),
    guestExtra: fc.integer({ min: 0, max: 2000 }),
    children,
  })
  .map(
    (r): PricingRules => ({
      cabin: {
        pricePerNight: r.pricePerNight,
        weekendPricePerNight: null,
        weekendNights: [5, 6],
        minNights: 1,
        baseGuests: r.baseGuests,
        extraGuestPerNight: r.extraGuestPerNight,
        children: r.children,
      },
      seasons: [],
      datePrices: [],
      discounts: r.discount > 0 ? [{ kind: 'longStay', minNights: 3, percent: r.discount }] : [],
      // An extra by the guest: the children priced as adults count for it, the others do not.
      extras: [{ id: 1, name: 'Завтрак', price: r.guestExtra, per: 'guestNight', mandatory: true, cabinIds: null }],
      charges: {
        ...NO_CHARGES,
        cleaningFee: r.cleaningFee,
        touristTax: { enabled: true, ratePercent: 2, minPerNight: 100 },
      },
    }),
  );
const withChildren = (r: PricingRules, c: Partial<ChildrenRule>): PricingRules => ({
  ...r,
  cabin: { ...r.cabin, children: { ...r.cabin.children!, ...c } },
});

const stay = fc.record({
  checkIn: fc.integer({ min: 0, max: 300 }).map((n) => addDays(DAY0, n)),
  nights: fc.integer({ min: 1, max: 30 }),
  guests: fc.integer({ min: 1, max: 6 }),
});
const askOf = (s: { checkIn: string; nights: number; guests: number }, childrenAges: number[]) => ({
  checkIn: s.checkIn,
  checkOut: addDays(s.checkIn, s.nights),
  guests: s.guests,
  childrenAges,
  today: DAY0,
});
const childrenLine = (r: PricingRules, a: ReturnType<typeof askOf>) =>
  quoteStay(r, a)
    .lines.filter((l) => l.kind === 'children')
    .reduce((sum, l) => sum + l.amount, 0);

describe('price rules: children by age', () => {
  it('should never change the price for a child under the free age', () => {
    fc.assert(
      fc.property(rules, ages, stay, age, (r, others, s, young) => {
        fc.pre(young < r.cabin.children!.freeUnderAge);
        expect(quoteStay(r, askOf(s, [...others, young])).total).toBe(quoteStay(r, askOf(s, others)).total);
      }),
      { numRuns: 400 },
    );
  });

  it('should price a child at or over the shared age (and the free one) as an adult', () => {
    fc.assert(
      fc.property(rules, ages, stay, age, (r, others, s, a) => {
        const c = r.cabin.children!;
        fc.pre(a >= Math.max(c.sharePercentUntilAge, c.freeUnderAge));
        const asAdult = quoteStay(r, { ...askOf(s, others), guests: s.guests + 1 });
        expect(quoteStay(r, askOf(s, [...others, a])).total).toBe(asAdult.total);
      }),
      { numRuns: 400 },
    );
  });

  it('should make the children’s line grow with the share, whatever the guests the price includes', () => {
    fc.assert(
      fc.property(
        rules,
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 100 }),
        ages,
        stay,
        (r, p1, p2, a, s) => {
          const [low, high] = p1 <= p2 ? [p1, p2] : [p2, p1];
          const at = (sharePercent: number) => childrenLine(withChildren(r, { sharePercent }), askOf(s, a));
          expect(at(low)).toBeLessThanOrEqual(at(high));
          // A child at a share pays it a night even when the adults leave room in the price.
          const roomy = withChildren({ ...r, cabin: { ...r.cabin, baseGuests: 100 } }, { sharePercent: high });
          const shared = childrenBands(roomy.cabin.children, a).shared;
          expect(childrenLine(roomy, askOf(s, a))).toBe(
            shared * Math.round((r.cabin.extraGuestPerNight * high) / 100) * s.nights,
          );
        },
      ),
      { numRuns: 400 },
    );
  });

  it('should keep every line whole and summing to the total with children and pets, pets priced by stay or night', () => {
    fc.assert(
      fc.property(rules, ages, stay, fc.boolean(), fc.integer({ min: 0, max: 3000 }), (r, a, s, nightly, fee) => {
        const per = nightly ? ('night' as const) : ('stay' as const);
        const withPets = { ...r, cabin: { ...r.cabin, pets: { allowed: true, fee, per } } };
        const q = quoteStay(withPets, { ...askOf(s, a), pets: true });
        expect(q.lines.reduce((sum, l) => sum + l.amount, 0)).toBe(q.total);
        for (const l of q.lines) expect(Number.isInteger(l.amount)).toBe(true);
        const pets = q.lines.find((l) => l.kind === 'pets')?.amount ?? 0;
        expect(pets).toBe(nightly ? fee * s.nights : fee);
        expect(quoteStay(withPets, askOf(s, a)).total).toBe(q.total - pets);
      }),
      { numRuns: 400 },
    );
  });
});

describe('price rules: the guests a cabin takes', () => {
  it('should take adults and children up to the cabin’s maximum and never beyond it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 20 }), ages, (maxGuests, guests, a) => {
        expect(takesGuests(maxGuests, guests, a)).toBe(guests + a.length <= maxGuests);
        // A child more never makes room.
        if (!takesGuests(maxGuests, guests, a)) expect(takesGuests(maxGuests, guests, [...a, 5])).toBe(false);
      }),
    );
  });
});

/** Seasons with random closed weekdays and longest stays, covering DAY0 on. */
const closedSeasons = fc
  .array(
    fc.record({
      length: fc.integer({ min: 3, max: 60 }),
      closedToArrival: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { maxLength: 6 }),
      closedToDeparture: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { maxLength: 6 }),
      maxNights: fc.option(fc.integer({ min: 1, max: 21 }), { nil: null }),
    }),
    { minLength: 1, maxLength: 5 },
  )
  .map((list) => {
    let at = DAY0;
    return list.map(({ length, ...rule }): SeasonRates => {
      const start = at;
      at = addDays(at, length);
      return { start, end: at, pricePerNight: 4000, minNights: 1, ...rule };
    });
  });

describe('price rules: the seasons’ days', () => {
  it('should never quote a stay arriving or leaving on a closed weekday, nor longer than the longest stay', () => {
    fc.assert(
      fc.property(
        closedSeasons,
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 1, max: 40 }),
        (seasons, from, n) => {
          const checkIn = addDays(DAY0, from);
          const checkOut = addDays(checkIn, n);
          const arrival = seasons.find((s) => s.start <= checkIn && checkIn < s.end);
          const departure = seasons.find((s) => s.start <= checkOut && checkOut < s.end);
          const q = quoteStay(
            {
              cabin: {
                pricePerNight: 3000,
                weekendPricePerNight: null,
                weekendNights: [],
                minNights: 1,
                baseGuests: 2,
                extraGuestPerNight: 0,
              },
              seasons,
              datePrices: [],
              discounts: [],
              extras: [],
              charges: NO_CHARGES,
            },
            { checkIn, checkOut, guests: 2, today: DAY0 },
          );
          const closedIn = arrival?.closedToArrival?.includes(isoWeekday(checkIn)) ?? false;
          const closedOut = departure?.closedToDeparture?.includes(isoWeekday(checkOut)) ?? false;
          const tooLong = arrival?.maxNights != null && n > arrival.maxNights;
          expect(q.closed !== null).toBe(closedIn || closedOut || tooLong);
          expect(stayClosed(seasons, checkIn, checkOut)).toBe(q.closed);
          if (q.closed === null && arrival?.maxNights != null)
            expect(nightsBetween(checkIn, checkOut)).toBeLessThanOrEqual(arrival.maxNights);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('should offer on the booking card exactly the stays the server quotes', () => {
    fc.assert(
      fc.property(
        closedSeasons,
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 1, max: 30 }),
        (seasons, from, n) => {
          const card = stayRules({
            from: DAY0,
            to: addDays(DAY0, 400),
            busy: [],
            seasons,
            pricePerNight: 3000,
            minNights: 1,
          });
          const checkIn = addDays(DAY0, from);
          const checkOut = addDays(checkIn, n);
          const offered = card.canCheckIn(checkIn) && card.canCheckOut(checkIn, checkOut);
          expect(offered).toBe(stayClosed(seasons, checkIn, checkOut) === null);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('price rules: what Avito gets', () => {
  it('should push the adult price: the children’s and pets’ rules and the rule of days change no period sent', async () => {
    const { pricePeriods } = await import('../../worker/channels/avito-sync.ts');
    fc.assert(
      fc.property(rules, closedSeasons, fc.integer({ min: 0, max: 3000 }), (r, seasons, fee) => {
        const plain: PricingRules = {
          ...r,
          cabin: { ...r.cabin, children: undefined },
          seasons: seasons.map(({ closedToArrival: _a, closedToDeparture: _d, maxNights: _m, ...s }) => s),
        };
        const ruled: PricingRules = {
          ...r,
          cabin: { ...r.cabin, pets: { allowed: true, fee, per: 'night' } },
          seasons,
        };
        expect(pricePeriods(ruled, DAY0, addDays(DAY0, 120))).toEqual(pricePeriods(plain, DAY0, addDays(DAY0, 120)));
      }),
      { numRuns: 100 },
    );
  });
});
