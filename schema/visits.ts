// Where visitors come from and how far they get (docs/api.md «Visits and sources»): the beacon a
// public page sends, the source a booking carries, and the caps that keep fake beacons from
// growing the database. Plain zod: the pages' small counting script reads the kinds and keys.
import { z } from 'zod';
import { MSG } from './messages.ts';

/**
 * What a beacon counts: a page view, a search, a cabin's card opened, dates chosen on it, a
 * request sent, a payment made. Requests and payments are also counted from the bookings
 * themselves, which the funnel reads (a beacon may be dropped; a booking is not).
 */
export const BEACON_KINDS = ['view', 'search', 'card', 'dates', 'request', 'pay'] as const;
export type BeaconKind = (typeof BEACON_KINDS)[number];

/** The three campaign tags a link may carry, as the visit's first page had them. */
export const UTM_KEYS = ['utm_source', 'utm_medium', 'utm_campaign'] as const;

/** A visit's source as a booking keeps it: the link's tags and the host of the page that sent the visitor. */
const tag = z
  .string()
  .max(2000)
  .transform((v) => v.trim().slice(0, 100))
  .optional();
export const bookingSourceSchema = z
  .strictObject({
    utmSource: tag,
    utmMedium: tag,
    utmCampaign: tag,
    /** Kept as its host alone (`yandex.ru`), never the address: a referring page's address may carry a token. */
    referrer: z.string().max(2000).optional(),
  })
  .transform((s) => {
    const referrer = s.referrer ? hostOf(s.referrer) : undefined;
    return dropEmpty({ ...s, referrer });
  });
export type BookingSource = z.output<typeof bookingSourceSchema>;

/**
 * `POST /api/beacon`: `path` is the page's path (a guest's page and any query are dropped before
 * anything is stored); `ref` the referring page's address or host; `utm` the visit's tags;
 * `landing` marks the first page of a visit, which the funnel counts as the visit.
 */
export const beaconSchema = z.strictObject({
  kind: z.enum(BEACON_KINDS, { error: MSG.badInput }),
  path: z.string({ error: MSG.badInput }).max(300, MSG.tooLong).startsWith('/', MSG.badInput),
  ref: z.string({ error: MSG.badInput }).max(2000, MSG.tooLong).optional(),
  utm: z
    .strictObject({
      source: z.string().max(100).optional(),
      medium: z.string().max(100).optional(),
      campaign: z.string().max(100).optional(),
    })
    .optional(),
  landing: z.boolean().optional(),
  cabinId: z.number().int().positive().optional(),
});
export type Beacon = z.infer<typeof beaconSchema>;

/** Where the pages' counting module's address goes in the built pages (scripts/build-site.ts writes it in). */
export const VISIT_COUNT_MARKER = '__VISIT_COUNT_URL__';
/** The built module's file name in _astro/: site/islands/visit-count.ts. */
export const VISIT_COUNT_CHUNK = /^visit-count\.[\w-]+\.js$/;

/** A day's rows per source at most: past it, the views of a source count on one row «другие страницы». */
export const VISIT_PATHS_PER_SOURCE_DAY = 200;
/** A day's sources at most: past it, a new source counts as «другие». */
export const VISIT_SOURCES_PER_DAY = 100;
/** Beacons one address may send in a minute; past it they are dropped (and counted as dropped). */
export const BEACONS_PER_MINUTE = 60;

/** Where visits without tags and without another site's referrer come from. */
export const DIRECT_SOURCE = 'прямые заходы';
/** The row more sources or pages than the caps allow count on. */
export const OTHER_SOURCE = 'другие';
export const OTHER_PATH = '*';

/** The host of an address or of a bare host, lower case, without `www.`; undefined when it is neither. */
export function hostOf(value: string): string | undefined {
  const raw = value.trim();
  if (!raw) return undefined;
  try {
    const host = new URL(raw.includes('://') ? raw : `https://${raw}`).hostname.toLowerCase();
    return host.replace(/^www\./, '') || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The source a visit is counted under: its `utm_source`, else the host of another site that sent
 * it, else «прямые заходы». Lower case and trimmed, so «VK» and «vk» are one source.
 */
export function visitSource(
  tags: { source?: string | undefined } | undefined,
  ref: string | undefined,
  ownHost: string | undefined,
): string {
  const tagged = tags?.source?.trim().toLowerCase();
  if (tagged) return tagged.slice(0, 100);
  const host = ref ? hostOf(ref) : undefined;
  if (host && host !== ownHost?.replace(/^www\./, '')) return host;
  return DIRECT_SOURCE;
}

/** The source a booking is reported under: its tags, else its referrer, else a direct visit. */
export const bookingSourceName = (s: BookingSource | null | undefined): string =>
  visitSource({ source: s?.utmSource }, s?.referrer, undefined);

/** A booking's source as «Заявки» and the accountant's file show it: «vk · cpc · leto», «yandex.ru», or '' when unknown. */
export function sourceLabel(s: BookingSource | null | undefined): string {
  if (!s) return '';
  const tags = [s.utmSource, s.utmMedium, s.utmCampaign].filter(Boolean).join(' · ');
  return tags || s.referrer || '';
}

/**
 * The path a beacon is counted under: no query or fragment, and a guest's own page never (its
 * address is the key to their booking): undefined then, and nothing is stored.
 */
export function countedPath(path: string): string | undefined {
  const bare = path.split(/[?#]/, 1)[0] ?? '';
  if (!bare.startsWith('/') || bare.startsWith('//')) return undefined;
  if (bare === '/b' || bare.startsWith('/b/')) return undefined;
  return bare.length > 200 ? bare.slice(0, 200) : bare;
}

function dropEmpty<T extends Record<string, string | undefined>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;
}
