import ICAL from 'ical.js';
import { addDays, isIsoDate, type IsoDate } from '../../schema/dates.ts';

export type BusyEvent = { uid: string; start: IsoDate; end: IsoDate };

/**
 * An RFC 5545 calendar of busy nights for Sutochno, Avito, RealtyCalendar or Google: all-day
 * events, DTSTART = check-in, DTEND = check-out (the departure day, exclusive), SUMMARY:Занято,
 * nothing about the guest. Built and folded by ical.js; lines end in CRLF.
 */
export function exportCalendar(events: BusyEvent[], stampMs: number): string {
  const cal = new ICAL.Component(['vcalendar', [], []]);
  cal.updatePropertyWithValue('prodid', '-//Kaspiy//Calendar 1.0//RU');
  cal.updatePropertyWithValue('version', '2.0');
  cal.updatePropertyWithValue('calscale', 'GREGORIAN');
  cal.updatePropertyWithValue('method', 'PUBLISH');
  cal.updatePropertyWithValue('x-wr-calname', 'Каспий: занятые даты');
  const stamp = ICAL.Time.fromJSDate(new Date(stampMs), true);
  for (const e of events) {
    const ev = new ICAL.Component('vevent');
    ev.updatePropertyWithValue('uid', e.uid);
    ev.updatePropertyWithValue('dtstamp', stamp);
    ev.updatePropertyWithValue('dtstart', ICAL.Time.fromDateString(e.start));
    ev.updatePropertyWithValue('dtend', ICAL.Time.fromDateString(e.end));
    ev.updatePropertyWithValue('summary', 'Занято');
    ev.updatePropertyWithValue('transp', 'OPAQUE');
    cal.addSubcomponent(ev);
  }
  return `${cal.toString()}\r\n`;
}

/** Moscow has kept UTC+3 all year since 2014. */
const MOSCOW_OFFSET_HOURS = 3;

/** The wall-clock time of an ical.js time: in its own zone (TZID or floating); a UTC time (…Z) in Moscow. */
function wallClock(t: ICAL.Time): ICAL.Time {
  const local = t.clone();
  if (t.zone === ICAL.Timezone.utcTimezone) local.adjust(0, MOSCOW_OFFSET_HOURS, 0, 0);
  return local;
}

const dateOf = (t: ICAL.Time): IsoDate => t.toString().slice(0, 10);

/**
 * The nights [first, end) a timed stay touches. A night runs from noon to the next noon (the
 * check-out hour): arriving at 15:00 takes that night, leaving at 11:00 frees the night that
 * begins that day, a 00:30 arrival took the night before.
 */
function nightsTouched(start: ICAL.Time, end: ICAL.Time): { first: IsoDate; end: IsoDate } {
  const from = wallClock(start);
  from.adjust(0, -12, 0, 0);
  const to = wallClock(end);
  to.adjust(0, -12, 0, -1);
  const first = dateOf(from);
  const last = dateOf(to);
  return { first, end: addDays(last < first ? first : last, 1) };
}

/**
 * The busy nights of an imported calendar (any platform's .ics) within [from, to): all-day
 * events as they are; a timed event blocks every night it touches, read in its own time zone;
 * cancelled and free (TRANSP:TRANSPARENT) events are left out; recurring events are expanded.
 * Throws on text that is not a calendar.
 */
export function parseFeed(text: string, from: IsoDate, to: IsoDate): BusyEvent[] {
  const root = new ICAL.Component(ICAL.parse(text));
  if (root.name !== 'vcalendar') throw new Error('not a VCALENDAR');
  // Time zones the feed defines itself (VTIMEZONE), for its TZIDs.
  for (const tz of root.getAllSubcomponents('vtimezone')) {
    const zone = new ICAL.Timezone(tz);
    if (!ICAL.TimezoneService.has(zone.tzid)) ICAL.TimezoneService.register(zone);
  }
  const out: BusyEvent[] = [];
  for (const vevent of root.getAllSubcomponents('vevent')) {
    const status = String(vevent.getFirstPropertyValue('status') ?? '').toUpperCase();
    const transp = String(vevent.getFirstPropertyValue('transp') ?? '').toUpperCase();
    if (status === 'CANCELLED' || transp === 'TRANSPARENT') continue;
    const event = new ICAL.Event(vevent);
    if (!event.startDate) continue;
    const uid = event.uid || `${event.startDate.toString()}`;
    const occurrences: { start: ICAL.Time; end: ICAL.Time }[] = [];
    if (event.isRecurring()) {
      const it = event.iterator();
      for (let next = it.next(), n = 0; next && n < 1000; next = it.next(), n++) {
        const d = event.getOccurrenceDetails(next);
        if (dateOf(wallClock(d.startDate)) >= to) break;
        occurrences.push({ start: d.startDate, end: d.endDate });
      }
    } else {
      occurrences.push({ start: event.startDate, end: event.endDate ?? event.startDate });
    }
    occurrences.forEach(({ start, end }, i) => {
      let range: { first: IsoDate; end: IsoDate };
      if (start.isDate) {
        // All-day: DTEND is the departure day; a missing or equal DTEND means one night.
        const first = dateOf(start);
        const last = end.isDate ? dateOf(end) : first;
        range = { first, end: last > first ? last : addDays(first, 1) };
      } else range = nightsTouched(start, end);
      const s = range.first < from ? from : range.first;
      const e = range.end > to ? to : range.end;
      if (isIsoDate(s) && isIsoDate(e) && s < e) out.push({ uid: occurrences.length > 1 ? `${uid}#${i}` : uid, start: s, end: e });
    });
  }
  return out;
}
