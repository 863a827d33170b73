// The cabin page's second photo waits until the first, the page's LCP, is loaded and painted.
// On a phone the gallery is a strip whose second photo peeks at the edge, so lazy loading fetched
// it together with the first: Lighthouse's slow-4G LCP of /cabin/1 then counted both, 0.98 s in
// some loads instead of 0.75–0.83 s (bench/speed-changes.md). Run right after the gallery
// (islands/cabin-page.ts), before anything is laid out, so the lazy photo is not fetched yet.
// `.photo-waits` skips drawing it (content-visibility: hidden); its frame keeps its size and
// colour, so nothing moves. Without script it loads as before.
const gallery = document.querySelector('.cabin-gallery');
const photos = gallery?.querySelectorAll('picture');
const first = photos?.[0]?.querySelector('img');
const second = photos?.[1];
if (first && second && !first.complete) {
  second.classList.add('photo-waits');
  // In the frame after the one that paints the first photo.
  const release = () => requestAnimationFrame(() => setTimeout(() => second.classList.remove('photo-waits')));
  first.onload = first.onerror = release;
  // A visitor who swipes the strip before the first photo arrives is reaching for the others.
  gallery!.addEventListener('scroll', release, { once: true, passive: true });
}

export {};
