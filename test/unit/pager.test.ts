import { describe, expect, it } from 'vitest';
import { CATALOGUE_PAGE_SIZE, PAGER_WINDOW, REVIEWS_PAGE_SIZE } from '../../schema/constants.ts';
import { clampPage, pageRange, pageWindow, paginate, totalPages } from '../../site/lib/pager.ts';

const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

describe('totalPages', () => {
  it('should count catalogue pages of 12', () => {
    expect(CATALOGUE_PAGE_SIZE).toBe(12);
    expect(totalPages(1, CATALOGUE_PAGE_SIZE)).toBe(1);
    expect(totalPages(12, CATALOGUE_PAGE_SIZE)).toBe(1);
    expect(totalPages(13, CATALOGUE_PAGE_SIZE)).toBe(2);
    expect(totalPages(24, CATALOGUE_PAGE_SIZE)).toBe(2);
    expect(totalPages(25, CATALOGUE_PAGE_SIZE)).toBe(3);
  });

  it('should count review pages of 10', () => {
    expect(REVIEWS_PAGE_SIZE).toBe(10);
    expect(totalPages(10, REVIEWS_PAGE_SIZE)).toBe(1);
    expect(totalPages(11, REVIEWS_PAGE_SIZE)).toBe(2);
    expect(totalPages(101, REVIEWS_PAGE_SIZE)).toBe(11);
  });

  it('should give one page for an empty list', () => {
    expect(totalPages(0, CATALOGUE_PAGE_SIZE)).toBe(1);
  });
});

describe('clampPage', () => {
  it('should keep the page within 1 and the last page', () => {
    expect(clampPage(0, 3)).toBe(1);
    expect(clampPage(-4, 3)).toBe(1);
    expect(clampPage(2, 3)).toBe(2);
    expect(clampPage(9, 3)).toBe(3);
    expect(clampPage(Number.NaN, 3)).toBe(1);
    expect(clampPage(2.7, 3)).toBe(2);
  });
});

describe('pageWindow', () => {
  it('should show all pages when there are at most 5', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(5, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('should center the current page when there is room', () => {
    expect(pageWindow(4, 10)).toEqual([2, 3, 4, 5, 6]);
    expect(pageWindow(6, 10)).toEqual([4, 5, 6, 7, 8]);
  });

  it('should clamp the window at the start', () => {
    expect(pageWindow(1, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(2, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(3, 10)).toEqual([1, 2, 3, 4, 5]);
  });

  it('should clamp the window at the end', () => {
    expect(pageWindow(10, 10)).toEqual([6, 7, 8, 9, 10]);
    expect(pageWindow(9, 10)).toEqual([6, 7, 8, 9, 10]);
    expect(pageWindow(8, 10)).toEqual([6, 7, 8, 9, 10]);
  });

  it('should never show more than 5 numbers and always include the current page', () => {
    for (let pages = 1; pages <= 30; pages++) {
      for (let page = 1; page <= pages; page++) {
        const w = pageWindow(page, pages);
        expect(w.length).toBe(Math.min(PAGER_WINDOW, pages));
        expect(w).toContain(page);
        expect(w[0]).toBeGreaterThanOrEqual(1);
        expect(w.at(-1)).toBeLessThanOrEqual(pages);
        expect(w).toEqual(range(w[0]!, w.at(-1)!));
      }
    }
  });

  it('should clamp a current page outside the range', () => {
    expect(pageWindow(99, 7)).toEqual([3, 4, 5, 6, 7]);
    expect(pageWindow(0, 7)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('pageRange', () => {
  it('should give the a-b of n line for catalogue pages', () => {
    expect(pageRange(1, CATALOGUE_PAGE_SIZE, 15)).toEqual({ from: 1, to: 12, total: 15 });
    expect(pageRange(2, CATALOGUE_PAGE_SIZE, 15)).toEqual({ from: 13, to: 15, total: 15 });
    expect(pageRange(1, CATALOGUE_PAGE_SIZE, 5)).toEqual({ from: 1, to: 5, total: 5 });
  });

  it('should give the a-b of n line for review pages', () => {
    expect(pageRange(3, REVIEWS_PAGE_SIZE, 25)).toEqual({ from: 21, to: 25, total: 25 });
    expect(pageRange(2, REVIEWS_PAGE_SIZE, 20)).toEqual({ from: 11, to: 20, total: 20 });
  });

  it('should give 0-0 of 0 for an empty list', () => {
    expect(pageRange(1, CATALOGUE_PAGE_SIZE, 0)).toEqual({ from: 0, to: 0, total: 0 });
  });

  it('should clamp a page past the end to the last page', () => {
    expect(pageRange(9, CATALOGUE_PAGE_SIZE, 15)).toEqual({ from: 13, to: 15, total: 15 });
  });
});

describe('paginate', () => {
  const items = range(1, 27);

  it('should slice one catalogue page with its pager state', () => {
    const p = paginate(items, 2, CATALOGUE_PAGE_SIZE);
    expect(p.items).toEqual(range(13, 24));
    expect(p).toMatchObject({ page: 2, pages: 3, from: 13, to: 24, total: 27, hasPrev: true, hasNext: true });
    expect(p.window).toEqual([1, 2, 3]);
  });

  it('should mark the first and last review pages', () => {
    const first = paginate(items, 1, REVIEWS_PAGE_SIZE);
    expect(first).toMatchObject({ page: 1, pages: 3, hasPrev: false, hasNext: true });
    const last = paginate(items, 3, REVIEWS_PAGE_SIZE);
    expect(last.items).toEqual(range(21, 27));
    expect(last).toMatchObject({ hasPrev: true, hasNext: false, from: 21, to: 27 });
  });

  it('should handle an empty list', () => {
    expect(paginate([], 1, REVIEWS_PAGE_SIZE)).toEqual({
      items: [],
      page: 1,
      pages: 1,
      from: 0,
      to: 0,
      total: 0,
      window: [1],
      hasPrev: false,
      hasNext: false,
    });
  });
});
