// Yandex Metrika on the public pages (docs/features.md «Продвижение»): loaded only after the
// visitor agrees (152-ФЗ), never on a guest's own page. What the build and the pages share.

/** Metrika's host, unless METRIKA_URL names another (a stand-in in tests). */
export const METRIKA_DEFAULT_URL = 'https://mc.yandex.ru';

/** Where a visitor's choice is kept in the browser (localStorage): 'yes' or 'no'; nothing until they choose. */
export const METRIKA_CONSENT_KEY = 'kaspiy.metrika';

/**
 * The tab's copy of ЮKassa's return (`{ booking, token }`, sessionStorage): the token leaves the
 * address bar before Metrika could read the address, and the booking card finds it here, on a
 * reload too.
 */
export const PAYMENT_RETURN_KEY = 'kaspiy.payment-return';

/** METRIKA_URL as the build reads it: an http(s) address without its trailing slash, else Yandex's. */
export function metrikaBase(value: string | undefined): string {
  try {
    const url = new URL(value || METRIKA_DEFAULT_URL);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url.href.replace(/\/+$/, '');
  } catch {}
  return METRIKA_DEFAULT_URL;
}

/**
 * What a page with the counter must allow in its CSP, as Yandex's «Установка счетчика на сайт с
 * CSP» lists for a counter without Webvisor: the tag and its script host (yastatic.net), the hits
 * (fetch and beacons) and the pixel. Another host (a stand-in) is allowed alone.
 */
export function metrikaSources(base: string): { script: string[]; connect: string[]; img: string[] } {
  const origin = new URL(base).origin;
  return {
    script: origin === METRIKA_DEFAULT_URL ? [origin, 'https://yastatic.net'] : [origin],
    connect: [origin],
    img: [origin],
  };
}

/** Where the consent module's address goes in the built pages (scripts/build-site.ts writes it in). */
export const METRIKA_CONSENT_MARKER = '__METRIKA_CONSENT_URL__';
/** The built module's file name in _astro/: site/islands/metrika-consent.ts. */
export const METRIKA_CONSENT_CHUNK = /^metrika-consent\.[\w-]+\.js$/;
