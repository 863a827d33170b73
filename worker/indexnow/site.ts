// Whether IndexNow is on here, its key, and the live site's pages as the build listed them.
import { DEFAULT_SETTINGS } from '../../schema/defaults.ts';
import { INDEXNOW_OFF_NO_DOMAIN } from '../../schema/indexnow.ts';
import { readSitePages, SITE_PAGES_PATH, type SitePages } from '../../schema/site-pages.ts';
import type { Bindings } from '../env.ts';
import { getSettings } from '../queries/settings.ts';

export type IndexNowSite = { on: true; origin: string; host: string } | { on: false; why: string };

/**
 * IndexNow is on only where SITE_URL is an https address on a domain of the site's own: a search
 * engine checks the key at that address, so a local address or a bare IP would only earn refusals
 * (and `npm start`'s local SITE_URL keeps it off).
 */
export function indexNowSite(env: Pick<Bindings, 'SITE_URL'>): IndexNowSite {
  let url: URL;
  try {
    url = new URL(env.SITE_URL?.trim() ?? '');
  } catch {
    return { on: false, why: INDEXNOW_OFF_NO_DOMAIN };
  }
  const host = url.hostname.toLowerCase();
  const local =
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host.startsWith('[') ||
    /^\d{1,3}(?:\.\d{1,3}){3}$/.test(host) ||
    !host.includes('.');
  if (url.protocol !== 'https:' || local) return { on: false, why: INDEXNOW_OFF_NO_DOMAIN };
  return { on: true, origin: url.origin, host: url.host };
}

/** 32 hex characters from the platform's random source. */
const newKey = () =>
  [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');

/**
 * The IndexNow key, made and stored when there is none yet. The write keeps a key already there
 * (set by the owner, or by a run at the same moment), so two runs at once end with one key: both
 * read back the one that was stored.
 */
export async function ensureIndexNowKey(env: Pick<Bindings, 'DB'>): Promise<string> {
  const current = (await getSettings(env)).promotion.indexNowKey;
  if (current) return current;
  const key = newKey();
  await env.DB.prepare(
    `INSERT INTO settings (key, value) VALUES ('promotion', ?1)
     ON CONFLICT (key) DO UPDATE SET value = json_set(settings.value, '$.indexNowKey', ?2)
     WHERE coalesce(json_extract(settings.value, '$.indexNowKey'), '') = ''`,
  )
    .bind(JSON.stringify({ ...DEFAULT_SETTINGS.promotion, indexNowKey: key }), key)
    .run();
  return (await getSettings(env)).promotion.indexNowKey;
}

/** The live site's /site-pages.json, read through the site port; null while it has none. */
export async function livePages(env: Pick<Bindings, 'ASSETS'>, origin: string): Promise<SitePages | null> {
  try {
    const res = await env.ASSETS.fetch(new URL(SITE_PAGES_PATH, origin));
    if (!res.ok) return null;
    return readSitePages(await res.json());
  } catch {
    return null;
  }
}
