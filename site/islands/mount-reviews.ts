// The behaviour of the reviews page's two places, which the build drew without it
// (site/pages/reviews.astro): «Оставить отзыв» with its form, and the list's pager, «Читать
// полностью» and ?open=. Loaded by the page's line (reviews-loader.ts) when the visitor reaches
// for one of them; the list's reviews come from the file the same build made.
import { createElement } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { REVIEWS_DATA_PATH, reviewsIdPrefix, type ReviewsPlace } from '../../schema/reviews-page.ts';
import type { PublicReview } from '../lib/reviews-pick.ts';
import ReviewForm from './ReviewForm.tsx';
import ReviewsList from './ReviewsList.tsx';

/** Hydrates one place; rejects (and the next reach tries again) when the reviews cannot be fetched. */
export async function mountReviews(place: ReviewsPlace): Promise<void> {
  const host = document.querySelector<HTMLElement>(`[data-reviews-place="${place}"]`);
  if (!host) return;
  const identifierPrefix = reviewsIdPrefix(place);
  if (place === 'review-form') {
    hydrateRoot(host, createElement(ReviewForm), { identifierPrefix });
    return;
  }
  const res = await fetch(REVIEWS_DATA_PATH);
  if (!res.ok) throw new Error(`${REVIEWS_DATA_PATH}: ${res.status}`);
  const reviews = (await res.json()) as PublicReview[];
  hydrateRoot(host, createElement(ReviewsList, { reviews }), { identifierPrefix });
}
