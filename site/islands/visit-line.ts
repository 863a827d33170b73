// The line every public page carries to count its view (written into the page by Base.astro, no
// request): once the page has loaded and its first contentful paint is done, the counting module
// (islands/visit-count.ts) from the address in the script's data-module (not data-src:
// scripts/lib/page-csp.ts takes a script with a src= for a file), written in by the build, and
// where the owner set a Metrika counter, its consent banner (islands/metrika-consent.ts) from
// data-consent: one line for both, as a second copy of it cost the home page bytes of its first
// 14 KB. No address (a build without the module) loads nothing.
//
// A small page's load comes before its first paint: a module fetched on load then sits in the
// first screen's way (two scripts and a beacon, one after the other, on a phone's 150 ms round
// trips; Lighthouse's first paint went from 690 to 790 ms whenever they started first). Browsers
// older than paint timing (Safari before 14.1, Firefox before 84) count no views: checking for it
// costs bytes in every page's first 14 KB.

/** Loads the counting (and the consent banner) once the page has loaded and `after` says so. */
export function visitLine(after: (run: () => void) => void): void {
  const data = (document.currentScript as HTMLScriptElement).dataset;
  addEventListener('load', () =>
    after(() => {
      for (const url of [data.module, data.consent]) if (url?.startsWith('/_astro/')) void import(url);
    }),
  );
}
