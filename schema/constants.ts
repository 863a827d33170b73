// Business constants (the contract in docs/api.md and docs/features.md). Each lives here once;
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

/** Captcha ranges of the review form, inclusive. */
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

/**
 * How wrong guesses at a secret are slowed: the first `free` are answered at once; after them the
 * next guess waits `firstWaitMs` from the last wrong one, twice as long after every further wrong
 * one, never longer than `maxWaitMs`; after `forgetMs` without a wrong guess the count starts over.
 * A wait, never a lock: guessing wrong on purpose keeps nobody out for longer than `maxWaitMs`.
 */
export type GuessSchedule = {
  readonly free: number;
  readonly firstWaitMs: number;
  readonly maxWaitMs: number;
  readonly forgetMs: number;
};

const SIGN_IN_WAITS = { firstWaitMs: 30 * 1000, maxWaitMs: 15 * 60 * 1000, forgetMs: 24 * 60 * 60 * 1000 } as const;

/**
 * Sign-in guesses (docs/security.md). A password is counted against the login typed, from any
 * address, and against the address (an IPv6 address by its /64); from a browser that signed in
 * as that login before (its device cookie) against that browser instead of the login, so a
 * stranger's guesses do not keep the person out. A person's two-factor codes (and the password
 * asked again in «Аккаунт») are counted against that person.
 */
export const LOGIN_THROTTLE = {
  login: { free: 5, ...SIGN_IN_WAITS },
  // Higher: an office or a mobile operator may put several people behind one address.
  address: { free: 10, ...SIGN_IN_WAITS },
  device: { free: 5, ...SIGN_IN_WAITS },
  code: { free: 5, ...SIGN_IN_WAITS },
} as const satisfies Record<string, GuessSchedule>;
/** How long a browser that signed in stays a known device of its login (the cookie's life). */
export const DEVICE_COOKIE_MS = 365 * 24 * 60 * 60 * 1000;
/**
 * Promo codes refused to one address (an IPv6 /64), in GET /api/quote and POST /api/bookings: a
 * guest mistypes a few; a script trying the alphabet soon waits an hour for each try.
 */
export const PROMO_THROTTLE = {
  free: 10,
  firstWaitMs: 60 * 1000,
  maxWaitMs: 60 * 60 * 1000,
  forgetMs: 24 * 60 * 60 * 1000,
} as const satisfies GuessSchedule;
/** GET /api/quote answered to one address within the window before 429: a guest re-prices on every date they tap. */
export const QUOTE_THROTTLE = { max: 120, windowMs: 60 * 1000 } as const;
/** Reviews accepted from one address within the window before 429. */
export const REVIEW_THROTTLE = { max: 5, windowMs: 60 * 60 * 1000 } as const;

/**
 * First path segments the admin path may not take: they would shadow the public site,
 * the API, media or build output.
 */
export const RESERVED_PATHS = [
  'api',
  'media',
  'cabins',
  'cabin',
  'contacts',
  'reviews',
  'privacy',
  'search',
  'shell',
  '_astro',
  '_headers',
  '_redirects',
  'assets',
  'fonts',
  'images',
  'img',
  'demo',
  '404',
  'index',
  'sitemap.xml',
  'sitemap-index.xml',
  'robots.txt',
  'favicon.ico',
  'favicon.svg',
  'build.json',
  'manifest.webmanifest',
] as const;

/** Letters, digits, dash and underscore; 3 to 64 characters; starts with a letter or digit. */
export const ADMIN_PATH_PATTERN = /^[a-z0-9][a-z0-9_-]{2,63}$/i;
