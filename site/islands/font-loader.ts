// Manrope without costing a visitor's first screen (see base.css).
//
// On slow 4G (RTT 150 ms) the three font files cannot arrive before the first paint of a first
// visit, so that page is drawn in the metric-matched fallback whatever we do; preloading them
// only took ~27 KB of the first screen's bandwidth from the page and its first photo. So a page
// never fetches them before it has loaded: a first page stays in the fallback and fetches the
// files afterwards, at low priority, into the browser's cache; every later page (the flag in
// localStorage says the files are cached) preloads them from that cache, which holds its first
// paint for a few milliseconds at most, and is drawn in Manrope.
// (A plain script written into the page's <head>: no request, no framework.)

// The build writes the file names and their version in (lib/font-script.ts, esbuild's define).
declare const FONT_FILES: string[];
declare const FONTS_VERSION: string;

const KEY = 'kaspiy-fonts';
/** Long enough after load that the fetch never competes with the page's own first screen. */
const AFTER_LOAD_MS = 2000;

try {
  const doc = document;
  if (localStorage.getItem(KEY) === FONTS_VERSION) {
    doc.documentElement.classList.add('fonts');
    for (const href of FONT_FILES) {
      const link = doc.createElement('link');
      link.rel = 'preload';
      link.as = 'font';
      link.crossOrigin = '';
      link.href = href;
      doc.head.appendChild(link);
    }
  } else {
    addEventListener('load', () => {
      setTimeout(() => {
        // Read to the end, so the cache holds the whole file before the flag says it does.
        const fetchOne = (url: string) =>
          fetch(url, { priority: 'low' } as RequestInit).then((res) => (res.ok ? res.arrayBuffer() : Promise.reject(res.status)));
        Promise.all(FONT_FILES.map(fetchOne)).then(() => localStorage.setItem(KEY, FONTS_VERSION), () => {});
      }, AFTER_LOAD_MS);
    });
  }
} catch {
  // Storage refused (a private window, blocked site data): every page stays in the fallback.
}

export {};
