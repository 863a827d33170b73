// The home page's gallery rotation (components/HomeGallery.astro, SPEC.md section 4): shows the
// next group of photos every 8 seconds, with a button that pauses it (WCAG 2.2.2). Bundled into
// the page itself (islands/home.ts), so it costs the first screen no request. It runs where it
// stands, after the gallery's markup.
import { GALLERY_ROTATION_MS } from '../../schema/gallery.ts';
import { galleryGroup, galleryGroupCount, nextGalleryGroup } from '../lib/gallery.ts';

for (const root of document.querySelectorAll<HTMLElement>('[data-gallery]')) {
  const list = root.querySelector('ul')!;
  const items = [...list.children] as HTMLElement[];
  const groups = galleryGroupCount(items.length);
  const controls = root.querySelector<HTMLElement>('.home-gallery__controls');
  if (groups < 2 || !controls) continue;
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

export {};
