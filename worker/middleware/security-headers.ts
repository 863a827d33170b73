import { secureHeaders } from 'hono/secure-headers';
import { MAP_FRAME_SOURCES } from '../../schema/map.ts';

/** Headers for every document the worker itself makes (the admin shell, 404), and the base of media's. */
const options: Parameters<typeof secureHeaders>[0] = {
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    frameAncestors: ["'none'"],
    formAction: ["'self'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    // Astro's hydration scripts and component styles are inline.
    scriptSrc: ["'self'", "'unsafe-inline'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    frameSrc: MAP_FRAME_SOURCES,
  },
  referrerPolicy: 'strict-origin-when-cross-origin',
  xFrameOptions: 'DENY',
  crossOriginEmbedderPolicy: false,
  crossOriginResourcePolicy: 'same-origin',
  // HSTS is added only outside localhost (see worker/index.ts).
  strictTransportSecurity: false,
};

export const securityHeaders = secureHeaders(options);
/**
 * The API's answers (JSON, an iCal feed): data, never a document, so nothing a browser might make
 * of one may load, run or be framed. The pages' policy (scripts, styles, the map hosts) and the
 * headers that only mean something for a document (Cross-Origin-Opener-Policy, Origin-Agent-
 * Cluster, X-XSS-Protection, X-Download-Options, X-DNS-Prefetch-Control, X-Permitted-Cross-
 * Domain-Policies) stay with the documents: every answer is ~670 B lighter, which a client reads
 * too (a bare server giving the same body with each set: ~20% more answers a second, and a burst's
 * p95 ~0.2 ms lower; bench/speed-changes.md).
 */
export const apiHeaders = secureHeaders({
  ...options,
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    frameAncestors: ["'none'"],
  },
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
});
/**
 * The public pages the worker fills itself (the search results) get what the static pages get
 * (site/public/_headers): no Cross-Origin-Opener-Policy and no Origin-Agent-Cluster. A page
 * whose opener policy or agent clustering differs from the page before it is put in a new
 * browsing context group, which in Chrome means a new renderer process: measured on /search
 * at Lighthouse's mobile settings, 290 ms of unattributable main-thread work, TBT 380–400 ms
 * against 50–70 ms without the two headers (bench/speed-changes.md). The admin shell and the
 * API keep both.
 */
export const publicPageHeaders = secureHeaders({
  ...options,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
});
/**
 * The guest's page: as a public page, but its address (the token, a key) goes in no Referer at
 * all. With the pages' usual policy the site's own pages got the whole address, and a counter on
 * them (Yandex Metrika, once a visitor agrees) reads `document.referrer`.
 */
export const guestPageHeaders = secureHeaders({
  ...options,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  referrerPolicy: 'no-referrer',
});
/**
 * The results page: a static page the worker fills, so it carries the static pages' header
 * policy (site/public/_headers: framing, plugins, base) and its own CSP <meta>, which the build
 * wrote with the hashes of its scripts and, when the owner set a Metrika counter, Metrika's host.
 * A header policy of `'self'` beside it would block that host, which only the build knows.
 */
export const searchPageHeaders = secureHeaders({
  ...options,
  contentSecurityPolicy: { frameAncestors: ["'none'"], objectSrc: ["'none'"], baseUri: ["'none'"] },
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
});
/** The same, but a header the handler set itself wins (media sets a stricter CSP). */
export const securityHeadersKeepOwn = secureHeaders({ ...options, overwrite: false });
