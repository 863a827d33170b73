import ICAL from 'ical.js';
import type { IsoDate } from '../../schema/dates.ts';

export type StayEvent = {
  id: number;
  cabinName: string;
  siteName: string;
  checkIn: IsoDate;
  checkOut: IsoDate;
  checkInTime: string;
  checkOutTime: string;
  address: string;
  pageUrl: string;
  /** The event's STATUS: a request not yet confirmed is tentative. */
  status: 'TENTATIVE' | 'CONFIRMED' | 'CANCELLED';
};

/**
 * The guest's stay as an RFC 5545 calendar of one all-day event (DTSTART = check-in, DTEND =
 * check-out, the departure day), for «Добавить в календарь» on the guest's page. Built, escaped and
 * folded by ical.js, as the cabins' export (worker/calendar/ical.ts); lines end in CRLF. The UID
 * stays the same, so a second download updates the event (a cancelled stay says so).
 */
export function stayCalendar(e: StayEvent, stampMs: number): string {
  const cal = new ICAL.Component(['vcalendar', [], []]);
  cal.updatePropertyWithValue('prodid', '-//Kaspiy//Stay 1.0//RU');
  cal.updatePropertyWithValue('version', '2.0');
  cal.updatePropertyWithValue('calscale', 'GREGORIAN');
  cal.updatePropertyWithValue('method', 'PUBLISH');
  const ev = new ICAL.Component('vevent');
  ev.updatePropertyWithValue('uid', `stay-${e.id}@kaspiy`);
  ev.updatePropertyWithValue('dtstamp', ICAL.Time.fromJSDate(new Date(stampMs), true));
  ev.updatePropertyWithValue('dtstart', ICAL.Time.fromDateString(e.checkIn));
  ev.updatePropertyWithValue('dtend', ICAL.Time.fromDateString(e.checkOut));
  ev.updatePropertyWithValue('summary', [e.cabinName, e.siteName.trim()].filter(Boolean).join(' — '));
  if (e.address.trim()) ev.updatePropertyWithValue('location', e.address.trim());
  ev.updatePropertyWithValue(
    'description',
    [`Заезд с ${e.checkInTime}, выезд до ${e.checkOutTime}.`, `Страница бронирования: ${e.pageUrl}`].join('\n'),
  );
  ev.updatePropertyWithValue('url', e.pageUrl);
  ev.updatePropertyWithValue('status', e.status);
  ev.updatePropertyWithValue('transp', 'OPAQUE');
  cal.addSubcomponent(ev);
  return `${cal.toString()}\r\n`;
}
