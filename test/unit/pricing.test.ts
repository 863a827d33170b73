import { describe, expect, it } from 'vitest';
import { addDays, nightsOf } from '../../schema/dates.ts';
import { formatNights, formatPrice } from '../../schema/format.ts';
import { NO_CHARGES } from '../../schema/payment-options.ts';
import { quoteStay as quoteByRules, WEEKEND_NIGHTS_DEFAULT, type SeasonRates } from '../../schema/pricing.ts';

// quoteStay walks from season edge to season edge (search prices every cabin with it); the
// price must stay what the night-by-night rule gives: each night at its season's price, else the base.

type PricedSeason = Omit<SeasonRates, 'weekendPricePerNight'>;

/** A cabin priced by its price and seasons alone: no weekends, single dates, guests, discounts or charges. */
function quoteStay(
  base: { pricePerNight: number; minNights: number },
  seasons: PricedSeason[],
  checkIn: string,
  checkOut: string,
) {
  const cabin = {
    ...base,
    weekendPricePerNight: null,
    weekendNights: WEEKEND_NIGHTS_DEFAULT,
    baseGuests: 1,
    extraGuestPerNight: 0,
  };
  // Seasons with no rule of days: nothing closed, no longest stay.
  const {
    extras: _,
    maxNights: __,
    closed: ___,
    withheld: ____,
    ...quote
  } = quoteByRules(
    { cabin, seasons, datePrices: [], discounts: [], extras: [], charges: NO_CHARGES },
    { checkIn, checkOut, guests: 1, today: checkIn },
  );
  return quote;
}

function nightByNight(
  base: { pricePerNight: number; minNights: number },
  seasons: PricedSeason[],
  checkIn: string,
  checkOut: string,
) {
  const priceOf = (night: string) =>
    seasons.find((s) => s.start <= night && night < s.end)?.pricePerNight ?? base.pricePerNight;
  const parts: { start: string; end: string; nights: number; pricePerNight: number }[] = [];
  for (const night of nightsOf(checkIn, checkOut)) {
    const last = parts.at(-1);
    if (last && last.pricePerNight === priceOf(night)) {
      last.nights += 1;
      last.end = addDays(night, 1);
    } else parts.push({ start: night, end: addDays(night, 1), nights: 1, pricePerNight: priceOf(night) });
  }
  const total = parts.reduce((n, p) => n + p.nights * p.pricePerNight, 0);
  return {
    nights: nightsOf(checkIn, checkOut).length,
    total,
    minNights: seasons.find((s) => s.start <= checkIn && checkIn < s.end)?.minNights ?? base.minNights,
    parts,
  };
}

describe('quoteStay: a stay priced season by season', () => {
  const base = { pricePerNight: 4000, minNights: 2 };
  const d = (n: number) => addDays('2027-06-01', n);

  it('should price a stay across a season boundary, with the check-in night’s minimum stay', () => {
    const seasons = [{ start: d(3), end: d(10), pricePerNight: 7000, minNights: 5 }];
    expect(quoteStay(base, seasons, d(1), d(5))).toEqual({
      nights: 4,
      total: 2 * 4000 + 2 * 7000,
      lines: [
        { kind: 'nights', label: `${formatPrice(4000)} × ${formatNights(2)}`, amount: 8000 },
        { kind: 'nights', label: `${formatPrice(7000)} × ${formatNights(2)}`, amount: 14000 },
      ],
      minNights: 2,
      parts: [
        { start: d(1), end: d(3), nights: 2, pricePerNight: 4000 },
        { start: d(3), end: d(5), nights: 2, pricePerNight: 7000 },
      ],
    });
    expect(quoteStay(base, seasons, d(4), d(12)).minNights).toBe(5);
  });

  it('should give what the night-by-night rule gives, for any seasons and stay', () => {
    // A fixed pseudo-random sequence: the same cases on every run.
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let trial = 0; trial < 500; trial++) {
      const seasons: PricedSeason[] = [];
      for (let i = 0, at = rand(5); i < rand(5); i++) {
        const start = at + rand(4);
        const end = start + 1 + rand(8);
        // Equal prices side by side too: their nights join one part.
        seasons.push({
          start: d(start),
          end: d(end),
          pricePerNight: [4000, 5000, 6000][rand(3)]!,
          minNights: 1 + rand(4),
        });
        at = end;
      }
      seasons.sort(() => rand(2) - 0.5);
      const checkIn = rand(30);
      const checkOut = checkIn + 1 + rand(60);
      const { lines: _, ...quote } = quoteStay(base, seasons, d(checkIn), d(checkOut));
      expect(quote).toEqual(nightByNight(base, seasons, d(checkIn), d(checkOut)));
    }
  });
});
