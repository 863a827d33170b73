// Which pages a build renders. A page made for each cabin (its page, its /search card) or for a
// slice of the catalogue has a key: a digest of exactly the data it shows. The build writes every
// key into /build-pages.json; the next build reads the live one (BUILD_LIVE_PAGES) and renders
// only the pages whose key changed, and scripts/build-site.ts keeps the rest of the live site.
// The few pages made once per site (home, catalogue's first page, reviews, contacts, sitemap…)
// show the whole catalogue or the settings and are rendered every time. Anything that every page
// shows (the settings: header, footer, phone) or the code and addresses the pages are made with
// changes the site key, and then every page is rendered.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Cabin } from '../../schema/tables.ts';
import { CATALOGUE_PAGE_SIZE } from '../../schema/constants.ts';
import { cabinPrices, loadCabins, loadSettings, once } from './content.ts';
import { totalPages } from './pager.ts';
import { footerYear } from './site.ts';

/**
 * What /build-pages.json holds. The same for a partial build and a full one of the same data; the
 * build knows it rendered only the changed pages when the site key equals the live one.
 */
export type PagesManifest = { site: string; pages: Record<string, string> };

/** A page of a route with one page per item: its address, its key, what the route renders it from. */
export type KeyedPage<P> = { path: string; key: string; props: P };

const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 22);

/**
 * The data one cabin's page and card show, by cabin: the cabin and its prices (settings are in the
 * site key). Made once a build: the page and the card share it.
 */
const cabinKeys = once(async () => {
  const cabins = await loadCabins();
  return new Map(
    await Promise.all(
      cabins.map(async (cabin) => [cabin.id, digest({ cabin, prices: await cabinPrices(cabin) })] as const),
    ),
  );
});

/** /cabin/{id}: one page per active cabin. */
export const cabinPages = once(async (): Promise<KeyedPage<{ cabin: Cabin }>[]> => {
  const keys = await cabinKeys();
  return (await loadCabins())
    .filter((c) => c.active)
    .map((cabin) => ({ path: `/cabin/${cabin.id}`, key: keys.get(cabin.id)!, props: { cabin } }));
});

/** /shell/cards/{id}: the card /search fills in, one per listed cabin. */
export const cardPages = once(async (): Promise<KeyedPage<{ cabin: Cabin }>[]> => {
  const keys = await cabinKeys();
  return (await loadCabins()).map((cabin) => ({
    path: `/shell/cards/${cabin.id}`,
    key: keys.get(cabin.id)!,
    props: { cabin },
  }));
});

/**
 * /cabins/2, /cabins/3, …: each shows its 12 cards, the pager (the number of pages) and a
 * description with the count and the lowest price (components/Catalogue.astro).
 */
export const cataloguePages = once(async (): Promise<KeyedPage<{ page: number }>[]> => {
  const cabins = await loadCabins();
  const pages = totalPages(cabins.length, CATALOGUE_PAGE_SIZE);
  const whole = { count: cabins.length, lowest: Math.min(...cabins.map((c) => c.pricePerNight)) };
  return Promise.all(
    Array.from({ length: Math.max(0, pages - 1) }, async (_, i) => {
      const page = i + 2;
      const shown = cabins.slice((page - 1) * CATALOGUE_PAGE_SIZE, page * CATALOGUE_PAGE_SIZE);
      const cards = await Promise.all(shown.map(async (cabin) => ({ cabin, prices: await cabinPrices(cabin) })));
      return { path: `/cabins/${page}`, key: digest({ ...whole, pages, cards }), props: { page } };
    }),
  );
});

/**
 * What every page shows or is made with: the settings, the footer's year, the code
 * (BUILD_CODE_KEY) and the addresses (Metrika's too). No page made per cabin shows anything else that changes
 * with the clock: the prices "from" are data the API computes for the next 12 months.
 */
const siteKey = once(async () =>
  digest({
    code: process.env.BUILD_CODE_KEY ?? null,
    site: process.env.SITE_URL ?? null,
    api: process.env.API_URL ?? null,
    // The Metrika host the pages load the counter from (and their CSP allows).
    metrika: process.env.METRIKA_URL ?? null,
    year: footerYear(),
    settings: await loadSettings(),
  }),
);

/** The live site's manifest, when the build was given one that a partial build may start from. */
const liveManifest = once(async (): Promise<PagesManifest | null> => {
  const file = process.env.BUILD_LIVE_PAGES;
  if (!file) return null;
  try {
    const live = JSON.parse(readFileSync(file, 'utf8')) as PagesManifest;
    return live.site === (await siteKey()) && live.pages && typeof live.pages === 'object' ? live : null;
  } catch {
    return null;
  }
});

/** The pages of a route this build renders: all of them, or in a partial build those whose key changed. */
export async function toRender<P>(
  pages: KeyedPage<P>[],
  param: string,
): Promise<{ params: Record<string, string>; props: P }[]> {
  const live = await liveManifest();
  return (
    pages
      .filter((p) => !live || live.pages[p.path] !== p.key)
      // Each keyed route's one parameter is its address's last segment ([id], [page]).
      .map((p) => ({ params: { [param]: p.path.slice(p.path.lastIndexOf('/') + 1) }, props: p.props }))
  );
}

/** The manifest of this build: every keyed page's key, whether or not it was rendered now. */
export async function buildManifest(): Promise<PagesManifest> {
  const all = (await Promise.all([cabinPages(), cardPages(), cataloguePages()])).flat();
  return { site: await siteKey(), pages: Object.fromEntries(all.map((p) => [p.path, p.key])) };
}
