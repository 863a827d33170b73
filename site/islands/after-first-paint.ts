// Runs `run` once the browser reports the page's first contentful paint, in a task of its own;
// at once in a tab opened in the background, which paints nothing. For what must never stand in
// the first screen's way on a slow network: a page's `load`, and the frames after it, can come
// before that paint, and Lighthouse's slow-4G model counts what starts before it.
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
