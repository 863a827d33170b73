// The home page's gallery photos as markup. The page carries the first group
// (components/HomeGallery.astro); the others, up to 60 photos' worth, are a file of their own
// (pages/home-gallery.json.ts) that the rotation fetches when the visitor nears the
// gallery (islands/home-gallery.ts), so the gallery's size never weighs on the first screen.
import { createHash } from 'node:crypto';
import { GALLERY_GROUP_SIZE } from '../../schema/gallery.ts';
import { escapeHtml } from '../../schema/html.ts';
import { oncePerKey } from './once-per-key.ts';
import { builtIn, optimize, type OptimizedPhoto, type PhotoSource } from '../components/images.ts';
import g1 from '../assets/stock/gallery-1-sea.jpg';
import g2 from '../assets/stock/gallery-2-sunset.jpg';
import g3 from '../assets/stock/gallery-3-beach.jpg';
import g4 from '../assets/stock/gallery-4-terrace.jpg';
import g5 from '../assets/stock/gallery-5-cabin.jpg';

const BUILT_IN = [g1, g2, g3, g4, g5];
const SIZES = '(min-width: 64rem) 380px, (min-width: 40rem) 30vw, 46vw';

/** The owner's gallery, or the 5 built-in photos while it is empty. */
export function galleryPhotos(galleryImages: readonly string[]): PhotoSource[] {
  return galleryImages.length > 0 ? [...galleryImages] : BUILT_IN.map(builtIn);
}

/** One photo of the grid; hidden unless it is in the first group (the rotation shows the others). */
function itemHtml(p: OptimizedPhoto, i: number, count: number): string {
  const alt = `Фото ${i + 1} из ${count}: отдых у Каспийского моря`;
  return (
    `<li class="home-gallery__item" data-i="${i}"${i >= GALLERY_GROUP_SIZE ? ' hidden' : ''}><picture class="photo-later">` +
    `<source type="image/avif" srcset="${escapeHtml(p.avif)}" sizes="${SIZES}">` +
    `<img src="${escapeHtml(p.src)}" width="${p.width}" height="${p.height}" alt="${escapeHtml(alt)}" loading="lazy" decoding="async">` +
    `</picture></li>`
  );
}

export interface GalleryMarkup {
  count: number;
  /** The first group's items, for the page. */
  first: string;
  /** The other photos' items, for home-gallery.json, in order. */
  rest: string[];
  /** The address the page fetches them from, versioned by their content so a browser never keeps an old set. */
  restUrl: string;
}

/** Made once per build for a given gallery: the home page and home-gallery.json both ask for it. */
const once = oncePerKey();

export function galleryMarkup(galleryImages: readonly string[]): Promise<GalleryMarkup> {
  return once(JSON.stringify(galleryImages), () => makeGalleryMarkup(galleryImages));
}

async function makeGalleryMarkup(galleryImages: readonly string[]): Promise<GalleryMarkup> {
  const photos = galleryPhotos(galleryImages);
  const optimized = await Promise.all(
    photos.map((src) => optimize(src, { widths: [400, 800], aspect: 4 / 3, webpSet: false })),
  );
  const items = optimized.map((p, i) => itemHtml(p, i, photos.length));
  const rest = items.slice(GALLERY_GROUP_SIZE);
  const version = createHash('sha256').update(rest.join('')).digest('hex').slice(0, 10);
  return {
    count: photos.length,
    first: items.slice(0, GALLERY_GROUP_SIZE).join(''),
    rest,
    restUrl: `/home-gallery.json?v=${version}`,
  };
}
