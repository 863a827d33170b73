import { nightsBetween, type IsoDate } from '../../schema/dates.ts';
import { NO_CHARGES, priceStay, type PriceLine, type StayCharges } from '../../schema/payment-options.ts';

export type PricedSeason = { start: IsoDate; end: IsoDate; pricePerNight: number; minNights: number };
export type Quote = {
  nights: number;
  /** What the guest pays: the nights, the cleaning fee and the tourist tax (the sum of `lines`). */
  total: number;
  /** The priced stay as every place shows it (schema/payment-options.ts priceStay). */
  lines: PriceLine[];
  /** The minimum stay that applies: the check-in night's season's, else the cabin's. */
  minNights: number;
  /** Consecutive nights at one price, in order ([start, end) each). */
  parts: { start: IsoDate; end: IsoDate; nights: number; pricePerNight: number }[];
};

const seasonOf = (night: IsoDate, seasons: PricedSeason[]) => seasons.find((s) => s.start <= night && night < s.end);

/**
 * A stay's price: every night at its own season's price, else the cabin's base price, then the
 * charges of the settings (cleaning fee, tourist tax) by priceStay. It walks
 * from one season edge to the next, not night by night: between two edges every night has the
 * same price, and search prices every cabin for stays of up to 60 nights.
 */
export function quoteStay(
  base: { pricePerNight: number; minNights: number },
  seasons: PricedSeason[],
  checkIn: IsoDate,
  checkOut: IsoDate,
  charges: StayCharges = NO_CHARGES,
): Quote {
  const parts: Quote['parts'] = [];
  const touching = seasons.filter((s) => s.start < checkOut && checkIn < s.end);
  for (let night = checkIn; night < checkOut; ) {
    // The nearest season edge after this night (a start ahead, else the end), or the check-out.
    const next = touching.reduce((edge, s) => {
      const e = s.start > night ? s.start : s.end;
      return e > night && e < edge ? e : edge;
    }, checkOut);
    const price = seasonOf(night, touching)?.pricePerNight ?? base.pricePerNight;
    const nights = nightsBetween(night, next);
    const last = parts.at(-1);
    if (last && last.pricePerNight === price) {
      last.nights += nights;
      last.end = next;
    } else parts.push({ start: night, end: next, nights, pricePerNight: price });
    night = next;
  }
  const { nights, lines, total } = priceStay(parts, charges);
  return { nights, total, lines, minNights: seasonOf(checkIn, seasons)?.minNights ?? base.minNights, parts };
}

/** The lowest price a night can have: «от N ₽» when a season is cheaper than the base price. */
export const lowestPrice = (base: number, seasons: { pricePerNight: number }[]) => Math.min(base, ...seasons.map((s) => s.pricePerNight));
