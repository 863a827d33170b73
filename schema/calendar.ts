import { z } from 'zod';
import { addMonths, isIsoDate, todayInMoscow, type IsoDate } from './dates.ts';
import { MSG } from './messages.ts';

/** Availability and exports look this far ahead; input may reach 18 months ahead. */
export const CALENDAR_HORIZON_MONTHS = 12;
export const CALENDAR_INPUT_MONTHS = 18;
export const MAX_SEASONS = 50;
export const MAX_FEEDS = 10;
export const MIN_NIGHTS_MAX = 365;
/** An imported calendar may be this large, hold this many events (VEVENTs) and take this long, no more. */
export const FEED_MAX_BYTES = 5 * 1024 * 1024;
export const FEED_MAX_EVENTS = 10_000;
export const FEED_TIMEOUT_MS = 10_000;
/** Imported feeds are fetched on this schedule (Cron Trigger on Workers, a timer on Node). */
export const FEED_SYNC_EVERY_MS = 5 * 60_000;
/**
 * A feed that had nights ahead came back with none: its last import is kept (a broken or expired
 * export link must never free every night at once) until the owner accepts the empty calendar.
 */
export const FEED_EMPTY_HELD =
  'Календарь пришёл пустым, хотя в нём были занятые даты. Прежние даты сохранены: если на площадке действительно всё свободно, нажмите «Принять пустой календарь»';

const isoDate = z.string().refine(isIsoDate, MSG.dateInvalid);
/** A weekend nights' price, a cabin's or a season's: null, as on other nights. */
export const weekendPrice = z
  .number({ error: MSG.weekendPriceInvalid })
  .int(MSG.weekendPriceInvalid)
  .min(1, MSG.weekendPriceInvalid)
  .max(10_000_000, MSG.weekendPriceInvalid)
  .nullable()
  .optional();
const minNights = z
  .number({ error: MSG.minNightsInvalid })
  .int(MSG.minNightsInvalid)
  .min(1, MSG.minNightsInvalid)
  .max(MIN_NIGHTS_MAX, MSG.minNightsInvalid);

/** ISO weekdays (1 Monday … 7 Sunday) closed to arrival or departure, each once. */
const closedDays = z
  .array(
    z
      .number({ error: MSG.closedDaysInvalid })
      .int(MSG.closedDaysInvalid)
      .min(1, MSG.closedDaysInvalid)
      .max(7, MSG.closedDaysInvalid),
    {
      error: MSG.closedDaysInvalid,
    },
  )
  .max(7, MSG.closedDaysInvalid)
  .refine((days) => new Set(days).size === days.length, MSG.closedDaysInvalid)
  .optional()
  .default([]);

/** Nights [start, end): end after start, not wholly past, not past the input horizon. */
function checkRange(r: { start: string; end: string }, ctx: z.RefinementCtx) {
  if (!isIsoDate(r.start) || !isIsoDate(r.end)) return;
  const today = todayInMoscow();
  if (r.end <= r.start) ctx.addIssue({ code: 'custom', message: MSG.dateRangeInvalid, path: ['end'] });
  else if (r.end <= today) ctx.addIssue({ code: 'custom', message: MSG.datePast, path: ['end'] });
  else if (r.start > addMonths(today, CALENDAR_INPUT_MONTHS))
    ctx.addIssue({ code: 'custom', message: MSG.dateTooFar, path: ['start'] });
}

export const seasonInputSchema = z
  .strictObject({
    start: isoDate,
    end: isoDate,
    pricePerNight: z
      .number({ error: MSG.seasonPriceInvalid })
      .int(MSG.seasonPriceInvalid)
      .min(0, MSG.seasonPriceInvalid)
      .max(10_000_000, MSG.seasonPriceInvalid),
    minNights: minNights.default(1),
    weekendPricePerNight: weekendPrice,
    closedToArrival: closedDays,
    closedToDeparture: closedDays,
    maxNights: z
      .number({ error: MSG.maxNightsInvalid })
      .int(MSG.maxNightsInvalid)
      .min(1, MSG.maxNightsInvalid)
      .max(MIN_NIGHTS_MAX, MSG.maxNightsInvalid)
      .nullable()
      .optional()
      .default(null),
    // The list GET …/calendar answers carries each row's id and cabin: it may be sent back as it
    // is. Both are ignored (the whole list is replaced, for the cabin of the address).
    id: z.unknown().optional(),
    cabinId: z.unknown().optional(),
  })
  .superRefine(checkRange)
  .superRefine((s, ctx) => {
    if (s.maxNights != null && s.maxNights < s.minNights)
      ctx.addIssue({ code: 'custom', message: MSG.maxNightsInvalid, path: ['maxNights'] });
  })
  .transform(({ id: _id, cabinId: _cabinId, ...season }) => season);

/** The whole list of a cabin's seasons, and its minimum stay outside them. */
export const seasonsBodySchema = z
  .strictObject({ seasons: z.array(seasonInputSchema).max(MAX_SEASONS, MSG.tooMany), minNights: minNights.optional() })
  .refine((b) => !overlapping(b.seasons), { message: MSG.seasonsOverlap, path: ['seasons'] });

/** The owner's note on nights closed by hand: seen in the panel only. */
export const BLOCK_NOTE_MAX = 200;

export const blockInputSchema = z
  .strictObject({
    start: isoDate,
    end: isoDate,
    note: z.string().max(BLOCK_NOTE_MAX, MSG.tooLong).optional().default(''),
  })
  .superRefine(checkRange);

export const feedsBodySchema = z.strictObject({
  feeds: z
    .array(
      z.strictObject({
        name: z.string().trim().min(1, MSG.feedNameRequired).max(60, MSG.tooLong),
        url: z.string().trim().max(2000, MSG.tooLong).refine(isHttpUrl, MSG.feedUrlInvalid),
      }),
    )
    .max(MAX_FEEDS, MSG.tooMany),
});

/**
 * The owner's name of a field of the calendar's forms, from a validation issue's path:
 * ['seasons', 1, 'end'] → «Сезон 2, окончание»; ['feeds', 0, 'url'] → «Календарь 1, адрес».
 */
export function calendarFieldName(path: readonly PropertyKey[]): string | undefined {
  const FIELDS: Record<string, string> = {
    start: 'начало',
    end: 'окончание',
    pricePerNight: 'цена за ночь',
    minNights: 'минимальный срок',
    maxNights: 'максимальный срок',
    closedToArrival: 'дни без заезда',
    closedToDeparture: 'дни без выезда',
    note: 'заметка',
    name: 'название',
    url: 'адрес',
  };
  const [first, index, field] = path;
  // A field whose message names it itself («Цена в выходные: …») gets only its row.
  const named = (f: PropertyKey | undefined) => (f !== undefined && FIELDS[String(f)] ? `, ${FIELDS[String(f)]}` : '');
  if (first === 'seasons' && typeof index === 'number') return `Сезон ${index + 1}${named(field)}`;
  if (first === 'feeds' && typeof index === 'number') return `Календарь ${index + 1}${named(field)}`;
  if (first === 'seasons') return 'Сезоны';
  if (first === 'feeds') return 'Календари';
  const name = FIELDS[String(first)];
  return name && name[0]!.toLocaleUpperCase('ru-RU') + name.slice(1);
}

export type SeasonInput = z.infer<typeof seasonInputSchema>;
/** A season to store: its rule of days may be left out (none). */
export type SeasonToStore = Omit<SeasonInput, 'closedToArrival' | 'closedToDeparture' | 'maxNights'> &
  Partial<Pick<SeasonInput, 'closedToArrival' | 'closedToDeparture' | 'maxNights'>>;
export type BlockInput = z.infer<typeof blockInputSchema>;
export type FeedInput = z.infer<typeof feedsBodySchema>['feeds'][number];
export type DateRange = { start: IsoDate; end: IsoDate };

export function overlapping(ranges: DateRange[]): boolean {
  const sorted = [...ranges].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  return sorted.some((r, i) => i > 0 && r.start < sorted[i - 1]!.end);
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !!url.hostname && !url.username && !url.password;
  } catch {
    return false;
  }
}

/**
 * Whether a feed host is inside the network: loopback, private, link-local, CGNAT, unique
 * local IPv6 and the like, by literal address or a name that always means one.
 * (A public name that resolves inside is beyond what a Worker can check; the Node server also
 * checks the DNS answers: worker/platform/node/feed-fetch.ts.)
 */
export function feedHostKind(hostname: string): 'public' | 'loopback' | 'internal' {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    /^127\./.test(host) ||
    host === '0.0.0.0'
  )
    return 'loopback';
  if (
    host.endsWith('.local') ||
    host.endsWith('.internal') ||
    host.endsWith('.lan') ||
    (!host.includes('.') && !host.includes(':'))
  )
    return 'internal';
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    if (
      a === 10 ||
      a === 0 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254) ||
      (a === 100 && b >= 64 && b <= 127) ||
      a >= 224
    )
      return 'internal';
    return 'public';
  }
  if (host.includes(':')) {
    if (/^(fc|fd)/.test(host) || /^fe[89ab]/.test(host) || host === '::' || host.startsWith('::ffff:'))
      return 'internal';
  }
  return 'public';
}
