import { describe, expect, it } from 'vitest';
import { FEED_MAX_EVENTS } from '../../schema/calendar.ts';
import { FeedRefusedError, parseFeed } from '../../worker/calendar/ical.ts';
import { ICAL_CORPUS, readCorpusFile } from '../fixtures/ical/corpus.ts';

// Every platform's export shape, each with the nights a person expects (test/fixtures/ical/corpus.ts),
// and the bounds that keep a feed from costing more than it may.
const byStart = (a: { start: string; end: string }, b: { start: string; end: string }) =>
  a.start < b.start ? -1 : a.start > b.start ? 1 : a.end < b.end ? -1 : a.end > b.end ? 1 : 0;
const ranges = (text: string, from: string, to: string) =>
  parseFeed(text, from, to)
    .map(({ start, end }) => ({ start, end }))
    .sort(byStart);

const calendar = (...lines: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const allDay = (i: number) => [
  'BEGIN:VEVENT',
  `UID:event-${i}@test`,
  'DTSTART;VALUE=DATE:20270301',
  'DTEND;VALUE=DATE:20270302',
  'END:VEVENT',
];

describe("importing other platforms' calendars: the corpus", () => {
  it.each(ICAL_CORPUS)('should read $platform: $why', ({ file, from, to, expected }) => {
    expect(ranges(readCorpusFile(file), from, to)).toEqual(expected);
  });
});

describe("importing other platforms' calendars: limits", () => {
  it(`should refuse a calendar of more than ${FEED_MAX_EVENTS} events, saying so`, () => {
    const text = calendar(...Array.from({ length: FEED_MAX_EVENTS + 1 }, (_, i) => allDay(i)).flat());
    expect(() => parseFeed(text, '2027-01-01', '2027-12-31')).toThrow(FeedRefusedError);
    expect(() => parseFeed(text, '2027-01-01', '2027-12-31')).toThrow(
      /^В календаре больше 10 000 событий: такой не загружается$/,
    );
  });

  it(`should read a calendar of exactly ${FEED_MAX_EVENTS} events`, () => {
    const text = calendar(...Array.from({ length: FEED_MAX_EVENTS }, (_, i) => allDay(i)).flat());
    expect(parseFeed(text, '2027-01-01', '2027-12-31')).toHaveLength(FEED_MAX_EVENTS);
  });

  // A hang fails at the test's time limit; how fast the bounded work is belongs to the bench, not here.
  it("should stop an endless FREQ=MINUTELY rule begun years ago, blocking the window's first nights", {
    timeout: 10_000,
  }, () => {
    const text = calendar(
      'BEGIN:VEVENT',
      'UID:every-minute@test',
      'DTSTART:20150101T140000',
      'DURATION:PT1M',
      'RRULE:FREQ=MINUTELY',
      'END:VEVENT',
    );
    const events = parseFeed(text, '2027-01-01', '2027-12-31');
    // Capped after its first 10,000 minutes about the window's start (documented in ical.ts).
    expect(events[0]).toMatchObject({ start: '2027-01-01', end: '2027-01-02' });
    expect(events.length).toBeGreaterThan(1);
  });

  it('should give up on a rule that never occurs (ical.js would look for ever)', { timeout: 10_000 }, () => {
    const text = calendar(
      'BEGIN:VEVENT',
      'UID:never@test',
      'DTSTART:20270101T140000',
      'DURATION:PT1H',
      'RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30',
      'END:VEVENT',
      ...allDay(1),
    );
    const events = parseFeed(text, '2027-01-01', '2027-12-31');
    expect(events).toContainEqual({ uid: 'event-1@test', start: '2027-03-01', end: '2027-03-02' });
  });

  it('should give an occurrence the same uid when the window moves forward by a month', () => {
    const weekly = readCorpusFile('google-weekly-2019.ics');
    const uidOn = (from: string, to: string, start: string) =>
      parseFeed(weekly, from, to).find((e) => e.start === start)?.uid;
    const march = uidOn('2027-03-01', '2027-04-01', '2027-03-26');
    expect(march).toBe('4r8k2m6p0t3v7x1z5b9d3f7h1j@google.com#2027-03-26');
    expect(uidOn('2027-03-26', '2027-05-01', '2027-03-26')).toBe(march);
    // A stay cut by the window's start keeps its uid too.
    const timed = readCorpusFile('google-timed.ics');
    const whole = parseFeed(timed, '2027-06-01', '2027-07-01').find((e) => e.start === '2027-06-04');
    const cut = parseFeed(timed, '2027-06-05', '2027-07-05').find((e) => e.start === '2027-06-05');
    expect(whole?.uid).toBe('0c5e9g3i7k1m5o9q3s7u1w5y9a@google.com#2027-06-04T15:00:00');
    expect(cut?.uid).toBe(whole?.uid);
  });
});
