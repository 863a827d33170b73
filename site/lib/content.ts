import type { Cabin } from '../../schema/tables.ts';
import type { PublicReview } from '../../worker/queries/reviews.ts';
import type { PublicSettings } from '../../worker/queries/settings.ts';
import { api, must } from './api.ts';

/** Build-time content, read once per build and shared by every page that needs it (and the page keys). */
export const once = <T>(load: () => Promise<T>) => {
  let value: Promise<T> | undefined;
  return () => (value ??= load());
};

/** Every active cabin: the public list is paged, so its pages are read until no `rel="next"` is left. */
export const loadCabins = once(async (): Promise<Cabin[]> => {
  const all: Cabin[] = [];
  for (let page = 1; ; page++) {
    const res = await api().cabins.$get({ query: { page: String(page) } });
    // The route's 400 (a bad page number) is in its type too; must() throws on any non-2xx.
    all.push(...((await must<unknown>(res, `cabins, page ${page}`)) as Cabin[]));
    if (!/rel="next"/.test(res.headers.get('link') ?? '')) return all;
  }
});
export const loadSettings = once(async (): Promise<PublicSettings> => must(await api().settings.$get(), 'settings'));
export const loadApprovedReviews = once(
  async (): Promise<PublicReview[]> => must(await api().reviews.approved.$get(), 'approved reviews'),
);

/** Each active cabin's price range over the next 12 months (base price and seasons). */
export const loadPrices = once(async (): Promise<Map<number, { min: number; max: number }>> => {
  const { prices } = await must(await api().prices.$get(), 'prices');
  return new Map(prices.map((p) => [p.cabinId, { min: p.min, max: p.max }]));
});

/**
 * The cabin's prices for the pages: the lowest a night costs (shown as «от N ₽» only when a
 * season is cheaper than the price per night) and the highest.
 */
export async function cabinPrices(
  cabin: Pick<Cabin, 'id' | 'pricePerNight'>,
): Promise<{ from: number | null; min: number; max: number }> {
  const range = (await loadPrices()).get(cabin.id) ?? { min: cabin.pricePerNight, max: cabin.pricePerNight };
  return { ...range, from: range.min < cabin.pricePerNight ? range.min : null };
}
