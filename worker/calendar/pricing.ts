import type { IsoDate } from '../../schema/dates.ts';
import { NO_CHARGES, type StayCharges } from '../../schema/payment-options.ts';
import { quoteStay as priceStayByRules, WEEKEND_NIGHTS_DEFAULT, type Quote as RulesQuote } from '../../schema/pricing.ts';

export type PricedSeason = { start: IsoDate; end: IsoDate; pricePerNight: number; minNights: number };
export type Quote = Omit<RulesQuote, 'extras'>;

/**
 * A stay's price by the cabin's price and its seasons, then the charges of the settings (cleaning
 * fee, tourist tax): the one pricing function of schema/pricing.ts with no weekend or date prices,
 * no guests beyond the price, no discount, code or extra (the owner's pricing rules add them).
 */
export function quoteStay(
  base: { pricePerNight: number; minNights: number },
  seasons: PricedSeason[],
  checkIn: IsoDate,
  checkOut: IsoDate,
  charges: StayCharges = NO_CHARGES,
): Quote {
  const { extras: _extras, ...quote } = priceStayByRules(
    {
      cabin: { ...base, weekendPricePerNight: null, weekendNights: WEEKEND_NIGHTS_DEFAULT, baseGuests: Number.MAX_SAFE_INTEGER, extraGuestPerNight: 0 },
      seasons,
      datePrices: [],
      discounts: [],
      extras: [],
      charges,
    },
    { checkIn, checkOut, guests: 1, today: checkIn },
  );
  return quote;
}

/** The lowest price a night can have: «от N ₽» when a season is cheaper than the base price. */
export const lowestPrice = (base: number, seasons: { pricePerNight: number }[]) => Math.min(base, ...seasons.map((s) => s.pricePerNight));
