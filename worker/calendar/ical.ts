import ICAL from 'ical.js';
import { FEED_MAX_EVENTS } from '../../schema/calendar.ts';
import { addDays, isIsoDate, nightsBetween, type IsoDate } from '../../schema/dates.ts';

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

/** Why a feed is refused for its size rather than its form: the owner is told as it is. */
export class FeedRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedRefusedError';
  }
}

const TOO_MANY_EVENTS = 'В календаре больше 10 000 событий: такой не загружается';
const TOO_MUCH_RECURRENCE = 'В календаре слишком много повторений событий: такой не загружается';

/**
 * What expanding one feed may cost. A recurring event is expanded from just before the window
 * (its DTSTART moved forward by whole periods of its rule: fastForward), so a block begun in 2015
 * costs what one begun last week does; what is left is bounded here:
 * - MAX_OCCURRENCES: 10,000 occurrences of one event, counted from the window (from its start
 *   less the event's length and two days), not from DTSTART: a daily rule over a year is 365, an
 *   hourly one 8,760. A FREQ=MINUTELY rule with no end stops after 10,000 minutes (the window's
 *   first five days are blocked); a FREQ=SECONDLY one ends before the window.
 * - MAX_EVENT_STEPS: 25,000 steps for one event: each candidate time ical.js tries (a sparse or
 *   impossible rule such as FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30 spins inside ical.js for ever) and
 *   each occurrence the expansion gives (an hourly rule over a year: ~17,500; a COUNT rule is
 *   walked from its DTSTART: a daily one begun in 2015, ~9,000 before 2027). That event's
 *   expansion stops there, keeping what it found; the feed goes on. A few tenths of a second.
 * - MAX_FEED_STEPS: 200,000 such steps for the whole feed (a daily rule over a year takes ~730:
 *   some 270 of them): past it the feed is refused (FeedRefusedError) and its last good import
 *   stays. A second or two of work at most.
 * - MAX_ZONE_STEPS: 20,000 for the rules of the feed's VTIMEZONEs (an Outlook zone whose rule
 *   starts in 1601 takes ~900); past it the feed is refused too.
 */
const MAX_OCCURRENCES = 10_000;
const MAX_EVENT_STEPS = 25_000;
const MAX_FEED_STEPS = 200_000;
const MAX_ZONE_STEPS = 20_000;

/** One event has spent its steps: its expansion stops, the feed goes on. */
class EventStepsSpent extends Error {}

/** Steps left: of the event being expanded, of the feed, of its time zones. */
type Budget = { event: number; feed: number; zones: number };

function spendOnEvent(budget: Budget): void {
  if (--budget.feed < 0) throw new FeedRefusedError(TOO_MUCH_RECURRENCE);
  if (--budget.event < 0) throw new EventStepsSpent();
}

function spendOnZone(budget: Budget): void {
  if (--budget.zones < 0) throw new FeedRefusedError(TOO_MUCH_RECURRENCE);
}

/**
 * Calls `spend` for every candidate time ical.js tries for the RRULEs of a component (its
 * iterators call check_contracting_rules once per candidate), so that no rule can keep it busy
 * unbounded: `spend` throws to stop it.
 */
function meterRules(component: ICAL.Component, spend: () => void): void {
  for (const prop of component.getAllProperties('rrule')) {
    const recur = prop.getFirstValue() as ICAL.Recur;
    const iterator = recur.iterator.bind(recur);
    recur.iterator = (start: ICAL.Time) => {
      const it = iterator(start);
      const check = it.check_contracting_rules.bind(it);
      it.check_contracting_rules = () => {
        spend();
        return check();
      };
      return it;
    };
  }
}

/** The wall-clock time of an ical.js time: in its own zone (TZID or floating); a UTC time (…Z) in Moscow. */
function wallClock(t: ICAL.Time): ICAL.Time {
  const local = t.clone();
  if (t.zone === ICAL.Timezone.utcTimezone) local.adjust(0, MOSCOW_OFFSET_HOURS, 0, 0);
  return local;
}

const dateOf = (t: ICAL.Time): IsoDate => t.toString().slice(0, 10);
/** dateOf(wallClock(t)), without a copy when it is not a UTC time. */
const wallDate = (t: ICAL.Time): IsoDate => dateOf(t.zone === ICAL.Timezone.utcTimezone ? wallClock(t) : t);

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

/** The nights of one occurrence: all-day as written (DTEND the departure day), timed as it touches. */
function stayNights(start: ICAL.Time, end: ICAL.Time): { first: IsoDate; end: IsoDate } {
  if (!start.isDate) return nightsTouched(start, end);
  // All-day: DTEND is the departure day; a missing or equal DTEND means one night.
  const first = dateOf(start);
  const last = end.isDate ? dateOf(end) : first;
  return { first, end: last > first ? last : addDays(first, 1) };
}

const SECONDS_OF: Record<string, number> = { SECONDLY: 1, MINUTELY: 60, HOURLY: 3600, DAILY: 86_400, WEEKLY: 604_800 };

/**
 * DTSTART moved forward by whole periods of the event's one RRULE to just before the day
 * `before`, so that ical.js expands from there, not from years ago; undefined when it stays put.
 * Every period of the rule repeats the same pattern (BYDAY, BYMONTHDAY, BYSETPOS… fall alike
 * in each), so the occurrences from `before` on are the same. A COUNT rule counts from its real
 * DTSTART and is not moved (it is walked through, bounded by the steps). A moved start that the
 * rule would not produce itself (a DTSTART out of step with its rule) lies before `before` and is
 * skipped with the rest of the early ones.
 */
function fastForward(event: ICAL.Event, before: IsoDate): ICAL.Time | undefined {
  const rules = event.component.getAllProperties('rrule');
  if (rules.length !== 1) return undefined;
  const rule = rules[0]!.getFirstValue() as ICAL.Recur;
  if (rule.count) return undefined;
  const start = event.startDate;
  let target = before;
  if (rule.until && dateOf(rule.until) < target) target = dateOf(rule.until);
  const interval = rule.interval || 1;
  const moved = start.clone();
  const seconds = SECONDS_OF[rule.freq ?? ''];
  if (seconds) {
    const period = seconds * interval;
    if (start.isDate && period % 86_400 !== 0) return undefined;
    // Ending 4 hours before the target's midnight (a UTC time is read 3 hours later, in Moscow).
    const timeOfDay = start.isDate ? 0 : start.hour * 3600 + start.minute * 60 + start.second;
    const periods = Math.floor((nightsBetween(dateOf(start), target) * 86_400 - timeOfDay - 4 * 3600) / period);
    if (periods <= 0) return undefined;
    const shift = periods * period;
    moved.adjust(Math.floor(shift / 86_400), 0, 0, shift % 86_400);
    return moved;
  }
  const months = rule.freq === 'YEARLY' ? 12 * interval : rule.freq === 'MONTHLY' ? interval : 0;
  if (!months) return undefined;
  const [year, month] = target.split('-').map(Number) as [number, number];
  const periods = Math.floor((year * 12 + month - (start.year * 12 + start.month) - 2) / months) - 1;
  // A start on the 29th-31st moves only to a month that has that day (29 February: a leap year).
  for (let p = periods, tries = 0; p > 0 && tries < 48; p--, tries++) {
    const m = start.month - 1 + p * months;
    const y = start.year + Math.floor(m / 12);
    if (start.day > ICAL.Time.daysInMonth((m % 12) + 1, y)) continue;
    moved.year = y;
    moved.month = (m % 12) + 1;
    return moved;
  }
  return undefined;
}

const upper = (comp: ICAL.Component, name: string) => String(comp.getFirstPropertyValue(name) ?? '').toUpperCase();
const isBusy = (comp: ICAL.Component) =>
  upper(comp, 'status') !== 'CANCELLED' && upper(comp, 'transp') !== 'TRANSPARENT';
const durationDays = (e: ICAL.Event) => Math.max(0, Math.ceil(e.duration.toSeconds() / 86_400));
const sequence = (c: ICAL.Component) => Number(c.getFirstPropertyValue('sequence') ?? 0) || 0;
const byNights = (a: BusyEvent, b: BusyEvent) =>
  a.start < b.start
    ? -1
    : a.start > b.start
      ? 1
      : a.end < b.end
        ? -1
        : a.end > b.end
          ? 1
          : a.uid < b.uid
            ? -1
            : a.uid > b.uid
              ? 1
              : 0;

/** Where the nights found go: clipped to the window, each series' same nights once. */
type Sink = (uid: string, start: ICAL.Time, end: ICAL.Time, seen?: Set<string>) => void;

/** An event read as it stands: a single event, a second master of a UID, an override without its master. */
function readSingle(vevent: ICAL.Component, uid: string, add: Sink): void {
  if (!isBusy(vevent)) return;
  const event = new ICAL.Event(vevent, { exceptions: [] });
  if (event.startDate) add(uid, event.startDate, event.endDate ?? event.startDate);
}

/**
 * A master VEVENT and its overrides (same UID, a RECURRENCE-ID): ical.js relates them, expands
 * the rule (RRULE, RDATE, EXDATE) from just before the window to its end, and gives each
 * occurrence its override's dates and status where there is one.
 */
function readSeries(
  uid: string,
  master: ICAL.Component,
  overrides: ICAL.Component[],
  window: { from: IsoDate; to: IsoDate },
  budget: Budget,
  add: Sink,
): void {
  // A cancelled master cancels the whole series, its overrides with it.
  if (upper(master, 'status') === 'CANCELLED') return;
  // Of two overrides of one occurrence the higher SEQUENCE wins: it is related last.
  const event = new ICAL.Event(master, { exceptions: [...overrides].sort((a, b) => sequence(a) - sequence(b)) });
  if (!event.startDate) return;
  const exceptions = Object.values(event.exceptions as unknown as Record<string, ICAL.Event>);
  const masterBusy = isBusy(master);
  const ownId = (t: ICAL.Time) => `${uid}#${t.toString()}`;
  // An override not met while expanding (its occurrence lies outside the span expanded, was cut
  // by EXDATE, or is not one the rule makes) still says where that stay is: read as it stands.
  const met = new Set<ICAL.Event>();
  const readUnmet = () => {
    for (const ex of exceptions) if (!met.has(ex)) readSingle(ex.component, ownId(ex.recurrenceId), add);
  };

  if (!event.isRecurring()) {
    const d = event.getOccurrenceDetails(event.startDate);
    if (d.item !== event) met.add(d.item);
    if (d.item !== event ? isBusy(d.item.component) : masterBusy)
      add(uid, d.startDate, d.item !== event ? d.endDate : (event.endDate ?? event.startDate));
    readUnmet();
    return;
  }
  if (!masterBusy && !exceptions.length) return;

  // RDATE;VALUE=PERIOD: occurrences with their own end. ical.js would hand the period itself to
  // the expansion, so they are taken out of it and read here.
  const periods: ICAL.Period[] = [];
  for (const prop of master.getAllProperties('rdate')) {
    const values = prop.getValues();
    if (!values.some((v) => v instanceof ICAL.Period)) continue;
    periods.push(...values.filter((v): v is ICAL.Period => v instanceof ICAL.Period));
    master.removeProperty(prop);
  }
  // EXDATEs checked once more here: ical.js steps past only one EXDATE per occurrence, so one
  // that matches, after two that match nothing (an all-day EXDATE on a day off the rule), is missed.
  const exdates = master.getAllProperties('exdate').flatMap((p) => p.getValues() as ICAL.Time[]);
  const exDays = new Set(exdates.filter((x) => x.isDate).map(dateOf));
  const exTimes = new Set(exdates.filter((x) => !x.isDate).map((x) => x.toUnixTime()));
  const excluded = (t: ICAL.Time) =>
    (exDays.size > 0 && exDays.has(dateOf(t))) || (exTimes.size > 0 && exTimes.has(t.toUnixTime()));
  const seen = new Set<string>();
  for (const p of periods) {
    if (masterBusy && !excluded(p.start) && !(p.start.toString() in event.exceptions))
      add(ownId(p.start), p.start, p.getEnd(), seen);
  }

  meterRules(master, () => spendOnEvent(budget));
  budget.event = MAX_EVENT_STEPS;
  // Occurrences starting before `early` end before the window; from `stop` on they start after it.
  const early = addDays(window.from, -(Math.max(durationDays(event), ...exceptions.map(durationDays)) + 2));
  const stop = addDays(window.to, 1);
  const duration = event.duration;
  // One occurrence (its RECURRENCE-ID time): false once past the window or the cap.
  let n = 0;
  const read = (occ: ICAL.Time): boolean => {
    const day = wallDate(occ);
    if (day >= stop) return false;
    if (day < early || excluded(occ)) return true;
    if (++n > MAX_OCCURRENCES) return false;
    if (!exceptions.length) {
      // What getOccurrenceDetails gives when there is no override, without its lookups.
      const end = occ.clone();
      end.addDuration(duration);
      if (masterBusy) add(ownId(occ), occ, end, seen);
      return true;
    }
    const d = event.getOccurrenceDetails(occ);
    if (d.item !== event && d.item.recurrenceId.compare(occ) === 0) met.add(d.item);
    if (d.item === event ? masterBusy : isBusy(d.item.component)) add(ownId(occ), d.startDate, d.endDate, seen);
    return true;
  };
  // DTSTART is the first occurrence; ical.js gives it through an RRULE, not for RDATEs alone
  // (unless an RDATE repeats it: then it is read once).
  const start = master.hasProperty('rrule') ? undefined : event.startDate.toString();
  if (start) read(event.startDate);
  try {
    const it = event.iterator(fastForward(event, early));
    for (let occ = it.next(); occ; occ = it.next()) {
      spendOnEvent(budget);
      if (start && occ.toString() === start) continue;
      if (!read(occ)) break;
    }
  } catch (err) {
    if (!(err instanceof EventStepsSpent)) throw err;
  }
  readUnmet();
}

/**
 * The busy nights of an imported calendar (any platform's .ics) within [from, to): all-day
 * events as they are; a timed event blocks every night it touches, read in its own time zone's
 * wall clock (a TZID without its VTIMEZONE: as written; UTC: in Moscow); cancelled and free
 * (TRANSP:TRANSPARENT) events are left out. Recurring events (RRULE, RDATE, EXDATE) are expanded
 * by ical.js over the window whatever their age, with their overrides (VEVENTs of the same UID
 * with a RECURRENCE-ID: moved, or cancelled); an override whose master is missing is read as an
 * event of its own. A single event keeps its UID; an occurrence's uid is `${UID}#${its
 * RECURRENCE-ID}` (2027-03-05, or 2027-03-05T14:00:00 when timed), the same at every read. Of the
 * occurrences of one series that give the same nights (an hourly rule) the first is kept.
 * Sorted by start, end, uid. Throws on text that is not a calendar; FeedRefusedError on more than
 * FEED_MAX_EVENTS events or more recurrence than MAX_FEED_STEPS.
 */
export function parseFeed(text: string, from: IsoDate, to: IsoDate): BusyEvent[] {
  const root = new ICAL.Component(ICAL.parse(text.replace(/^\uFEFF/, '')));
  if (root.name !== 'vcalendar') throw new Error('not a VCALENDAR');
  const vevents = root.getAllSubcomponents('vevent');
  if (vevents.length > FEED_MAX_EVENTS) throw new FeedRefusedError(TOO_MANY_EVENTS);
  const budget: Budget = { event: MAX_EVENT_STEPS, feed: MAX_FEED_STEPS, zones: MAX_ZONE_STEPS };
  // The feed's own VTIMEZONEs are read by ical.js from this tree, not registered globally (one
  // feed's zone never changes another's); their rules are metered too.
  for (const tz of root.getAllSubcomponents('vtimezone'))
    for (const part of tz.getAllSubcomponents()) meterRules(part, () => spendOnZone(budget));

  const out: BusyEvent[] = [];
  const add: Sink = (uid, start, end, seen) => {
    const range = stayNights(start, end);
    const s = range.first < from ? from : range.first;
    const e = range.end > to ? to : range.end;
    if (!isIsoDate(s) || !isIsoDate(e) || s >= e) return;
    if (seen) {
      if (seen.has(`${s}/${e}`)) return;
      seen.add(`${s}/${e}`);
    }
    out.push({ uid, start: s, end: e });
  };

  // A series is its master and its overrides (RECURRENCE-ID), grouped by UID.
  const series = new Map<string, { masters: ICAL.Component[]; overrides: ICAL.Component[] }>();
  vevents.forEach((vevent, i) => {
    const uid = String(vevent.getFirstPropertyValue('uid') ?? '') || `#${i}`;
    const group = series.get(uid) ?? { masters: [], overrides: [] };
    series.set(uid, group);
    (vevent.hasProperty('recurrence-id') ? group.overrides : group.masters).push(vevent);
  });
  for (const [uid, { masters, overrides }] of series) {
    const [master, ...others] = masters;
    if (master) readSeries(uid, master, overrides, { from, to }, budget, add);
    else for (const o of overrides) readSingle(o, `${uid}#${String(o.getFirstPropertyValue('recurrence-id'))}`, add);
    for (const other of others) readSingle(other, uid, add);
  }
  return out.sort(byNights);
}
