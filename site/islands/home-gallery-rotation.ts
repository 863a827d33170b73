// The home gallery's rotation, a module of its own that the page's few
// inline lines (islands/home-gallery.ts) load together with the rest of the photos when the
// visitor nears the gallery: it weighs nothing on the page's first 14 KB. Adds the photos the
// page did not carry, then shows the next group every 8 seconds, with a button that pauses it
// (WCAG 2.2.2).
import { GALLERY_ROTATION_MS } from '../../schema/gallery.ts';
import { galleryGroup, nextGalleryGroup } from '../lib/gallery.ts';

/** Adds `items` (home-gallery.json) to the gallery under `root` and starts the rotation. */
export function showRest(root: HTMLElement, items: readonly string[]): void {
  const list = root.querySelector('ul');
  const controls = root.querySelector<HTMLElement>('.home-gallery__controls');
  // A page older than the file (a cached page after the owner changed the gallery) keeps its first group.
  if (!list || !controls || list.children.length + items.length !== Number(root.dataset.count)) return;
  list.insertAdjacentHTML('beforeend', items.join(''));
  rotate(root, list, controls);
}

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
