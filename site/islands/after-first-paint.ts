// Runs `run` once the browser reports the page's first contentful paint, in a task of its own; at
// once in a tab opened in the background, which paints nothing. For what must never stand in the
// first screen's way on a slow network: a page's `load`, and the frames after it, can come before
// that paint, and Lighthouse's slow-4G model counts what starts before the first paint in it.
// It takes paint timing as given (every browser since 2021; the pages' visit line has no bytes to
// check with): code that must run everywhere checks PerformanceObserver.supportedEntryTypes first.
export function afterFirstPaint(run: () => void): void {
  if (document.hidden) {
    run();
    return;
  }
  new PerformanceObserver((list, observer) => {
    if (!list.getEntriesByName('first-contentful-paint').length) return;
    observer.disconnect();
    setTimeout(run);
  }).observe({ type: 'paint', buffered: true });
}

/** Set by a page whose first screen is a photo (islands/second-photo-waits.ts): calls `then` once it is painted. */
export type MainPhotoWait = { kaspiyAfterMainPhoto?: (then: () => void) => void };

/**
 * As afterFirstPaint, and on a page whose first screen is a photo, after that photo's paint too:
 * Lighthouse's model counts what starts before the largest paint in it as well (a cabin page's
 * visit count, started between the first paint and the photo's, made its LCP 0.93 s, not 0.77 s).
 */
export function afterMainPhoto(run: () => void): void {
  afterFirstPaint(() => {
    const page = window as MainPhotoWait;
    if (page.kaspiyAfterMainPhoto) page.kaspiyAfterMainPhoto(run);
    else run();
  });
}
