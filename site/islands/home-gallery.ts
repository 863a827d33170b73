// The home page's gallery rotation (components/HomeGallery.astro, SPEC.md section 4): shows the
// next group of photos every 8 seconds, with a button that pauses it (WCAG 2.2.2). Bundled into
// the page itself (islands/home.ts), so it costs the first screen no request. It runs where it
// stands, after the gallery's markup. The page carries the first group of photos; the others
// are fetched when the visitor nears the gallery (home-gallery.json), and the rotation starts
// with them. If they cannot be fetched the first group stays, as it does without script.
import { GALLERY_ROTATION_MS } from '../../schema/gallery.ts';
import { galleryGroup, galleryGroupCount, nextGalleryGroup } from '../lib/gallery.ts';

function rotate(root: HTMLElement, list: HTMLElement, controls: HTMLElement) {
  const items = [...list.children] as HTMLElement[];
  const groupNumber = root.querySelector<HTMLElement>('[data-group-number]')!;
  const pause = root.querySelector<HTMLButtonElement>('[data-pause]')!;
  const labels = [pause.textContent, pause.dataset.resume!];
  let group = 0;
  let paused = false;
  controls.hidden = false;

  const show = (g: number) => {
    group = g;
    const shown = galleryGroup(items, g);
    for (const item of items) item.hidden = !shown.includes(item);
    // The group's order: of 8 photos group 2 is 7, 8, 1, 2, 3, 4.
    for (const item of shown) list.appendChild(item);
    root.dataset.group = String(g);
    groupNumber.textContent = String(g + 1);
  };
  setInterval(() => {
    if (!paused && document.visibilityState === 'visible') show(nextGalleryGroup(group, items.length));
  }, GALLERY_ROTATION_MS);
  pause.addEventListener('click', () => {
    paused = !paused;
    pause.setAttribute('aria-pressed', String(paused));
    pause.textContent = labels[Number(paused)]!;
  });
}

for (const root of document.querySelectorAll<HTMLElement>('[data-gallery]')) {
  const list = root.querySelector('ul')!;
  const count = Number(root.dataset.count);
  const controls = root.querySelector<HTMLElement>('.home-gallery__controls');
  const rest = root.dataset.rest;
  if (galleryGroupCount(count) < 2 || !controls || !rest) continue;
  const start = () =>
    fetch(rest)
      .then((res) => (res.ok ? (res.json() as Promise<{ items: string[] }>) : Promise.reject(new Error(String(res.status)))))
      .then(({ items }) => {
        // A page older than the file (a cached page after the owner changed the gallery) keeps its first group.
        if (list.children.length + items.length !== count) return;
        list.insertAdjacentHTML('beforeend', items.join(''));
        rotate(root, list, controls);
      })
      .catch(() => {});
  // When the visitor comes within a screen of the gallery: a visitor who never scrolls there
  // fetches nothing, and nothing competes with the first screen (Lighthouse's slow-4G model
  // counted even a fetch made after the load event against the home page's LCP).
  const near = new IntersectionObserver(
    (entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      near.disconnect();
      void start();
    },
    { rootMargin: '100% 0px' },
  );
  near.observe(root);
}

export {};
