// The home page hands a review to /reviews: clicking opens /reviews with the review passed in
// navigation state. Between static pages the state is the address:
// /reviews?open={id} opens that review's modal, then the address is reset to /reviews.
import { SAMPLE_REVIEWS, type PublicReview } from './reviews-pick.ts';

/** The address that opens a review's modal on /reviews. */
export const reviewHref = (id: number): string => `/reviews?open=${id}`;

/** The review id in a ?open= query, or null. */
export function openParam(search: string): number | null {
  const value = new URLSearchParams(search).get('open');
  if (value === null || !/^-?\d+$/.test(value.trim())) return null;
  return Number(value);
}

/** The review a ?open= id names: one of the page's reviews, or a built-in sample (negative ids). */
export function findReview<T extends { id: number }>(
  reviews: readonly T[],
  id: number | null,
): T | PublicReview | null {
  if (id === null) return null;
  return reviews.find((r) => r.id === id) ?? SAMPLE_REVIEWS.find((r) => r.id === id) ?? null;
}
