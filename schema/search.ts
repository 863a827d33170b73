// Search across every cabin by dates and guests, and the owner's occupancy chart (docs/api.md
// «Search, occupancy and health»). Plain zod, so the search form can check with the same rules.
import { z } from 'zod';
import { addDays, isIsoDate, nightsBetween, todayInMoscow, type IsoDate } from './dates.ts';
import { MSG } from './messages.ts';
import { childrenAgesList, petsQuery } from './pricing-input.ts';
import type { PriceLine } from './payment-options.ts';

// The limits live in search-options.ts (no zod: the search form's picker reads them).
export * from './search-options.ts';
import { OCCUPANCY_MAX_DAYS, SEARCH_HORIZON_DAYS, SEARCH_MAX_GUESTS, SEARCH_MAX_NIGHTS } from './search-options.ts';

/** A query string value as typed: a missing one is `undefined`, a blank one '' (both: required). */
const required = (missing: string, invalid: string) =>
  z.string({ error: missing }).trim().min(1, missing).refine(isIsoDate, invalid);

/**
 * `?checkIn=YYYY-MM-DD&checkOut=YYYY-MM-DD&guests=N`, checked in the order a visitor fixes them.
 * "Today" is read when the query is checked, in Moscow.
 */
export const searchQuerySchema = z
  .object({
    checkIn: required(MSG.searchCheckInRequired, MSG.searchCheckInInvalid),
    checkOut: required(MSG.searchCheckOutRequired, MSG.searchCheckOutInvalid),
    guests: z
      .string({ error: MSG.searchGuestsInvalid })
      .trim()
      .regex(/^\d{1,3}$/, MSG.searchGuestsInvalid)
      .transform(Number)
      .refine((n) => n >= 1 && n <= SEARCH_MAX_GUESTS, MSG.searchGuestsInvalid),
    /** `childrenAges=3,9`: the children beside the adults of `guests` (the form's field may hold spaces). */
    childrenAges: z
      .string({ error: MSG.childrenAgesInvalid })
      .transform((s) => s.replace(/\s+/g, ''))
      .pipe(childrenAgesList)
      .optional(),
    /** `pets=1`: only cabins where pets may come. */
    pets: petsQuery,
  })
  .superRefine((q, ctx) => {
    // A field already refused has its own message; the order of the dates needs real dates.
    if (!isIsoDate(q.checkIn) || !isIsoDate(q.checkOut)) return;
    const today = todayInMoscow();
    if (q.checkOut <= q.checkIn)
      ctx.addIssue({ code: 'custom', message: MSG.searchCheckOutBeforeCheckIn, path: ['checkOut'] });
    else if (q.checkIn < today) ctx.addIssue({ code: 'custom', message: MSG.bookingCheckInPast, path: ['checkIn'] });
    else if (q.checkIn > addDays(today, SEARCH_HORIZON_DAYS))
      ctx.addIssue({ code: 'custom', message: MSG.searchCheckInTooFar, path: ['checkIn'] });
    else if (nightsBetween(q.checkIn, q.checkOut) > SEARCH_MAX_NIGHTS)
      ctx.addIssue({ code: 'custom', message: MSG.searchTooLong, path: ['checkOut'] });
    if (q.guests + (q.childrenAges?.length ?? 0) > SEARCH_MAX_GUESTS)
      ctx.addIssue({ code: 'custom', message: MSG.searchGuestsInvalid, path: ['childrenAges'] });
  });

export type SearchQuery = z.infer<typeof searchQuerySchema>;

/** Why a cabin that takes the guests is not among the results: busy, too short, or its season's rule of days. */
export type SearchMissReason = 'busy' | 'minNights' | 'closed';
export type SearchStay = { checkIn: IsoDate; checkOut: IsoDate; total: number };

export type SearchAnswer = {
  checkIn: IsoDate;
  checkOut: IsoDate;
  nights: number;
  guests: number;
  childrenAges: number[];
  pets: boolean;
  /** Free for every night and long enough: cheapest total first. */
  /** total: the nights by season, the cleaning fee and the tourist tax (lines, as the booking card shows them). */
  /** `pets`: pets may come (the card says «можно с животными»). */
  results: { id: number; name: string; nights: number; total: number; lines: PriceLine[]; pets: boolean }[];
  /** Take the guests but not these dates; `nearest` is the closest free stay of the same length. */
  others: { id: number; name: string; reason: SearchMissReason; minNights: number; nearest?: SearchStay }[];
};

/**
 * GET /api/search's JSON: the answer with each distinct list of price lines written once, in
 * `lineSets`, and each result naming its list by index (`lineSet`). Cabins priced alike share one
 * list, so at 1,500 cabins the answer is a fifth of what a list per result made it (docs/api.md «Search»).
 */
export type SearchAnswerJson = Omit<SearchAnswer, 'results'> & {
  lineSets: PriceLine[][];
  results: (Omit<SearchAnswer['results'][number], 'lines'> & { lineSet: number })[];
};

/** A result's price lines in GET /api/search's JSON. */
export const linesOf = (answer: Pick<SearchAnswerJson, 'lineSets'>, result: { lineSet: number }): PriceLine[] =>
  answer.lineSets[result.lineSet]!;

/** `?from=YYYY-MM-DD&days=N` of the owner's chart (from: today in Moscow when absent). */
export const occupancyQuerySchema = z.object({
  from: z.string({ error: MSG.occupancyFromInvalid }).refine(isIsoDate, MSG.occupancyFromInvalid).optional(),
  days: z
    .string({ error: MSG.occupancyDaysInvalid })
    .regex(/^\d{1,3}$/, MSG.occupancyDaysInvalid)
    .transform(Number)
    .refine((n) => n >= 1 && n <= OCCUPANCY_MAX_DAYS, MSG.occupancyDaysInvalid)
    .optional(),
});

/**
 * `hold`: a booking with prepayment whose nights are held while the guest pays (busy); `channel`:
 * a booking read from a platform's API (Avito), with its guests and price.
 */
export type OccupancyKind = 'booking' | 'hold' | 'request' | 'block' | 'feed' | 'channel';
/** `conflict`: its nights are also claimed by another stay (docs/api.md «Channels»), shown in red. */
export type OccupancyRange = {
  start: IsoDate;
  end: IsoDate;
  kind: OccupancyKind;
  label: string;
  bookingId?: number;
  blockId?: number;
  guests?: number;
  price?: number;
  conflict?: true;
};
export type OccupancyAnswer = {
  from: IsoDate;
  days: number;
  /** `cleaning`: the days the cabin waits for a cleaning not ticked done (after a departure, or one the owner added). */
  cabins: {
    id: number;
    name: string;
    active: boolean;
    ranges: OccupancyRange[];
    cleaning: IsoDate[];
  }[];
};
