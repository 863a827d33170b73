// The home-page gallery rotation: more than 6 images show 6 at a time and
// advance to the next group every 8 seconds, wrapping and filling from the start.
import { GALLERY_GROUP_SIZE } from '../../schema/gallery.ts';

/** Number of groups: ceil(n / 6) when there are more than 6 images, otherwise 1. */
export function galleryGroupCount(imageCount: number, size: number = GALLERY_GROUP_SIZE): number {
  return imageCount > size ? Math.ceil(imageCount / size) : 1;
}

/**
 * The images of group `index` (0-based): 6 images starting at index × 6, continuing from the
 * start when the end is reached, e.g. of 8 images group 1 is [7, 8, 1, 2, 3, 4].
 * With 6 images or fewer, all of them.
 */
export function galleryGroup<T>(images: readonly T[], index: number, size: number = GALLERY_GROUP_SIZE): T[] {
  const n = images.length;
  if (n <= size) return images.slice();
  const groups = galleryGroupCount(n, size);
  const g = (((Math.floor(index) || 0) % groups) + groups) % groups;
  return Array.from({ length: size }, (_, i) => images[(g * size + i) % n]!);
}

/** The group after `index`, back to 0 after the last. */
export function nextGalleryGroup(index: number, imageCount: number, size: number = GALLERY_GROUP_SIZE): number {
  const groups = galleryGroupCount(imageCount, size);
  return ((((Math.floor(index) || 0) + 1) % groups) + groups) % groups;
}

/** The photo viewer's index after moving `step` from `index` among `count` photos, wrapping at both ends. */
export function wrapIndex(index: number, step: number, count: number): number {
  if (!(count > 0)) return 0;
  return ((((Math.floor(index) || 0) + Math.floor(step)) % count) + count) % count;
}
