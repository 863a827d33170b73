// The reviews page's own line (written into the page, no request): it loads the places' module
// (mount-reviews.ts, address in data-module) when the visitor reaches for the form's button or
// the list's buttons, or at once for ?open= (the home page's hand-off to one review), and keeps a
// tap that comes before they work (wake.ts). Astro's island runtime, 1.5 KB of the page's first
// bytes, is not in the page at all.
import { REVIEWS_PLACES, type ReviewsPlace } from '../../schema/reviews-page.ts';
import { wakeOnInteraction } from './wake.ts';

const script = document.currentScript as HTMLScriptElement | null;
const url = script?.dataset.module ?? '';

if (url.startsWith('/_astro/')) {
  const woken = new Set<ReviewsPlace>();
  const wake = (place: ReviewsPlace) => {
    if (woken.has(place)) return;
    woken.add(place);
    void import(/* @vite-ignore */ url)
      .then((m: { mountReviews: (place: ReviewsPlace) => Promise<void> }) => m.mountReviews(place))
      .catch(() => woken.delete(place));
  };
  const open = new URLSearchParams(location.search).has('open');
  for (const [place, targets] of Object.entries(REVIEWS_PLACES) as [ReviewsPlace, string][])
    wakeOnInteraction(place, targets, { now: open && place === 'reviews', wake: () => wake(place) });
}
