import { addDays, nightsBetween, todayInMoscow, type IsoDate } from '../../schema/dates.ts';
import {
  SEARCH_HORIZON_DAYS,
  SEARCH_NEAREST_DAYS,
  type SearchAnswer,
  type SearchQuery,
  type SearchStay,
} from '../../schema/search.ts';
import { quoteMany, takesGuests, type PricingRules } from '../../schema/pricing.ts';
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
  // A day past the last check-out: the season of a departure day may begin on it (closedToDeparture).
  const to = addDays(q.checkOut, SEARCH_NEAREST_DAYS + 1);
  const reads = await searchReads(env, from, to);
  const childrenAges = q.childrenAges ?? [];
  const pets = q.pets ?? false;
  // Children count toward a cabin's guests; with pets, only cabins that take them.
  const rows = reads.cabins.filter(
    (c) => c.active && takesGuests(c.maxGuests, q.guests, childrenAges) && (!pets || c.pets.allowed),
  );
  const { rulesOf, busy } = reads;

  const busyOf = groupBy(busy, (r) => r.cabinId);
  // The stays of the same length that may stand in, closest first (a day earlier before a day
  // later), never in the past nor beyond the horizon: the same for every cabin, so made once.
  const latestCheckIn = addDays(today, SEARCH_HORIZON_DAYS);
  const candidates: { checkIn: IsoDate; checkOut: IsoDate }[] = [];
  for (let d = 1; d <= SEARCH_NEAREST_DAYS; d++) {
    for (const shift of [-d, d]) {
      const checkIn = addDays(q.checkIn, shift);
      if (checkIn >= today && checkIn <= latestCheckIn)
        candidates.push({ checkIn, checkOut: addDays(checkIn, nights) });
    }
  }

  const results: SearchAnswer['results'] = [];
  const others: SearchAnswer['others'] = [];
  // Priced as the booking would be for the searched guests, with the mandatory extras and the
  // discount of the day; cabins with equal rules share one quote (and one list of lines).
  const quotes = quoteMany({ guests: q.guests, childrenAges, pets, today });
  // Cabins with no season or single date near the stay share their rules object (rulesFrom).
  const priceOf = new Map<PricingRules, ReturnType<typeof quotes>>();
  for (const cabin of rows) {
    const rules = rulesOf(cabin);
    let price = priceOf.get(rules);
    if (!price) priceOf.set(rules, (price = quotes(rules)));
    const taken = busyOf.get(cabin.id) ?? NOTHING_TAKEN;
    const quote = price(q.checkIn, q.checkOut);
    const free = freeIn(taken, q.checkIn, q.checkOut);
    const fits = quote.minNights <= nights && !quote.closed;
    if (free && fits) {
      results.push({
        id: cabin.id,
        name: cabin.name,
        nights,
        total: quote.total,
        lines: quote.lines,
        pets: cabin.pets.allowed,
      });
      continue;
    }
    let nearest: SearchStay | undefined;
    for (const stay of candidates) {
      if (!freeIn(taken, stay.checkIn, stay.checkOut)) continue;
      const alt = price(stay.checkIn, stay.checkOut);
      if (alt.minNights > nights || alt.closed) continue;
      nearest = { ...stay, total: alt.total };
      break;
    }
    others.push({
      id: cabin.id,
      name: cabin.name,
      reason: !free ? 'busy' : quote.minNights > nights ? 'minNights' : 'closed',
      minNights: quote.minNights,
      ...(nearest ? { nearest } : {}),
    });
  }
  results.sort((a, b) => a.total - b.total || a.id - b.id);
  return { checkIn: q.checkIn, checkOut: q.checkOut, nights, guests: q.guests, childrenAges, pets, results, others };
}

const maxDate = (a: IsoDate, b: IsoDate) => (a > b ? a : b);
const NOTHING_TAKEN: readonly { start: IsoDate; end: IsoDate }[] = [];
/** Whether no range of `taken` holds a night of [checkIn, checkOut). */
function freeIn(taken: readonly { start: IsoDate; end: IsoDate }[], checkIn: IsoDate, checkOut: IsoDate): boolean {
  for (const r of taken) if (r.start < checkOut && checkIn < r.end) return false;
  return true;
}

/**
 * The answer as GET /api/search's JSON (SearchAnswerJson) in UTF-8: each distinct list of price
 * lines once, in `lineSets`, each result with its list's index. Cabins priced alike share the
 * very list (quoteMany), so a list is looked up by identity and only a list not seen yet is
 * written (and compared by its text with those written, as two rule sets may give equal lines).
 * The bytes are those of JSON.stringify of the same object, its fields in that order.
 *
 * Written piece by piece into one buffer kept between answers, each cabin's name as bytes kept
 * too: at 1,500 cabins building the text as one string made ~0.9 MB of garbage a search (the
 * Cyrillic names make it two bytes a character), and the self-hosted server's small young
 * generation (scripts/serve.ts) turns garbage into collections.
 */
export function searchAnswerBytes(answer: SearchAnswer): Uint8Array<ArrayBuffer> {
  const { results, others, ...head } = answer;
  const byList = new Map<PriceLine[], number>();
  const byText = new Map<string, number>();
  const lineSets: string[] = [];
  const setOf = new Array<number>(results.length);
  for (let i = 0; i < results.length; i++) {
    const lines = results[i]!.lines;
    let n = byList.get(lines);
    if (n === undefined) {
      const text = JSON.stringify(lines);
      n = byText.get(text);
      if (n === undefined) byText.set(text, (n = lineSets.push(text) - 1));
      byList.set(lines, n);
    }
    setOf[i] = n;
  }
  const out = answerWriter();
  out.text(`${JSON.stringify(head).slice(0, -1)},"lineSets":[${lineSets.join(',')}],"results":[`);
  for (let i = 0; i < results.length; i++) {
    const r = results[i]!;
    out.ascii(i ? ',{"id":' : '{"id":');
    out.number(r.id);
    out.ascii(',"name":');
    out.bytes(nameJson(r.name));
    out.ascii(',"nights":');
    out.number(r.nights);
    out.ascii(',"total":');
    out.number(r.total);
    out.ascii(r.pets ? ',"pets":true,"lineSet":' : ',"pets":false,"lineSet":');
    out.number(setOf[i]!);
    out.ascii('}');
  }
  out.text(`],"others":${JSON.stringify(others)}}`);
  return out.done();
}
const utf8 = new TextEncoder();

type SearchResult = SearchAnswer['results'][number];
/** Compiles only while searchAnswerBytes writes every field of a result: a field added to it stops the build here. */
const WRITES_EVERY_FIELD: Record<
  Exclude<keyof SearchResult, 'id' | 'name' | 'nights' | 'total' | 'lines' | 'pets'>,
  never
> = {};
void WRITES_EVERY_FIELD;

/** The buffer answers are written into, grown as needed and kept (a search's writing is synchronous). */
let scratch = new Uint8Array(256 * 1024);
function answerWriter() {
  let at = 0;
  const room = (n: number) => {
    if (at + n <= scratch.length) return;
    const grown = new Uint8Array(Math.max(scratch.length * 2, at + n));
    grown.set(scratch.subarray(0, at));
    scratch = grown;
  };
  const writer = {
    // At most 3 bytes a UTF-16 unit.
    text(s: string) {
      room(s.length * 3);
      at += utf8.encodeInto(s, scratch.subarray(at)).written;
    },
    /** Text of ASCII only (the keys), byte by byte: no string or view made. */
    ascii(s: string) {
      room(s.length);
      for (let i = 0; i < s.length; i++) scratch[at++] = s.charCodeAt(i);
    },
    /** A number as JSON.stringify writes it; a whole one digit by digit. */
    number(n: number) {
      if (!Number.isSafeInteger(n) || n < 0) return writer.ascii(JSON.stringify(n));
      let digits = 1;
      for (let x = n; x >= 10; x = Math.floor(x / 10)) digits++;
      room(digits);
      for (let i = at + digits - 1, x = n; i >= at; i--, x = Math.floor(x / 10)) scratch[i] = 48 + (x % 10);
      at += digits;
    },
    bytes(b: Uint8Array) {
      room(b.length);
      scratch.set(b, at);
      at += b.length;
    },
    /** The answer's own copy: the buffer is written over by the next one. */
    done: () => scratch.slice(0, at),
  };
  return writer;
}

/** A cabin's name as JSON in UTF-8, kept: the same 1,500 names are written in every search. */
const namesJson = new Map<string, Uint8Array>();
/** Names renamed away stay until this many are held; then all go and the current ones come back. */
const MAX_NAMES = 20_000;
function nameJson(name: string): Uint8Array {
  let bytes = namesJson.get(name);
  if (!bytes) {
    if (namesJson.size >= MAX_NAMES) namesJson.clear();
    namesJson.set(name, (bytes = utf8.encode(JSON.stringify(name))));
  }
  return bytes;
}
