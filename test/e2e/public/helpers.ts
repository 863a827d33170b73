// Helpers for the visitor journeys: waiting for locators (playwright-core has no expect of its
// own), reading the API for expectations, and the admin API for the few journeys that change
// content and must put it back.
import type { Locator, Page } from 'playwright-core';
import type { Cabin } from '../../../schema/tables.ts';
import { apiAt, bodyOf } from '../../typed-api.ts';

/**
 * Waits for a locator to show (or, below, to go). 20 s: on two cores loaded by three stacks, their
 * builds and Chromiums, a screen that needs the server and a lazy chunk was seen to take over 10 s.
 */
export const visible = (locator: Locator, timeout = 20_000) => locator.first().waitFor({ state: 'visible', timeout });
export const hidden = (locator: Locator, timeout = 20_000) => locator.first().waitFor({ state: 'hidden', timeout });

/** Text with every kind of space made one plain space (prices use no-break spaces). */
export const flat = (s: string | null | undefined) => (s ?? '').replace(/[\s\u00a0\u202f]+/g, ' ').trim();

export async function textOf(locator: Locator): Promise<string> {
  return flat(await locator.first().innerText());
}

/** «12 500 ₽» as the visitor reads it (plain spaces). */
export const rub = (n: number) => `${new Intl.NumberFormat('ru-RU').format(n).replace(/[\s\u00a0\u202f]/g, ' ')} ₽`;

/** The Russian form for n: forms for 1, for 2–4, for 5–20. */
export function ru(n: number, one: string, few: string, many: string): string {
  const m10 = n % 10;
  const m100 = n % 100;
  if (m10 === 1 && m100 !== 11) return one;
  if (m10 >= 2 && m10 <= 4 && (m100 < 12 || m100 > 14)) return few;
  return many;
}

export async function getJson<T>(baseURL: string, path: string): Promise<T> {
  const res = await fetch(`${baseURL}${path}`);
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return (await res.json()) as T;
}

export type PublicReview = { id: number; name: string; rating: number; comment: string; created_at: string };

export const cabins = (baseURL: string) => getJson<Cabin[]>(baseURL, '/api/cabins');
export const settings = async (baseURL: string) => bodyOf(await apiAt(baseURL).settings.$get(), 200);
export const approvedReviews = (baseURL: string) => getJson<PublicReview[]>(baseURL, '/api/reviews/approved');

/** The digits wa.me wants for a phone. */
export const waDigits = (phone: string) => {
  const d = phone.replace(/\D/g, '');
  return d.length === 11 && d.startsWith('8') ? `7${d.slice(1)}` : d;
};

export { adminApi } from '../admin-api.ts';

/** Solves the review form's captcha from its question, e.g. «23 − 4 = ?». */
export function solveCaptcha(question: string): number {
  const m = /(\d+)\s*([+\u2212\u00d7])\s*(\d+)/.exec(question);
  if (!m) throw new Error(`not a captcha question: ${question}`);
  const [a, b] = [Number(m[1]), Number(m[3])];
  return m[2] === '+' ? a + b : m[2] === '\u2212' ? a - b : a * b;
}

/**
 * The pages' own counting of their views (site/islands/visit-count.ts and the module it shares
 * with the booking card): the one script a page with no behaviour loads, once it has loaded.
 */
export const COUNTING_SCRIPT = /\/_astro\/visit(?:-count)?\.[\w-]+\.js$/;
/** The script files of a page but its counting. */
export const behaviourScripts = (urls: readonly string[]) => urls.filter((u) => !COUNTING_SCRIPT.test(u));

/** The scripts a page runs: <script> elements other than JSON-LD. */
export const scriptCount = (page: Page) => page.locator('script:not([type="application/ld+json"])').count();
