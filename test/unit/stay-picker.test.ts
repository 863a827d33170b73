import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, isoWeekday, todayInMoscow } from '../../schema/dates.ts';
import { NO_STAY, pickDay, selectable, stayRules, stillFree, type Availability } from '../../site/lib/stay-picker.ts';

const today = todayInMoscow();
const day = (n: number) => addDays(today, n);
// Busy nights 10–11 (a stay leaving on day 12) and 20; a summer-like season from day 30 to 40
// at 9 000 ₽ with at least 3 nights; otherwise 5 000 ₽ and at least 2 nights.
const availability: Availability = {
  from: today,
  to: day(365),
  busy: [
    { start: day(10), end: day(12) },
    { start: day(20), end: day(21) },
  ],
  seasons: [{ start: day(30), end: day(40), pricePerNight: 9000, minNights: 3 }],
  pricePerNight: 5000,
  minNights: 2,
};
const rules = stayRules(availability);

describe('the booking card picks a stay', () => {
  it('should refuse past days, busy nights and days past the horizon as a check-in', () => {
    expect(rules.canCheckIn(day(-1))).toBe(false);
    expect(rules.canCheckIn(day(0))).toBe(true);
    expect(rules.canCheckIn(day(10))).toBe(false);
    expect(rules.canCheckIn(day(11))).toBe(false);
    expect(rules.canCheckIn(day(12))).toBe(true);
    expect(rules.canCheckIn(day(365))).toBe(false);
  });

  it('should allow leaving on the morning the next stay begins, never past it', () => {
    expect(rules.lastCheckOut(day(5))).toBe(day(10));
    expect(rules.canCheckOut(day(5), day(10))).toBe(true);
    expect(rules.canCheckOut(day(5), day(11))).toBe(false);
    expect(rules.canCheckOut(day(5), day(13))).toBe(false);
    // The night of day 12 is free right after a stay that leaves that morning.
    expect(rules.canCheckOut(day(12), day(20))).toBe(true);
  });

  it("should hold the minimum stay of the check-in's season", () => {
    expect(rules.minNights(day(5))).toBe(2);
    expect(rules.canCheckOut(day(5), day(6))).toBe(false);
    expect(rules.canCheckOut(day(5), day(7))).toBe(true);
    expect(rules.minNights(day(30))).toBe(3);
    expect(rules.canCheckOut(day(30), day(32))).toBe(false);
    expect(rules.canCheckOut(day(30), day(33))).toBe(true);
  });

  it('should price every night at its own season', () => {
    const q = rules.quote(day(28), day(32));
    expect(q.total).toBe(2 * 5000 + 2 * 9000);
    expect(q.parts.map((p) => [p.nights, p.pricePerNight])).toEqual([
      [2, 5000],
      [2, 9000],
    ]);
  });

  it('should set the check-in, then the check-out, move an earlier check-in, undo, and start again', () => {
    let sel = pickDay(rules, NO_STAY, day(3));
    expect(sel).toEqual({ checkIn: day(3), checkOut: null });
    expect(selectable(rules, sel, day(4))).toBe(false); // below the minimum stay
    expect(selectable(rules, sel, day(11))).toBe(false); // past the busy night
    expect(selectable(rules, sel, day(1))).toBe(true); // an earlier check-in
    expect(pickDay(rules, sel, day(1))).toEqual({ checkIn: day(1), checkOut: null });
    expect(pickDay(rules, sel, day(3))).toEqual(NO_STAY);
    sel = pickDay(rules, sel, day(10));
    expect(sel).toEqual({ checkIn: day(3), checkOut: day(10) });
    expect(pickDay(rules, sel, day(13))).toEqual({ checkIn: day(13), checkOut: null });
    expect(pickDay(rules, sel, day(10))).toEqual(sel); // a busy night is no check-in
  });

  it('should drop a picked stay that a fresher availability makes impossible', () => {
    const fresher = stayRules({ ...availability, busy: [...availability.busy, { start: day(6), end: day(7) }] });
    expect(stillFree(fresher, { checkIn: day(3), checkOut: day(10) })).toEqual({ checkIn: day(3), checkOut: null });
    expect(stillFree(fresher, { checkIn: day(6), checkOut: day(9) })).toEqual(NO_STAY);
    expect(stillFree(fresher, { checkIn: day(12), checkOut: day(15) })).toEqual({
      checkIn: day(12),
      checkOut: day(15),
    });
  });
});

describe('the booking card prices a family and keeps to the season’s days', () => {
  // The family house: 2 guests in the price, 1 000 ₽ a night each further one; children under 5
  // free, under 12 at half that; pets for 700 ₽ a stay. A season from day 30 to day 60 closes the
  // weekday of day 31 to arrivals and that of day 36 to departures, and allows at most 10 nights.
  const family = stayRules({
    ...availability,
    baseGuests: 2,
    extraGuestPerNight: 1000,
    children: { freeUnderAge: 5, sharePercentUntilAge: 12, sharePercent: 50 },
    pets: { allowed: true, fee: 700, per: 'stay' },
    seasons: [
      {
        start: day(30),
        end: day(60),
        pricePerNight: 9000,
        minNights: 1,
        closedToArrival: [isoWeekday(day(31))],
        closedToDeparture: [isoWeekday(day(36))],
        maxNights: 10,
      },
    ],
  });

  it('should show the children’s lines and the pets’ fee as the server prices them', () => {
    const q = family.quote(day(32), day(35), 2, [], { childrenAges: [3, 9], pets: true });
    expect(q.lines.map((l) => [l.kind, l.amount])).toEqual([
      ['nights', 27000],
      ['children', 0],
      ['children', 1500],
      ['pets', 700],
    ]);
    expect(q.total).toBe(29200);
    expect(family.pets).toEqual({ allowed: true, fee: 700, per: 'stay' });
  });

  it('should not offer a closed weekday as a check-in or a check-out, nor a stay past the longest', () => {
    expect(family.canCheckIn(day(31))).toBe(false);
    expect(family.canCheckIn(day(38))).toBe(false);
    expect(family.canCheckIn(day(32))).toBe(true);
    expect(family.canCheckOut(day(32), day(36))).toBe(false);
    expect(family.canCheckOut(day(32), day(37))).toBe(true);
    expect(family.canCheckOut(day(32), day(42))).toBe(true);
    expect(family.canCheckOut(day(32), day(44))).toBe(false);
    expect(family.maxNights(day(32))).toBe(10);
  });
});

describe('the latest departure from a check-in', () => {
  it('should be the morning of the first busy night after it, or the horizon, as walking night by night finds', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { maxLength: 12 }),
        fc.integer({ min: 20, max: 70 }),
        fc.integer({ min: 0, max: 70 }),
        (nights, horizon, from) => {
          const picked = stayRules({
            from: today,
            to: day(horizon),
            busy: nights.map((n) => ({ start: day(n), end: day(n + 1) })),
            seasons: [],
            pricePerNight: 1000,
            minNights: 1,
          });
          const busy = new Set(nights.map(day));
          let walked = day(from + 1);
          while (walked < day(horizon) && !busy.has(walked)) walked = addDays(walked, 1);
          expect(picked.lastCheckOut(day(from))).toBe(walked);
        },
      ),
    );
  });
});

describe('the departures a check-in allows', () => {
  it('should be every day the rules allow, one by one: the next busy night, the season’s shortest and longest stay, its closed weekdays', () => {
    const weekdays = fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { maxLength: 3 });
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { maxLength: 8 }),
        fc.array(
          fc.record({
            from: fc.integer({ min: 0, max: 50 }),
            length: fc.integer({ min: 1, max: 20 }),
            minNights: fc.integer({ min: 1, max: 5 }),
            maxNights: fc.option(fc.integer({ min: 1, max: 10 })),
            closedToArrival: weekdays,
            closedToDeparture: weekdays,
          }),
          { maxLength: 3 },
        ),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 60 }),
        (nights, ranges, minNights, from) => {
          // Seasons one after another, as the panel keeps them (none overlaps another).
          let start = 0;
          const seasons = ranges.map((r) => {
            const s = {
              start: day(start + r.from),
              end: day(start + r.from + r.length),
              pricePerNight: 1000,
              minNights: r.minNights,
              maxNights: r.maxNights,
              closedToArrival: r.closedToArrival,
              closedToDeparture: r.closedToDeparture,
            };
            start += r.from + r.length;
            return s;
          });
          const rules = stayRules({
            from: today,
            to: day(90),
            busy: nights.map((n) => ({ start: day(n), end: day(n + 1) })),
            seasons,
            pricePerNight: 1000,
            minNights,
          });
          const checkIn = day(from);
          const season = (d: string) => seasons.find((s) => s.start <= d && d < s.end);
          for (let n = -2; n < 30; n++) {
            const out = addDays(checkIn, n);
            const stay = n;
            const expected =
              rules.canCheckIn(checkIn) &&
              out > checkIn &&
              out <= rules.lastCheckOut(checkIn) &&
              stay >= (season(checkIn)?.minNights ?? minNights) &&
              stay <= (season(checkIn)?.maxNights ?? Number.MAX_SAFE_INTEGER) &&
              !season(out)?.closedToDeparture.includes(isoWeekday(out));
            expect(rules.canCheckOut(checkIn, out)).toBe(expected);
          }
        },
      ),
    );
  });
});
