import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { NO_CHARGES } from '../../schema/payment-options.ts';
import {
  EARLY_LATE_MESSAGES,
  EXTRA_PER,
  extraAmount,
  quoteMany,
  quoteStay,
  stayTimes,
  type Extra,
  type Neighbours,
  type PricingRules,
} from '../../schema/pricing.ts';
import { stayRules } from '../../site/lib/stay-picker.ts';

// An early check-in and a late check-out as properties of the one pricing function
// (schema/pricing.ts) for random cabins, stays and neighbouring nights: offered only beside a free
// night, and then only their own price is added; the booking card reads the neighbours from the
// busy nights as the server does; search and Avito never price them.

const DAY0 = addDays(todayInMoscow(), 30);

const EARLY = 101;
const LATE = 102;
const BANYA = 103;
const extrasOf = (p: { early: number; late: number; banya: number; per: Extra['per'] }): Extra[] => [
  {
    id: EARLY,
    name: 'Ранний заезд',
    price: p.early,
    per: p.per,
    mandatory: false,
    cabinIds: null,
    kind: 'earlyCheckIn',
    time: '10:00',
  },
  {
    id: LATE,
    name: 'Поздний выезд',
    price: p.late,
    per: 'stay',
    mandatory: false,
    cabinIds: null,
    kind: 'lateCheckOut',
    time: '18:00',
  },
  { id: BANYA, name: 'Баня', price: p.banya, per: 'stay', mandatory: false, cabinIds: null },
];

/** A cabin with weekends, guests beyond the price, a discount, a cleaning fee, the tourist tax and the three extras. */
const rules: fc.Arbitrary<PricingRules> = fc
  .record({
    pricePerNight: fc.integer({ min: 0, max: 30_000 }),
    weekend: fc.option(fc.integer({ min: 0, max: 40_000 }), { nil: null }),
    baseGuests: fc.integer({ min: 1, max: 6 }),
    extraGuestPerNight: fc.integer({ min: 0, max: 5000 }),
    cleaningFee: fc.integer({ min: 0, max: 3000 }),
    discount: fc.integer({ min: 0, max: 50 }),
    early: fc.integer({ min: 0, max: 5000 }),
    late: fc.integer({ min: 0, max: 5000 }),
    banya: fc.integer({ min: 0, max: 5000 }),
    per: fc.constantFrom(...EXTRA_PER),
  })
  .map(
    (r): PricingRules => ({
      cabin: {
        pricePerNight: r.pricePerNight,
        weekendPricePerNight: r.weekend,
        weekendNights: [5, 6],
        minNights: 1,
        baseGuests: r.baseGuests,
        extraGuestPerNight: r.extraGuestPerNight,
      },
      seasons: [],
      datePrices: [],
      discounts: r.discount > 0 ? [{ kind: 'longStay', minNights: 3, percent: r.discount }] : [],
      extras: extrasOf(r),
      charges: {
        ...NO_CHARGES,
        cleaningFee: r.cleaningFee,
        touristTax: { enabled: true, ratePercent: 2, minPerNight: 100 },
      },
    }),
  );
const stay = fc.record({
  checkIn: fc.integer({ min: 0, max: 300 }).map((n) => addDays(DAY0, n)),
  nights: fc.integer({ min: 1, max: 30 }),
  guests: fc.integer({ min: 1, max: 6 }),
});
const neighbours: fc.Arbitrary<Neighbours> = fc.record({ before: fc.boolean(), after: fc.boolean() });
const ticked = fc.subarray([EARLY, LATE, BANYA]);

describe('early check-in and late check-out: offered only beside a free night', () => {
  it('should never price an early check-in when the night before is busy, nor a late check-out when the check-out’s night is', () => {
    fc.assert(
      fc.property(rules, stay, neighbours, ticked, (r, s, n, t) => {
        const q = quoteStay(r, {
          checkIn: s.checkIn,
          checkOut: addDays(s.checkIn, s.nights),
          guests: s.guests,
          extras: t,
          today: DAY0,
          neighbours: n,
        });
        expect(q.extras.includes(EARLY)).toBe(t.includes(EARLY) && n.before);
        expect(q.extras.includes(LATE)).toBe(t.includes(LATE) && n.after);
        expect(q.extras.includes(BANYA)).toBe(t.includes(BANYA));
        // The lines name only what is priced: a busy neighbour leaves no line of its extra.
        const extraLines = q.lines.filter((l) => l.kind === 'extra').map((l) => l.label.split(' × ')[0]);
        expect(extraLines).toEqual(r.extras.filter((e) => q.extras.includes(e.id)).map((e) => e.name));
        // Withheld: exactly the ones beside a busy night, each with its reason, ticked or not.
        expect(q.withheld).toEqual([
          ...(n.before ? [] : [{ id: EARLY, reason: EARLY_LATE_MESSAGES.earlyCheckIn }]),
          ...(n.after ? [] : [{ id: LATE, reason: EARLY_LATE_MESSAGES.lateCheckOut }]),
        ]);
        // What the booking keeps: the hours of the ones priced in.
        expect(stayTimes(r.extras, q.extras)).toEqual({
          earlyCheckIn: q.extras.includes(EARLY) ? '10:00' : null,
          lateCheckOut: q.extras.includes(LATE) ? '18:00' : null,
        });
      }),
      { numRuns: 500 },
    );
  });

  it('should never change the nights’ price, the discount or the tax: only its own line is added', () => {
    fc.assert(
      fc.property(rules, stay, neighbours, ticked, (r, s, n, t) => {
        const ask = { checkIn: s.checkIn, checkOut: addDays(s.checkIn, s.nights), guests: s.guests, today: DAY0 };
        const without = quoteStay(r, { ...ask, neighbours: n });
        const withIt = quoteStay(r, { ...ask, extras: t, neighbours: n });
        const notExtra = (q: typeof without) => q.lines.filter((l) => l.kind !== 'extra');
        expect(notExtra(withIt)).toEqual(notExtra(without));
        expect(withIt.parts).toEqual(without.parts);
        const added = r.extras
          .filter((e) => withIt.extras.includes(e.id))
          .reduce((sum, e) => sum + extraAmount(e, s.nights, s.guests), 0);
        expect(withIt.total).toBe(without.total + added);
      }),
      { numRuns: 500 },
    );
  });

  it('should price neither without the neighbours known: search prices every cabin alike', () => {
    fc.assert(
      fc.property(rules, stay, ticked, (r, s, t) => {
        const checkOut = addDays(s.checkIn, s.nights);
        const ask = { guests: s.guests, extras: t, today: DAY0 };
        const q = quoteStay(r, { ...ask, checkIn: s.checkIn, checkOut });
        expect(q.extras).not.toContain(EARLY);
        expect(q.extras).not.toContain(LATE);
        expect(q.withheld).toEqual([]);
        expect(quoteMany(ask)(r)(s.checkIn, checkOut)).toEqual(q);
      }),
      { numRuns: 200 },
    );
  });
});

describe('early check-in and late check-out on the booking card', () => {
  it('should offer them exactly when the busy nights leave the night before and the check-out’s night free', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ start: fc.integer({ min: 0, max: 60 }), nights: fc.integer({ min: 1, max: 5 }) }), {
          maxLength: 6,
        }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 10 }),
        (ranges, from, n) => {
          const busy = ranges.map((b) => ({ start: addDays(DAY0, b.start), end: addDays(DAY0, b.start + b.nights) }));
          const covered = (night: string) => busy.some((b) => b.start <= night && night < b.end);
          const card = stayRules({
            from: DAY0,
            to: addDays(DAY0, 400),
            busy,
            seasons: [],
            pricePerNight: 3000,
            minNights: 1,
            extras: extrasOf({ early: 1000, late: 1000, banya: 2000, per: 'stay' }),
          });
          const checkIn = addDays(DAY0, from);
          const checkOut = addDays(checkIn, n);
          const offered = card.offered(checkIn, checkOut).map((e) => e.id);
          expect(offered.includes(EARLY)).toBe(!covered(addDays(checkIn, -1)));
          expect(offered.includes(LATE)).toBe(!covered(checkOut));
          expect(offered).toContain(BANYA);
          // The card's price ticks only what it offers, as the server's quote does.
          expect(card.quote(checkIn, checkOut, 2, [EARLY, LATE, BANYA]).extras).toEqual(offered);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('early check-in and late check-out: what Avito gets', () => {
  it('should push the same prices with or without them', async () => {
    const { pricePeriods } = await import('../../worker/channels/avito-sync.ts');
    fc.assert(
      fc.property(rules, (r) => {
        const plain: PricingRules = { ...r, extras: r.extras.filter((e) => e.id === BANYA) };
        expect(pricePeriods(r, DAY0, addDays(DAY0, 120))).toEqual(pricePeriods(plain, DAY0, addDays(DAY0, 120)));
      }),
      { numRuns: 100 },
    );
  });
});
