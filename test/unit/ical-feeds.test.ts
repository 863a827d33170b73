import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportCalendar, parseFeed } from '../../worker/calendar/ical.ts';

// Feeds in the styles of the platforms owners paste (test/fixtures/ical/): all-day bookings,
// timed events with a TZID and its VTIMEZONE, UTC times, folded lines, cancelled and free events.
const feed = (name: string) => readFileSync(path.join(import.meta.dirname, '../fixtures/ical', name), 'utf8');
const FROM = '2027-01-01';
const TO = '2027-12-31';
const ranges = (text: string) => parseFeed(text, FROM, TO).map(({ start, end }) => ({ start, end }));

describe("importing other platforms' calendars", () => {
  it("should read Sutochno's all-day bookings, back to back, and leave out a cancelled one", () => {
    expect(ranges(feed('sutochno.ics'))).toEqual([
      { start: '2027-07-01', end: '2027-07-08' },
      { start: '2027-07-08', end: '2027-07-10' },
    ]);
  });

  it("should read Avito's events whatever their folded lines", () => {
    const events = parseFeed(feed('avito.ics'), FROM, TO);
    expect(events).toEqual([
      { uid: 'avito-5f2c1e0a-9b7d-4c1e-8f3a-2d6b8e9c1a47', start: '2027-07-15', end: '2027-07-20' },
    ]);
  });

  it("should read Airbnb's reservations and blocked days", () => {
    expect(ranges(feed('airbnb.ics'))).toEqual([
      { start: '2027-06-09', end: '2027-06-12' },
      { start: '2027-06-18', end: '2027-06-20' },
    ]);
  });

  it("should read Google's timed events in their own time zone: every night a stay touches, not free or cancelled ones", () => {
    expect(ranges(feed('google.ics'))).toEqual([
      // 15:00 on the 22nd to 11:00 on the 25th (Yekaterinburg): the nights of the 22nd, 23rd and 24th.
      { start: '2027-07-22', end: '2027-07-25' },
      // 21:00 UTC on the 29th = 00:00 on the 30th in Moscow, to 11:00: the night of the 29th.
      { start: '2027-07-29', end: '2027-07-30' },
    ]);
  });

  it('should keep only what falls inside the horizon, clipped to it', () => {
    expect(
      parseFeed(feed('sutochno.ics'), '2027-07-05', '2027-07-09').map(({ start, end }) => ({ start, end })),
    ).toEqual([
      { start: '2027-07-05', end: '2027-07-08' },
      { start: '2027-07-08', end: '2027-07-09' },
    ]);
  });

  it('should expand a weekly recurring block', () => {
    const text = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//test//EN',
      'BEGIN:VEVENT',
      'UID:weekly@x',
      'DTSTART;VALUE=DATE:20270301',
      'DTEND;VALUE=DATE:20270302',
      'RRULE:FREQ=WEEKLY;COUNT=3',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    expect(ranges(text)).toEqual([
      { start: '2027-03-01', end: '2027-03-02' },
      { start: '2027-03-08', end: '2027-03-09' },
      { start: '2027-03-15', end: '2027-03-16' },
    ]);
  });

  it.each([
    ['an HTML page', '<!doctype html><html><body>Not found</body></html>'],
    ['JSON', '{"events":[]}'],
    ['an empty file', ''],
    ['a calendar cut off in the middle', 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:2027'],
  ])('should refuse %s', (_, text) => {
    expect(() => parseFeed(text, FROM, TO)).toThrow();
  });

  it('should read back its own export (round trip), with stable UIDs', () => {
    const events = [
      { uid: 'block-1@kaspiy', start: '2027-07-01', end: '2027-07-05' },
      { uid: 'block-2@kaspiy', start: '2027-12-30', end: '2028-01-02' },
    ];
    const text = exportCalendar(events, Date.UTC(2026, 10, 24));
    expect(parseFeed(text, FROM, '2028-12-31')).toEqual(events);
  });
});
