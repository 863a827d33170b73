import { secureHeaders } from 'hono/secure-headers';
import { MAP_FRAME_SOURCES } from '../../schema/map.ts';

/** Headers for every response the worker itself makes (API, media, admin shell, 404). */
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
/** The same, but a header the handler set itself wins (media sets a stricter CSP). */
export const securityHeadersKeepOwn = secureHeaders({ ...options, overwrite: false });
