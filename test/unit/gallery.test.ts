import { describe, expect, it } from 'vitest';
import { GALLERY_GROUP_SIZE } from '../../schema/constants.ts';
import { galleryGroup, galleryGroupCount, nextGalleryGroup } from '../../site/lib/gallery.ts';

const images = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('gallery rotation', () => {
  it('should show all images in one group when there are 6 or fewer', () => {
    expect(GALLERY_GROUP_SIZE).toBe(6);
    for (const n of [0, 1, 5, 6]) {
      expect(galleryGroupCount(n)).toBe(1);
      expect(galleryGroup(images(n), 0)).toEqual(images(n));
      expect(galleryGroup(images(n), 3)).toEqual(images(n));
    }
  });

  it('should split more than 6 images into groups of 6', () => {
    expect(galleryGroupCount(7)).toBe(2);
    expect(galleryGroupCount(12)).toBe(2);
    expect(galleryGroupCount(13)).toBe(3);
  });

  it('should fill the last group from the start (8 images)', () => {
    const all = images(8);
    expect(galleryGroup(all, 0)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(galleryGroup(all, 1)).toEqual([7, 8, 1, 2, 3, 4]);
  });

  it('should advance by 6 each group (13 images)', () => {
    const all = images(13);
    expect(galleryGroup(all, 0)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(galleryGroup(all, 1)).toEqual([7, 8, 9, 10, 11, 12]);
    expect(galleryGroup(all, 2)).toEqual([13, 1, 2, 3, 4, 5]);
  });

  it('should always show exactly 6 images when there are more than 6', () => {
    for (let n = 7; n <= 30; n++) {
      for (let g = 0; g < galleryGroupCount(n); g++) expect(galleryGroup(images(n), g)).toHaveLength(6);
    }
  });

  it('should wrap the next group index back to 0', () => {
    expect(nextGalleryGroup(0, 8)).toBe(1);
    expect(nextGalleryGroup(1, 8)).toBe(0);
    expect(nextGalleryGroup(2, 13)).toBe(0);
    expect(nextGalleryGroup(0, 6)).toBe(0);
    expect(nextGalleryGroup(0, 0)).toBe(0);
  });

  it('should treat an out-of-range group index as wrapping', () => {
    expect(galleryGroup(images(8), 2)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(galleryGroup(images(8), -1)).toEqual([7, 8, 1, 2, 3, 4]);
  });

  it('should not change the input array', () => {
    const all = images(8);
    galleryGroup(all, 1);
    expect(all).toEqual(images(8));
    const small = images(3);
    expect(galleryGroup(small, 0)).not.toBe(small);
  });
});
