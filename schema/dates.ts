// Dates of stays: `YYYY-MM-DD` strings end to end. A stay is the nights [checkIn, checkOut):
// checkOut is the departure morning, so a stay ending on a day another begins does not clash.
// Day arithmetic runs on the calendar date alone (Date.UTC on its numbers), never on a local
// midnight, so no time zone can shift a date by one. "Today" is the date in Moscow.

/** A calendar date as `YYYY-MM-DD`. */
export type IsoDate = string;

export const SITE_TIME_ZONE = 'Europe/Moscow';
const DAY_MS = 86_400_000;
/** `YYYY-MM-DD` as an HTML `pattern` (which anchors it itself): the search form's text fields take it. */
export const ISO_DATE_PATTERN = String.raw`(\d{4})-(\d{2})-(\d{2})`;
const ISO = new RegExp(`^${ISO_DATE_PATTERN}$`);

/** True for a real calendar date written as `YYYY-MM-DD` (2027-02-29 is not one). */
export function isIsoDate(value: unknown): value is IsoDate {
  if (typeof value !== 'string') return false;
  const m = ISO.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/**
 * Day numbers of the dates seen lately: a search prices every night of every cabin, and the same
 * few dozen dates come back thousands of times (checking a date costs a regex and a Date).
 */
const dayNumbers = new Map<IsoDate, number>();

const dayNumber = (date: IsoDate): number => {
  const known = dayNumbers.get(date);
  if (known !== undefined) return known;
  const m = ISO.exec(date);
  if (!m || !isIsoDate(date)) throw new RangeError(`Not a date: ${date}`);
  const n = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS;
  if (dayNumbers.size >= 4096) dayNumbers.clear();
  dayNumbers.set(date, n);
  return n;
};

/** The dates of day numbers seen lately, for the same reason: search and pricing walk night by night. */
const dates = new Map<number, IsoDate>();

const fromDayNumber = (n: number): IsoDate => {
  const known = dates.get(n);
  if (known !== undefined) return known;
  const date = new Date(n * DAY_MS).toISOString().slice(0, 10);
  if (dates.size >= 4096) dates.clear();
  dates.set(n, date);
  dayNumbers.set(date, n);
  return date;
};

/** The date `days` later (or earlier, when negative). */
export const addDays = (date: IsoDate, days: number): IsoDate => fromDayNumber(dayNumber(date) + days);

/** The ISO weekday of a date: 1 Monday … 7 Sunday (1970-01-01, day 0, was a Thursday). */
export const isoWeekday = (date: IsoDate): number => ((((dayNumber(date) + 3) % 7) + 7) % 7) + 1;

/** Nights from `start` to `end` (end exclusive); negative when end is before start. */
export const nightsBetween = (start: IsoDate, end: IsoDate): number => dayNumber(end) - dayNumber(start);

/** Every night of [start, end), as the dates of the evenings. */
export function nightsOf(start: IsoDate, end: IsoDate): IsoDate[] {
  const out: IsoDate[] = [];
  for (let n = dayNumber(start), last = dayNumber(end); n < last; n++) out.push(fromDayNumber(n));
  return out;
}

/** Whether the nights [aStart, aEnd) and [bStart, bEnd) share at least one night. */
export const rangesOverlap = (aStart: IsoDate, aEnd: IsoDate, bStart: IsoDate, bEnd: IsoDate): boolean =>
  aStart < bEnd && bStart < aEnd;

/** The calendar date in Moscow at the instant `ms` (default: now). */
export function todayInMoscow(ms: number = Date.now()): IsoDate {
  return moscowDate().format(ms);
}

/**
 * Makes a formatter of Moscow's time at its first use, then keeps it. Not at the module's load:
 * a page's first Intl object loads the browser's locale and time zone data (211 ms of a phone's
 * CPU at 4×, measured as the booking card woke), and the card imports this module for its date
 * checks alone.
 */
function kept(options: Intl.DateTimeFormatOptions): () => Intl.DateTimeFormat {
  let made: Intl.DateTimeFormat | undefined;
  // en-CA formats as YYYY-MM-DD.
  return () => (made ??= new Intl.DateTimeFormat('en-CA', { timeZone: SITE_TIME_ZONE, ...options }));
}

const moscowDate = kept({ year: 'numeric', month: '2-digit', day: '2-digit' });

const moscowClock = kept({
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** The time of day in Moscow at the instant `ms`, as HH:MM. */
export function clockInMoscow(ms: number = Date.now()): string {
  const p = Object.fromEntries(
    moscowClock()
      .formatToParts(ms)
      .map((part) => [part.type, part.value]),
  );
  return `${p.hour}:${p.minute}`;
}

/** The instant (ms) after `ms` at which the date in Moscow turns, by Moscow's offset from UTC at `ms`. */
export function nextDayStartInMoscow(ms: number): number {
  const p = Object.fromEntries(
    moscowClock()
      .formatToParts(ms)
      .map((part) => [part.type, Number(part.value)]),
  );
  const offset =
    Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - (ms - (((ms % 1000) + 1000) % 1000));
  return Date.UTC(p.year!, p.month! - 1, p.day! + 1) - offset;
}

/** The same day `months` later, clamped to the month's end (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(date: IsoDate, months: number): IsoDate {
  const m = ISO.exec(date)!;
  const y = Number(m[1]);
  const mo = Number(m[2]) - 1 + months;
  const last = new Date(Date.UTC(y, mo + 1, 0)).getUTCDate();
  return fromDayNumber(Date.UTC(y, mo, Math.min(Number(m[3]), last)) / DAY_MS);
}
