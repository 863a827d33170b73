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

type SearchResult = SearchAnswer['results'][number];
/** A result as JSON up to its lines, written field by field (twice as quick as a copy without them through JSON.stringify). */
const resultStart = (r: SearchResult) => `{"id":${r.id},"name":${JSON.stringify(r.name)},"nights":${r.nights},"total":${r.total},"lines":`;
/** Compiles only while resultStart writes every field of a result: a field added to it stops the build here. */
const WRITES_EVERY_FIELD: Record<Exclude<keyof SearchResult, 'id' | 'name' | 'nights' | 'total' | 'lines'>, never> = {};
void WRITES_EVERY_FIELD;

/**
 * The answer as JSON in UTF-8, the bytes JSON.stringify's text would be, with each list of lines
 * written and encoded once: cabins priced alike share their lines (quoteMany), and at 1,500 cabins
 * the lines are most of the answer's ~650 KB. Only each result's own fields are encoded anew.
 */
export function searchAnswerBytes(answer: SearchAnswer): Uint8Array<ArrayBuffer> {
  const { results, others, ...head } = answer;
  const encoded = new Map<PriceLine[], Uint8Array>();
  // Before each list of lines, text: the end of the result before and the start of this one.
  const texts: string[] = [];
  const lines: Uint8Array[] = [];
  let before = `${JSON.stringify(head).slice(0, -1)},"results":[`;
  for (const r of results) {
    let bytes = encoded.get(r.lines);
    if (!bytes) encoded.set(r.lines, (bytes = utf8.encode(JSON.stringify(r.lines))));
    texts.push(`${before}${resultStart(r)}`);
    lines.push(bytes);
    before = '},';
  }
  texts.push(`${results.length ? '}' : before}],"others":${JSON.stringify(others)}}`);
  // At most 3 bytes a UTF-16 unit of text; the lists of lines as they are.
  let room = 0;
  for (const t of texts) room += t.length * 3;
  for (const b of lines) room += b.length;
  const out = new Uint8Array(room);
  let at = 0;
  for (let i = 0; i < texts.length; i++) {
    at += utf8.encodeInto(texts[i]!, out.subarray(at)).written;
    const list = lines[i];
    if (list) {
      out.set(list, at);
      at += list.length;
    }
  }
  return out.subarray(0, at);
}
const utf8 = new TextEncoder();
