/** Hosts whose map frames we render; anything else shows the placeholder (SPEC.md section 5). */
const MAP_HOST = /^(?:[a-z0-9-]+\.)*(?:yandex\.(?:ru|com|by|kz|uz|com\.tr)|google\.(?:com|ru))$/i;

/**
 * The `src` of the first <iframe> in the admin's map code, if it is an https Yandex Maps or
 * Google Maps address; otherwise null.
 */
export function extractMapSrc(code: string | null | undefined): string | null {
  if (!code) return null;
  const iframe = /<iframe\b[^>]*>/i.exec(code);
  if (!iframe) return null;
  const src = /\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(iframe[0]);
  const raw = src && (src[1] ?? src[2] ?? src[3]);
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw.replace(/&amp;/g, '&'), 'https://invalid.invalid');
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || !MAP_HOST.test(url.hostname)) return null;
  const isYandexMap = /yandex\./i.test(url.hostname) && /map/i.test(url.hostname + url.pathname);
  const isGoogleMap = /google\./i.test(url.hostname) && /^\/maps\b/.test(url.pathname);
  return isYandexMap || isGoogleMap ? url.href : null;
}
