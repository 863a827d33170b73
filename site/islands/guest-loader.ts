// The guest page's own line (written into the page, no request): it loads the buttons' module
// (islands/GuestPage.tsx, address in data-module) once the page is painted, and keeps a tap on a
// button that comes before they work.
//
// Loaded by the page's module script, the module and its 17 imports (React's 57 KB among them)
// were requested while the page was still being drawn: on slow 4G, Lighthouse counted them in the
// first paint, and the page painted at 0.8–1.4 s instead of 0.7 s. The server drew everything the
// guest reads, so nothing waits for them but the buttons; a tap on one meanwhile is held, and
// replayed once they are ready (islands/wake.ts holdClicks, GuestPage.tsx mountGuestPage).
import { afterFirstPaint } from './after-first-paint.ts';
import { holdClicks } from './wake.ts';

const script = document.currentScript as HTMLScriptElement | null;
const url = script?.dataset.module ?? '';

if (url.startsWith('/_astro/')) {
  // Only the buttons that need the script: a form's own button (the new dates' quote, the
  // messenger's link) does its work without it, as it did before the script came.
  holdClicks('guest', '[data-guest-island] button[type="button"]');
  const load = () => {
    void import(/* @vite-ignore */ url).then((m: { mountGuestPage: () => void }) => m.mountGuestPage());
  };
  // A browser that does not report paints cannot wait for one: the buttons must work everywhere.
  if (PerformanceObserver.supportedEntryTypes?.includes('paint')) afterFirstPaint(load);
  else load();
}
