// The reviews page (/reviews) is drawn by the build with no script; a line in it hydrates its two
// places with behaviour when the visitor reaches for them (site/islands/reviews-loader.ts).

/** In /reviews: the address of its module (site/islands/mount-reviews.ts), written in by the build (scripts/build-site.ts). */
export const REVIEWS_MODULE_MARKER = '__REVIEWS_MODULE_URL__';
/** The built module's file name in _astro/. */
export const REVIEWS_MODULE_CHUNK = /^mount-reviews\.[\w-]+\.js$/;
/** Every approved review, as the list shows them, made with the page by the same build (site/pages/reviews.json.ts). */
export const REVIEWS_DATA_PATH = '/reviews.json';
/** The places that hydrate: the form's button and the list, and the controls that wake each. */
export const REVIEWS_PLACES = { 'review-form': '.review-toggle', reviews: '.reviews-list button' } as const;
export type ReviewsPlace = keyof typeof REVIEWS_PLACES;
/** React's prefix of the ids in each place, the same when the build draws it and when it hydrates. */
export const reviewsIdPrefix = (place: ReviewsPlace) => `${place}-`;
