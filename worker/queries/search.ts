import { and, asc, eq, gte } from 'drizzle-orm';
import { addDays, nightsBetween, todayInMoscow, type IsoDate } from '../../schema/dates.ts';
import { SEARCH_HORIZON_DAYS, SEARCH_NEAREST_DAYS, type SearchAnswer, type SearchQuery, type SearchStay } from '../../schema/search.ts';
import { cabins } from '../../schema/tables.ts';
import { quoteStay } from '../../schema/pricing.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import { groupBy } from '../lib/group-by.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { busyRanges } from './calendar.ts';
import { pricingRules } from './pricing.ts';

type DbEnv = { DB: DatabasePort };

/**
 * Every active cabin that takes the guests, split into those free for the whole stay (priced by
 * season, cheapest first) and those that are not (busy, or a longer minimum stay) with the
 * nearest free stay of the same length within ±7 days. One query per kind of data (cabins,
 * seasons, minimum stays, each source of busy nights) over the ±7-day window, the rest in
 * memory: the cost grows with the data, not with a query per cabin.
 */
export async function searchStays(env: DbEnv, q: SearchQuery): Promise<SearchAnswer> {
  const nights = nightsBetween(q.checkIn, q.checkOut);
  const today = todayInMoscow(now());
  const from = maxDate(today, addDays(q.checkIn, -SEARCH_NEAREST_DAYS));
  const to = addDays(q.checkOut, SEARCH_NEAREST_DAYS);
  const db = getDb(env);
  const [rows, rulesOf, busy] = await Promise.all([
    db
      .select({ id: cabins.id, name: cabins.name })
      .from(cabins)
      .where(and(eq(cabins.active, true), gte(cabins.maxGuests, q.guests)))
      .orderBy(asc(cabins.id)),
    pricingRules(env, from, to),
    busyRanges(env, from, to),
  ]);

  const busyOf = groupBy(busy, (r) => r.cabinId);
  // The stays of the same length that may stand in, closest first (a day earlier before a day
  // later), never in the past nor beyond the horizon: the same for every cabin, so made once.
  const latestCheckIn = addDays(today, SEARCH_HORIZON_DAYS);
  const candidates: { checkIn: IsoDate; checkOut: IsoDate }[] = [];
  for (let d = 1; d <= SEARCH_NEAREST_DAYS; d++) {
    for (const shift of [-d, d]) {
      const checkIn = addDays(q.checkIn, shift);
      if (checkIn >= today && checkIn <= latestCheckIn) candidates.push({ checkIn, checkOut: addDays(checkIn, nights) });
    }
  }

  const results: SearchAnswer['results'] = [];
  const others: SearchAnswer['others'] = [];
  for (const cabin of rows) {
    const rules = rulesOf.get(cabin.id)!;
    const taken = busyOf.get(cabin.id) ?? [];
    const isFree = (checkIn: IsoDate, checkOut: IsoDate) => !taken.some((r) => r.start < checkOut && checkIn < r.end);
    // Priced as the booking would be for the searched guests, with the mandatory extras and the discount of the day.
    const price = (checkIn: IsoDate, checkOut: IsoDate) => quoteStay(rules, { checkIn, checkOut, guests: q.guests, today });
    const quote = price(q.checkIn, q.checkOut);
    const free = isFree(q.checkIn, q.checkOut);
    if (free && quote.minNights <= nights) {
      results.push({ id: cabin.id, name: cabin.name, nights, total: quote.total, lines: quote.lines });
      continue;
    }
    let nearest: SearchStay | undefined;
    for (const stay of candidates) {
      if (!isFree(stay.checkIn, stay.checkOut)) continue;
      const alt = price(stay.checkIn, stay.checkOut);
      if (alt.minNights > nights) continue;
      nearest = { ...stay, total: alt.total };
      break;
    }
    others.push({ id: cabin.id, name: cabin.name, reason: free ? 'minNights' : 'busy', minNights: quote.minNights, ...(nearest ? { nearest } : {}) });
  }
  results.sort((a, b) => a.total - b.total || a.id - b.id);
  return { checkIn: q.checkIn, checkOut: q.checkOut, nights, guests: q.guests, results, others };
}

const maxDate = (a: IsoDate, b: IsoDate) => (a > b ? a : b);

