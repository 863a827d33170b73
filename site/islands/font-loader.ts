// Manrope without costing a visitor's first screen (see base.css).
//
// On slow 4G (RTT 150 ms) the three font files cannot arrive before the first paint of a first
// visit, so that page is drawn in the metric-matched fallback whatever we do; preloading them
// only took ~27 KB of the first screen's bandwidth from the page and its first photo. So a page
// never fetches them before it has loaded: a first page stays in the fallback and loads the
// faces afterwards, which puts the files in the browser's cache; every later page (the flag in
// localStorage says they are cached) loads them while its <head> is parsed, which holds its
// first paint for the few milliseconds the cache takes, and is drawn in Manrope.
// (A plain script written into the page's <head>: no request, no framework.)

// The build writes the files' version and the storage key in (lib/font-script.ts, esbuild's define).
declare const FONTS_VERSION: string;
declare const FONTS_KEY: string;

/** Long enough after load that the fetch never competes with the page's own first screen. */
const AFTER_LOAD_MS = 2000;

// Scripts run on this page: rules that hold something back for a script to release (the cabin
// page's second photo, islands/second-photo-waits.ts) apply from the first layout, however the
// parser splits the page, and never where scripts do not run.
document.documentElement.classList.add('js');

try {
  const doc = document;
  // Loads the faces of all three files (a Cyrillic, a Latin letter and a figure). Called while
  // the <head> is parsed, it holds the first paint until they are read from the cache, as a
  // preload does; the request goes through the HTTP cache, so a first page's call fills it.
  const load = () => doc.fonts.load('1em Manrope', 'аA1');
  if (localStorage.getItem(FONTS_KEY) === FONTS_VERSION) {
    doc.documentElement.classList.add('fonts');
    void load();
  } else {
    addEventListener('load', () => {
      setTimeout(
        () =>
          load().then(
            (faces) => faces.length > 2 && localStorage.setItem(FONTS_KEY, FONTS_VERSION),
            () => {},
          ),
        AFTER_LOAD_MS,
      );
    });
  }
} catch {
  // Storage refused (a private window, blocked site data): every page stays in the fallback.
}

export {};
