// Business constants of SPEC.md section 9 (and the few DESIGN.md adds). Each lives here once;
// the worker, the site and the tests import them.

export const ADMIN_SESSION_MINUTES = 30;
export const ADMIN_SESSION_MS = ADMIN_SESSION_MINUTES * 60 * 1000;
export const DEFAULT_ADMIN_PATH = 'admin';
export const DEFAULT_ADMIN_USERNAME = 'admin';

export const HOME_CABIN_COUNT = 6;
export const HOME_REVIEW_COUNT = 3;
export const HOME_REVIEW_PREVIEW_CHARS = 150;

// The home gallery's two constants live in a file of their own, so the rotation written into
// the home page (site/islands/home-gallery.ts) carries nothing else of this file.
export { GALLERY_GROUP_SIZE, GALLERY_ROTATION_MS } from './gallery.ts';
export const DEFAULT_GALLERY_IMAGE_COUNT = 5;

export const CATALOGUE_PAGE_SIZE = 12;
export const REVIEWS_PAGE_SIZE = 10;
/**
 * GET /api/cabins answers this many cabins a page (?page=N, from 1), so the public list stays
 * small however large the catalogue grows (~75 KB a page); the build follows its `Link: rel="next"`.
 */
export const API_CABINS_PAGE_SIZE = 100;
export const PAGER_WINDOW = 5;

export const REVIEW_COMMENT_MAX = 1000;
export const REVIEW_COUNTER_WARNING_BELOW = 50;
export const REVIEW_CARD_PREVIEW_CHARS = 120;
export const RATING_MAX = 5;
export const DEFAULT_RATING = 5;

export const CABIN_DEFAULTS = {
  bedrooms: 1,
  bathrooms: 1,
  maxGuests: 2,
  active: true,
  featured: false,
} as const;

export const CONTACT_FORM_DELAY_MS = 1000;

/** Captcha ranges of SPEC.md section 5, inclusive. */
export const CAPTCHA = {
  plus: { a: [1, 20], b: [1, 20] },
  minus: { a: [10, 39], b: [1, 10] },
  times: { a: [1, 10], b: [1, 10] },
  answerMaxLength: 3,
} as const;

export const DEFAULT_CHECK_IN = '14:00';
export const DEFAULT_CHECK_OUT = '12:00';

export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
export const UPLOAD_HINT = 'JPG, PNG, GIF max 10MB each';

export const AMENITY_SUGGESTIONS = [
  'Wi-Fi',
  'Кондиционер',
  'Терраса',
  'Барбекю',
  'Парковка',
  'Стиральная машина',
  'Кухня',
  'Телевизор',
  'Холодильник',
  'Микроволновка',
] as const;

/** Failed logins allowed from one address within the window before 429. */
export const LOGIN_THROTTLE = { maxFailures: 5, windowMs: 15 * 60 * 1000 } as const;
/** Reviews accepted from one address within the window before 429. */
export const REVIEW_THROTTLE = { max: 5, windowMs: 60 * 60 * 1000 } as const;

/**
 * First path segments the admin path may not take: they would shadow the public site,
 * the API, media or build output.
 */
export const RESERVED_PATHS = [
  'api', 'media', 'cabins', 'cabin', 'contacts', 'reviews', 'privacy', 'search', 'shell',
  '_astro', '_headers', '_redirects', 'assets', 'fonts', 'images', 'img', 'demo',
  '404', 'index', 'sitemap.xml', 'sitemap-index.xml', 'robots.txt', 'favicon.ico',
  'favicon.svg', 'build.json', 'manifest.webmanifest',
] as const;

/** Letters, digits, dash and underscore; 3 to 64 characters; starts with a letter or digit. */
export const ADMIN_PATH_PATTERN = /^[a-z0-9][a-z0-9_-]{2,63}$/i;
