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
