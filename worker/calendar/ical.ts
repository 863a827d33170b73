import ICAL from 'ical.js';
import { addDays, isIsoDate, SITE_TIME_ZONE, type IsoDate } from '../../schema/dates.ts';

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

/**
 * The calendar date of an ical.js time: an all-day date as it is; a time with a TZID (or a
 * floating one) in its own zone; a UTC time (…Z) in Moscow, the site's zone.
 */
function dateOf(t: ICAL.Time): IsoDate {
  if (t.isDate || t.zone !== ICAL.Timezone.utcTimezone) return t.toString().slice(0, 10);
  return new Intl.DateTimeFormat('en-CA', { timeZone: SITE_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(t.toJSDate());
}

/**
 * The busy nights of an imported calendar (any platform's .ics) within [from, to): all-day
 * events as they are; a timed event blocks every night it touches, in its own time zone; cancelled
 * and free (TRANSP:TRANSPARENT) events are left out; recurring events are expanded. Throws on
 * text that is not a calendar.
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
        if (dateOf(d.startDate) >= to) break;
        occurrences.push({ start: d.startDate, end: d.endDate });
      }
    } else {
      occurrences.push({ start: event.startDate, end: event.endDate ?? event.startDate });
    }
    occurrences.forEach(({ start, end }, i) => {
      const first = dateOf(start);
      let last: IsoDate;
      if (end.isDate) last = dateOf(end);
      else {
        // Every night the stay touches: a departure at noon frees that night, a stay past
        // midnight into the morning still took the night before.
        const endDate = dateOf(end);
        last = endDate > first ? endDate : addDays(first, 1);
      }
      if (start.isDate && last <= first) last = addDays(first, 1);
      const s = first < from ? from : first;
      const e = last > to ? to : last;
      if (isIsoDate(s) && isIsoDate(e) && s < e) out.push({ uid: occurrences.length > 1 ? `${uid}#${i}` : uid, start: s, end: e });
    });
  }
  return out;
}
