// The cabin page's second photo waits until the first, the page's LCP, is loaded and painted.
// On a phone the gallery is a strip whose second photo peeks at the edge, so lazy loading fetched
// it together with the first: Lighthouse's slow-4G LCP of /cabin/1 then counted both, 0.98 s in
// some loads instead of 0.75–0.83 s (bench/speed-changes.md). From the first layout, however
// the parser splits the page, the page's rule for `.js` (set by the head's script,
// islands/font-loader.ts) skips drawing it (content-visibility: hidden) until the gallery is
// `.first-shown`, so its lazy <img> is not fetched; this script, right after the gallery
// (islands/cabin-page.ts), says when. Its frame keeps its size and colour, so nothing moves.
// Without script it loads as before. The page's visit count waits for the same moment
// (afterMainPhoto, after-first-paint.ts), for the same reason.
import type { MainPhotoWait } from './after-first-paint.ts';

const gallery = document.querySelector('.cabin-gallery');
const first = gallery?.querySelector('img');
if (gallery) {
  let shown = false;
  const waiting: (() => void)[] = [];
  (window as MainPhotoWait).kaspiyAfterMainPhoto = (then) => (shown ? then() : waiting.push(then));
  const release = () => {
    if (shown) return;
    shown = true;
    gallery.classList.add('first-shown');
    for (const then of waiting.splice(0)) then();
  };
  if (!first || first.complete) release();
  else {
    first.onerror = release;
    // A visitor who swipes the strip before the first photo arrives is reaching for the others.
    gallery.addEventListener('scroll', release, { once: true, passive: true });
    // Chromium says when the photo itself is painted (its elementtiming attribute, the page's
    // only one); elsewhere, the frame after its load. In Chromium that load and the frames after it
    // came before the first paint in some loads, and the second photo then counted in that paint.
    if (PerformanceObserver.supportedEntryTypes?.includes('element'))
      new PerformanceObserver((_, observer) => {
        observer.disconnect();
        setTimeout(release);
      }).observe({ type: 'element', buffered: true });
    else first.onload = () => requestAnimationFrame(() => setTimeout(release));
  }
}
