// Paging of the catalogue (12 a page) and the reviews (10 a page).
import { PAGER_WINDOW } from '../../schema/constants.ts';

/** Number of pages for `total` items; at least 1, so an empty list is «Страница 1 из 1». */
export function totalPages(total: number, pageSize: number): number {
  if (!(total > 0) || !(pageSize > 0)) return 1;
  return Math.ceil(total / pageSize);
}

/** A requested page made valid: an integer in [1, pages]; anything unusable becomes 1. */
export function clampPage(page: number, pages: number): number {
  const last = Math.max(1, Math.floor(pages) || 1);
  const p = Math.floor(page);
  if (!Number.isFinite(p) || p < 1) return 1;
  return Math.min(p, last);
}

/**
 * The page numbers the pager shows: at most `size` consecutive numbers with the current page
 * in the middle where possible, shifted to stay within [1, pages] at both ends.
 * pageWindow(1, 10) → [1..5]; pageWindow(6, 10) → [4..8]; pageWindow(10, 10) → [6..10].
 */
export function pageWindow(current: number, pages: number, size: number = PAGER_WINDOW): number[] {
  const last = Math.max(1, Math.floor(pages) || 1);
  const count = Math.min(Math.max(1, Math.floor(size)), last);
  const page = clampPage(current, last);
  const first = Math.min(Math.max(1, page - Math.floor((count - 1) / 2)), last - count + 1);
  return Array.from({ length: count }, (_, i) => first + i);
}

/** The values of «Показано a-b из n объектов»: 1-based, both ends inclusive; 0-0 of 0 when empty. */
export interface PageRange {
  from: number;
  to: number;
  total: number;
}

export function pageRange(page: number, pageSize: number, total: number): PageRange {
  const n = Math.max(0, Math.floor(total) || 0);
  if (n === 0) return { from: 0, to: 0, total: 0 };
  const p = clampPage(page, totalPages(n, pageSize));
  return { from: (p - 1) * pageSize + 1, to: Math.min(p * pageSize, n), total: n };
}

/** Everything a paged list needs for one page. */
export interface Page<T> extends PageRange {
  /** The items on this page. */
  items: T[];
  /** The current page after clamping, 1-based. */
  page: number;
  /** Total number of pages, at least 1. */
  pages: number;
  /** The page numbers to show in the pager. */
  window: number[];
  hasPrev: boolean;
  hasNext: boolean;
}

export function paginate<T>(items: readonly T[], page: number, pageSize: number): Page<T> {
  const pages = totalPages(items.length, pageSize);
  const current = clampPage(page, pages);
  const range = pageRange(current, pageSize, items.length);
  return {
    ...range,
    items: items.slice((current - 1) * pageSize, current * pageSize),
    page: current,
    pages,
    window: pageWindow(current, pages),
    hasPrev: current > 1,
    hasNext: current < pages,
  };
}
