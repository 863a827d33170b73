import { addDays, nightsBetween, todayInMoscow, type IsoDate } from '../../schema/dates.ts';
import { SEARCH_HORIZON_DAYS, SEARCH_NEAREST_DAYS, type SearchAnswer, type SearchQuery, type SearchStay } from '../../schema/search.ts';
import { quoteMany } from '../../schema/pricing.ts';
import type { PriceLine } from '../../schema/payment-options.ts';
import { now } from '../lib/clock.ts';
import { groupBy } from '../lib/group-by.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { searchReads } from './search-reads.ts';

type DbEnv = { DB: DatabasePort };

/**
 * Every active cabin that takes the guests, split into those free for the whole stay (priced by
 * season, cheapest first) and those that are not (busy, or a longer minimum stay) with the
 * nearest free stay of the same length within ±7 days. One query per kind of data (cabins,
 * seasons, minimum stays, each source of busy nights) over the ±7-day window, all in one round
 * trip (searchReads; the cabins kept while the data are unchanged), the rest in memory: the cost
 * grows with the data, not with a query per cabin.
 */
export async function searchStays(env: DbEnv, q: SearchQuery): Promise<SearchAnswer> {
  const nights = nightsBetween(q.checkIn, q.checkOut);
  const today = todayInMoscow(now());
  const from = maxDate(today, addDays(q.checkIn, -SEARCH_NEAREST_DAYS));
  const to = addDays(q.checkOut, SEARCH_NEAREST_DAYS);
  const reads = await searchReads(env, from, to);
  const rows = reads.cabins.filter((c) => c.active && c.maxGuests >= q.guests);
  const { rulesOf, busy } = reads;

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
  // Priced as the booking would be for the searched guests, with the mandatory extras and the
  // discount of the day; cabins with equal rules share one quote (and one list of lines).
  const quotes = quoteMany({ guests: q.guests, today });
  for (const cabin of rows) {
    const price = quotes(rulesOf(cabin));
    const taken = busyOf.get(cabin.id) ?? [];
    const isFree = (checkIn: IsoDate, checkOut: IsoDate) => !taken.some((r) => r.start < checkOut && checkIn < r.end);
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

/**
 * The answer as GET /api/search's JSON (SearchAnswerJson) in UTF-8: each distinct list of price
 * lines once, in `lineSets`, each result with its list's index. Cabins priced alike share the
 * very list (quoteMany), so a list is looked up by identity and only a list not seen yet is
 * written (and compared by its text with those written, as two rule sets may give equal lines).
 * The bytes are those of JSON.stringify of the same object, its fields in that order.
 */
export function searchAnswerBytes(answer: SearchAnswer): Uint8Array<ArrayBuffer> {
  const { results, others, ...head } = answer;
  const byList = new Map<PriceLine[], number>();
  const byText = new Map<string, number>();
  const lineSets: string[] = [];
  let written = '';
  for (const r of results) {
    let n = byList.get(r.lines);
    if (n === undefined) {
      const text = JSON.stringify(r.lines);
      n = byText.get(text);
      if (n === undefined) byText.set(text, (n = lineSets.push(text) - 1));
      byList.set(r.lines, n);
    }
    written += `${written ? ',' : ''}${resultJson(r, n)}`;
  }
  return utf8.encode(`${JSON.stringify(head).slice(0, -1)},"lineSets":[${lineSets.join(',')}],"results":[${written}],"others":${JSON.stringify(others)}}`);
}
const utf8 = new TextEncoder();

type SearchResult = SearchAnswer['results'][number];
/** A result as JSON, written field by field (quicker than JSON.stringify of a copy of each result). */
const resultJson = (r: SearchResult, lineSet: number) => `{"id":${r.id},"name":${JSON.stringify(r.name)},"nights":${r.nights},"total":${r.total},"lineSet":${lineSet}}`;
/** Compiles only while resultJson writes every field of a result: a field added to it stops the build here. */
const WRITES_EVERY_FIELD: Record<Exclude<keyof SearchResult, 'id' | 'name' | 'nights' | 'total' | 'lines'>, never> = {};
void WRITES_EVERY_FIELD;
