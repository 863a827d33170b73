/** Domains whose map frames we render; anything else shows the placeholder. */
export const MAP_DOMAINS = [
  'yandex.ru',
  'yandex.com',
  'yandex.by',
  'yandex.kz',
  'yandex.uz',
  'yandex.com.tr',
  'google.com',
  'google.ru',
] as const;
/** The same domains as CSP frame-src sources, for the site's pages and the worker's. */
export const MAP_FRAME_SOURCES = MAP_DOMAINS.flatMap((d) => [`https://${d}`, `https://*.${d}`]);
const MAP_HOST = new RegExp(
  `^(?:[a-z0-9-]+\\.)*(?:${MAP_DOMAINS.map((d) => d.replace(/\./g, '\\.')).join('|')})$`,
  'i',
);

/**
 * The `src` of the first <iframe> in the admin's map code, if it is an https Yandex Maps or
 * Google Maps address; otherwise null.
 */
export function extractMapSrc(code: string | null | undefined): string | null {
  if (!code) return null;
  // The opening tag, letting quoted values contain «>».
  const iframe = /<iframe\b((?:[^>"']|"[^"]*"|'[^']*')*)>/i.exec(code);
  if (!iframe) return null;
  // Walk the attributes one by one, so neither data-src nor a «src=» inside another
  // attribute's value is taken for the src.
  let raw: string | undefined;
  for (const a of iframe[1]!.matchAll(/([^\s"'>\/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    if (a[1]!.toLowerCase() === 'src') {
      raw = a[2] ?? a[3] ?? a[4];
      break;
    }
  }
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw.replace(/&amp;/g, '&'), 'https://invalid.invalid');
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || !MAP_HOST.test(url.hostname)) return null;
  // Yandex: the maps hosts (api-maps.yandex.ru, maps.yandex.ru) or the /map-widget and /maps
  // paths, not any Yandex page with «map» somewhere in its path (disk.yandex.ru/i/map…).
  const isYandexMap =
    /yandex\./i.test(url.hostname) &&
    (/^(?:[a-z0-9-]+\.)*(?:api-)?maps\.yandex\./i.test(url.hostname) ||
      /^\/(?:map-widget|maps)(?:\/|$)/i.test(url.pathname));
  const isGoogleMap = /google\./i.test(url.hostname) && /^\/maps(?:\/|$)/.test(url.pathname);
  return isYandexMap || isGoogleMap ? url.href : null;
}

/** A point on the map: what schema.org's GeoCoordinates and the search engines' cards take. */
export type MapPoint = { latitude: number; longitude: number };

const inRange = (latitude: number, longitude: number): MapPoint | null =>
  Number.isFinite(latitude) && Number.isFinite(longitude) && Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180
    ? { latitude, longitude }
    : null;

/**
 * Where the owner's map points, read from its frame's address (extractMapSrc): Yandex writes the
 * point as `pt=` or the centre as `ll=` (longitude first), Google's embed as `!3d<lat>!2d<lon>` or
 * `q=<lat>,<lon>`. A map made in Yandex's constructor carries no point in its address: null then.
 */
export function mapPoint(src: string | null): MapPoint | null {
  if (!src) return null;
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return null;
  }
  const pair = (v: string | null) => v?.split(',').slice(0, 2).map(Number);
  if (/yandex\./i.test(url.hostname)) {
    const [lon, lat] = pair(url.searchParams.get('pt')) ?? pair(url.searchParams.get('ll')) ?? [];
    return lon === undefined || lat === undefined ? null : inRange(lat, lon);
  }
  const pb = url.searchParams.get('pb') ?? '';
  const lat = /!3d(-?\d+(?:\.\d+)?)/.exec(pb)?.[1];
  const lon = /!2d(-?\d+(?:\.\d+)?)/.exec(pb)?.[1];
  if (lat && lon) return inRange(Number(lat), Number(lon));
  const [qLat, qLon] = pair(url.searchParams.get('q')) ?? [];
  return qLat === undefined || qLon === undefined ? null : inRange(qLat, qLon);
}
