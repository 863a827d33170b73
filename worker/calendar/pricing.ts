import { addDays, nightsOf, type IsoDate } from '../../schema/dates.ts';

export type PricedSeason = { start: IsoDate; end: IsoDate; pricePerNight: number; minNights: number };
export type Quote = {
  nights: number;
  total: number;
  /** The minimum stay that applies: the check-in night's season's, else the cabin's. */
  minNights: number;
  /** Consecutive nights at one price, in order ([start, end) each). */
  parts: { start: IsoDate; end: IsoDate; nights: number; pricePerNight: number }[];
};

const seasonOf = (night: IsoDate, seasons: PricedSeason[]) => seasons.find((s) => s.start <= night && night < s.end);

/** A stay's price: every night at its own season's price, else the cabin's base price. */
export function quoteStay(base: { pricePerNight: number; minNights: number }, seasons: PricedSeason[], checkIn: IsoDate, checkOut: IsoDate): Quote {
  const parts: Quote['parts'] = [];
  for (const night of nightsOf(checkIn, checkOut)) {
    const price = seasonOf(night, seasons)?.pricePerNight ?? base.pricePerNight;
    const last = parts.at(-1);
    if (last && last.pricePerNight === price) {
      last.nights += 1;
      last.end = addDays(night, 1);
    } else parts.push({ start: night, end: addDays(night, 1), nights: 1, pricePerNight: price });
  }
  return {
    nights: parts.reduce((n, p) => n + p.nights, 0),
    total: parts.reduce((n, p) => n + p.nights * p.pricePerNight, 0),
    minNights: seasonOf(checkIn, seasons)?.minNights ?? base.minNights,
    parts,
  };
}

/** The lowest price a night can have: «от N ₽» when a season is cheaper than the base price. */
export const lowestPrice = (base: number, seasons: { pricePerNight: number }[]) => Math.min(base, ...seasons.map((s) => s.pricePerNight));
