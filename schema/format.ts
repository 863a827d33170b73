// Russian formatting of prices, dates and counted nouns: rubles without decimals,
// dates in Russian. Output is the same in the browser, in Node and in Workers.
// It lives in schema/ because both the site and the worker (the owner's notices) use it, and
// worker/ never imports from site/.

/** The no-break space: keeps «12 500 ₽» and «3 спальни» on one line. */
export const NBSP = '\u00a0';

/**
 * A whole number with ru-RU digit grouping, every separator a no-break space: «12 500». Written
 * out, not with Intl.NumberFormat: making one loads the locale's data, which took 225 ms of a
 * phone's CPU (4× slowed) while the booking card woke, for groups of three digits.
 */
export function formatNumber(n: number): string {
  const whole = Math.round(n);
  if (!Number.isFinite(whole)) return String(whole);
  const digits = String(Math.abs(whole));
  let grouped = '';
  for (let end = digits.length; end > 0; end -= 3)
    grouped = digits.slice(Math.max(0, end - 3), end) + (grouped ? NBSP + grouped : '');
  return whole < 0 ? `-${grouped}` : grouped;
}

/** A price in rubles: «12 500 ₽» (no-break spaces, no kopecks). */
export function formatPrice(rubles: number): string {
  return `${formatNumber(rubles)}${NBSP}₽`;
}

/** A price line's amount: «2 200 ₽», or with a real minus sign «−2 200 ₽» for a discount or a code. */
export const formatLineAmount = (amount: number): string =>
  amount < 0 ? `\u2212${formatPrice(-amount)}` : amount === 0 ? 'бесплатно' : formatPrice(amount);

/** The admin list's price line: «12 500 ₽/ночь». */
export function formatPricePerNight(rubles: number): string {
  return `${formatPrice(rubles)}/ночь`;
}

/** Month names in the nominative, as a month's heading needs them. */
export const MONTHS_NOMINATIVE = [
  'Январь',
  'Февраль',
  'Март',
  'Апрель',
  'Май',
  'Июнь',
  'Июль',
  'Август',
  'Сентябрь',
  'Октябрь',
  'Ноябрь',
  'Декабрь',
] as const;

/** «Июль 2025» of a date or a month (`2025-07-14`, `2025-07`): the heading of a month. */
export const formatMonthYear = (date: string): string =>
  `${MONTHS_NOMINATIVE[Number(date.slice(5, 7)) - 1]} ${date.slice(0, 4)}`;

/** Month names in the genitive, as a Russian date needs them. */
export const MONTHS_GENITIVE = [
  'января',
  'февраля',
  'марта',
  'апреля',
  'мая',
  'июня',
  'июля',
  'августа',
  'сентября',
  'октября',
  'ноября',
  'декабря',
] as const;

/** The site's time zone, Moscow time (UTC+3 all year), in which instants are dated. */
export const SITE_UTC_OFFSET_MINUTES = 180;

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A calendar date from «YYYY-MM-DD» (as an <input type="date"> gives it), or null when the
 * text is not a real date (2026-02-30 is not).
 */
export function parseCalendarDate(text: string): { year: number; month: number; day: number } | null {
  const m = CALENDAR_DATE.exec(text.trim());
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return { year, month, day };
}

/**
 * A date in Russian without the «г.» suffix: «5 марта 2026». Takes a calendar date
 * «YYYY-MM-DD» as is; takes an instant (ISO text such as a review's created_at, a Date or
 * milliseconds) as the day it is in Moscow. Returns '' for anything unreadable.
 */
export function formatDate(value: string | number | Date): string {
  if (typeof value === 'string') {
    const cal = parseCalendarDate(value);
    if (cal) return `${cal.day} ${MONTHS_GENITIVE[cal.month - 1]} ${cal.year}`;
  }
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) return '';
  const local = new Date(ms + SITE_UTC_OFFSET_MINUTES * 60_000);
  return `${local.getUTCDate()} ${MONTHS_GENITIVE[local.getUTCMonth()]} ${local.getUTCFullYear()}`;
}

/** The three forms of a Russian noun: for 1, for 2–4, for 5–20 (спальня, спальни, спален). */
export type PluralForms = readonly [one: string, few: string, many: string];

/** The form of the noun that goes with n: 1, 21, 101 → one; 2–4, 22–24 → few; 0, 5–20, 111 → many. */
export function plural(n: number, forms: PluralForms): string {
  const abs = Math.abs(n);
  if (!Number.isInteger(abs)) return forms[1]; // 1,5 спальни
  const mod10 = abs % 10;
  const mod100 = abs % 100;
  if (mod10 === 1 && mod100 !== 11) return forms[0];
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return forms[1];
  return forms[2];
}

/** The number and its noun, joined by a no-break space: «3 спальни». */
export function countOf(n: number, forms: PluralForms): string {
  return `${n}${NBSP}${plural(n, forms)}`;
}

export const FORMS = {
  bedrooms: ['спальня', 'спальни', 'спален'],
  bathrooms: ['ванная', 'ванные', 'ванных'],
  guests: ['гость', 'гостя', 'гостей'],
  objects: ['объект', 'объекта', 'объектов'],
  nights: ['ночь', 'ночи', 'ночей'],
  reviews: ['отзыв', 'отзыва', 'отзывов'],
} as const satisfies Record<string, PluralForms>;

export const formatBedrooms = (n: number): string => countOf(n, FORMS.bedrooms);
export const formatBathrooms = (n: number): string => countOf(n, FORMS.bathrooms);
export const formatGuests = (n: number): string => countOf(n, FORMS.guests);
export const formatObjects = (n: number): string => countOf(n, FORMS.objects);
export const formatNights = (n: number): string => countOf(n, FORMS.nights);
export const formatReviews = (n: number): string => countOf(n, FORMS.reviews);
/** An age after «до» (the genitive): «до 1 года», «до 5 лет», «до 21 года». */
export const formatYears = (n: number): string => `${n}${NBSP}${n % 10 === 1 && n % 100 !== 11 ? 'года' : 'лет'}`;
/** Children with their ages, as the owner and the guest read them: «2 ребёнка (возраст: 3, 9)»; none: ''. */
export const formatChildren = (ages: readonly number[]): string =>
  ages.length === 0 ? '' : `${countOf(ages.length, ['ребёнок', 'ребёнка', 'детей'])} (возраст: ${ages.join(', ')})`;

/** The first letter of a name, upper-cased, for a review's avatar; «?» when there is none. */
export function initial(name: string): string {
  const first = Array.from(name.trim())[0];
  return first ? first.toLocaleUpperCase('ru-RU') : '?';
}

/**
 * A stay's dates, nights [start, end) with `end` the departure day: «5–8 марта 2027»,
 * «30 марта — 2 апреля 2027», «30 декабря 2026 — 3 января 2027».
 */
export function formatStayDates(start: string, end: string): string {
  const [y1, m1, d1] = start.split('-').map(Number) as [number, number, number];
  const [y2, m2, d2] = end.split('-').map(Number) as [number, number, number];
  const month = (m: number) => MONTHS_GENITIVE[m - 1];
  if (y1 === y2 && m1 === m2) return `${d1}–${d2} ${month(m1)} ${y1}`;
  if (y1 === y2) return `${d1} ${month(m1)} — ${d2} ${month(m2)} ${y1}`;
  return `${d1} ${month(m1)} ${y1} — ${d2} ${month(m2)} ${y2}`;
}

/** The clock time in Moscow of an instant (ISO string): «16:05», for when a hold runs out. */
export function formatMoscowTime(iso: string): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return '';
  const d = new Date(ms + SITE_UTC_OFFSET_MINUTES * 60_000);
  return `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
}
