// The cabin page's second photo waits until the first, the page's LCP, is loaded and painted.
// On a phone the gallery is a strip whose second photo peeks at the edge, so lazy loading fetched
// it together with the first: on slow 4G the two shared the bandwidth, and Lighthouse's LCP of
// /cabin/1 was 0.98 s in two loads of three instead of 0.83 s (bench/speed-changes.md).
// Written into the page right after the gallery (lib/gallery-script.ts), before anything is laid
// out, so the lazy photo is not fetched yet. `.photo-waits` skips drawing it (content-visibility:
// hidden); its frame keeps its size and colour, so nothing moves. Without script it loads as before.
const photos = document.querySelectorAll<HTMLElement>('.cabin-gallery picture');
const first = photos[0]?.querySelector('img');
const second = photos[1];
if (first && second && !first.complete) {
  second.classList.add('photo-waits');
  let done = false;
  const release = () => {
    if (done) return;
    done = true;
    // After the frame that paints the first photo.
    requestAnimationFrame(() => setTimeout(() => second.classList.remove('photo-waits')));
  };
  first.addEventListener('load', release, { once: true });
  first.addEventListener('error', release, { once: true });
  // A visitor who swipes the strip before the first photo arrives is reaching for the others.
  document.querySelector('.cabin-gallery')?.addEventListener('scroll', release, { once: true, passive: true });
}

export {};
