import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PriceLine } from '../../schema/payment-options.ts';
import type { SearchAnswer, SearchAnswerJson } from '../../schema/search.ts';
import { searchAnswerBytes } from '../../worker/queries/search.ts';

// GET /api/search writes its JSON itself (worker/queries/search.ts searchAnswerBytes), each
// distinct list of price lines once in `lineSets`, each result naming its own by index: the bytes
// must be those of JSON.stringify of that answer (its fields in that order), whatever names,
// prices and lines it holds, and whether results priced alike share a list or hold equal copies.

/** The answer as GET /api/search's JSON, made the plain way: lists compared by their text, in the order first met. */
function plainJson({
  checkIn,
  checkOut,
  nights,
  guests,
  childrenAges,
  pets,
  results,
  others,
}: SearchAnswer): SearchAnswerJson {
  const texts: string[] = [];
  const written = results.map(({ lines, ...r }) => {
    const text = JSON.stringify(lines);
    const at = texts.indexOf(text);
    return { ...r, lineSet: at >= 0 ? at : texts.push(text) - 1 };
  });
  return {
    checkIn,
    checkOut,
    nights,
    guests,
    childrenAges,
    pets,
    lineSets: texts.map((t) => JSON.parse(t) as SearchAnswerJson['lineSets'][number]),
    results: written,
    others,
  };
}

const text = fc.string({ unit: 'grapheme', maxLength: 30 });
const line: fc.Arbitrary<PriceLine> = fc.record({
  kind: fc.constantFrom('nights', 'extraGuests', 'children', 'discount', 'promo', 'extra', 'pets', 'fee', 'tax'),
  label: text,
  amount: fc.integer({ min: -100_000, max: 100_000 }),
});
const date = fc.constantFrom('2027-07-01', '2027-07-04');
const answer: fc.Arbitrary<SearchAnswer> = fc
  .record({
    lists: fc.array(fc.array(line, { maxLength: 6 }), { minLength: 1, maxLength: 4 }),
    results: fc.array(
      fc.record({
        id: fc.nat(),
        name: fc.oneof(text, fc.string({ unit: 'binary', maxLength: 10 })),
        total: fc.nat(),
        list: fc.nat(),
        pets: fc.boolean(),
      }),
      { maxLength: 20 },
    ),
    others: fc.array(
      fc.record(
        {
          id: fc.nat(),
          name: text,
          reason: fc.constantFrom('busy' as const, 'minNights' as const, 'closed' as const),
          minNights: fc.nat(),
          nearest: fc.option(fc.record({ checkIn: date, checkOut: date, total: fc.nat() }), { nil: undefined }),
        },
        { requiredKeys: ['id', 'name', 'reason', 'minNights'] },
      ),
      { maxLength: 5 },
    ),
    guests: fc.integer({ min: 1, max: 50 }),
    childrenAges: fc.array(fc.integer({ min: 0, max: 17 }), { maxLength: 4 }),
    pets: fc.boolean(),
  })
  .map(({ lists, results, others, guests, childrenAges, pets }) => ({
    lists: [...lists, ...lists.map((l) => l.map((x) => ({ ...x })))],
    results,
    others,
    guests,
    childrenAges,
    pets,
  }))
  .map(({ lists, results, others, guests, childrenAges, pets }) => ({
    checkIn: '2027-07-01',
    checkOut: '2027-07-04',
    nights: 3,
    guests,
    childrenAges,
    pets,
    // Results that share a list share the very array, as quoteMany gives it; the second half of
    // the lists are equal copies of the first (two rule sets may give equal lines).
    results: results.map(({ id, name, total, list, pets: allowed }) => ({
      id,
      name,
      nights: 3,
      total,
      lines: lists[list % lists.length]!,
      pets: allowed,
    })),
    others,
  }));

describe('search: the answer written as bytes', () => {
  it('should be the UTF-8 of JSON.stringify of the answer with each distinct list once, byte for byte', () => {
    fc.assert(
      fc.property(answer, (a) => {
        expect(Buffer.from(searchAnswerBytes(a)).equals(Buffer.from(JSON.stringify(plainJson(a))))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('should write an answer with no results, and names that need escaping', () => {
    const empty: SearchAnswer = {
      checkIn: '2027-07-01',
      checkOut: '2027-07-04',
      nights: 3,
      guests: 2,
      childrenAges: [],
      pets: false,
      results: [],
      others: [],
    };
    expect(new TextDecoder().decode(searchAnswerBytes(empty))).toBe(
      '{"checkIn":"2027-07-01","checkOut":"2027-07-04","nights":3,"guests":2,"childrenAges":[],"pets":false,"lineSets":[],"results":[],"others":[]}',
    );
    const lines: PriceLine[] = [{ kind: 'nights', label: '5\u00a0000\u00a0₽ × 3 ночи', amount: 15000 }];
    const odd: SearchAnswer = {
      ...empty,
      results: [
        { id: 1, name: 'Домик "у моря"\\\n\u2028🏠\ud800', nights: 3, total: 15000, lines, pets: true },
        { id: 2, name: '', nights: 3, total: 15000, lines, pets: false },
      ],
    };
    // One list, named by both results.
    expect(JSON.parse(new TextDecoder().decode(searchAnswerBytes(odd)))).toEqual({
      ...empty,
      lineSets: [lines],
      results: [
        { id: 1, name: odd.results[0]!.name, nights: 3, total: 15000, lineSet: 0, pets: true },
        { id: 2, name: '', nights: 3, total: 15000, lineSet: 0, pets: false },
      ],
    });
    expect(Buffer.from(searchAnswerBytes(odd)).equals(Buffer.from(JSON.stringify(plainJson(odd))))).toBe(true);
  });
});
