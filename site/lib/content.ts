import type { Cabin } from '../../schema/tables.ts';
import type { PublicReview } from '../../worker/queries/reviews.ts';
import type { PublicSettings } from '../../worker/queries/settings.ts';
import { api, must } from './api.ts';

// Build-time content, read once per build and shared by every page that needs it.
const once = <T>(load: () => Promise<T>) => {
  let value: Promise<T> | undefined;
  return () => (value ??= load());
};

export const loadCabins = once(async (): Promise<Cabin[]> => must(await api().cabins.$get(), 'cabins'));
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
export async function cabinPrices(cabin: Pick<Cabin, 'id' | 'pricePerNight'>): Promise<{ from: number | null; min: number; max: number }> {
  const range = (await loadPrices()).get(cabin.id) ?? { min: cabin.pricePerNight, max: cabin.pricePerNight };
  return { ...range, from: range.min < cabin.pricePerNight ? range.min : null };
}
