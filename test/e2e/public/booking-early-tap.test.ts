// The booking card on a slow phone: it wakes when it scrolls into view, and on a phone's CPU
// that takes about a second. A tap on the dates in that second must still open the calendar.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { slowCpu, useBrowser } from '../browser.ts';
import { cabins, visible } from './helpers.ts';

describe('the booking card on a slow phone', () => {
  const { baseURL, openPage } = useBrowser();

  /**
   * The cabin page with the CPU 4× slower (Lighthouse's phone), noting whether the card was awake at the first tap.
   * The card's script is held back until `wake()`: how soon a card wakes depends on the machine, and the test is about
   * what the visitor did before it did.
   */
  async function slowCabinPage(): Promise<{ page: Page; wake: () => void }> {
    const [cabin] = await cabins(baseURL);
    const page = await openPage('about:blank', 'phone');
    await slowCpu(page, 4);
    let wake = () => {};
    const woken = new Promise<void>((resolve) => {
      wake = resolve;
    });
    await page.route(/\/BookingCard\.[^/]*\.js$/, async (route) => {
      await woken;
      await route.continue();
    });
    await page.addInitScript(() => {
      document.addEventListener(
        'pointerdown',
        () =>
          ((window as unknown as { awakeAtTap?: boolean }).awakeAtTap ??=
            document.querySelector('#booking[data-ready]') !== null),
        { capture: true },
      );
    });
    await page.goto(`/cabin/${cabin!.id}`, { waitUntil: 'load' });
    return { page, wake };
  }
  const awakeAtTap = (page: Page) => page.evaluate(() => (window as unknown as { awakeAtTap?: boolean }).awakeAtTap);

  for (const field of ['Заезд', 'Выезд'] as const) {
    it(`should open the calendar for a tap on «${field}» 50 ms after the card scrolls into view`, async () => {
      const { page, wake } = await slowCabinPage();
      const card = page.locator('#booking');
      await card.scrollIntoViewIfNeeded();
      await page.waitForTimeout(50);
      await card.getByLabel(field).tap();
      // The tap came before the card woke up: it was kept, not lost.
      expect(await awakeAtTap(page)).toBe(false);
      wake();
      await visible(page.locator('.stay-calendar .rdp-caption_label'), 20_000);
      expect(await card.getByLabel(field).getAttribute('aria-expanded')).toBe('true');
    });
  }

  it('should keep the guests chosen before the card woke up', async () => {
    const { page, wake } = await slowCabinPage();
    const card = page.locator('#booking');
    await card.scrollIntoViewIfNeeded();
    await page.waitForTimeout(50);
    const guests = card.getByLabel('Гости');
    await guests.selectOption('1');
    expect(await page.locator('#booking[data-ready]').count()).toBe(0);
    wake();
    await page.locator('#booking[data-ready]').waitFor({ timeout: 60_000 });
    expect(await guests.inputValue()).toBe('1');
    // Opening the dates does not put the default back.
    await card.getByLabel('Заезд').tap();
    await visible(page.locator('.stay-calendar .rdp-caption_label'), 20_000);
    expect(await guests.inputValue()).toBe('1');
  });

  it("should wake the card without making a formatter of the browser's locale data, which a page's first loads at a cost", async () => {
    // A page's first Intl object loads the browser's locale and time zone data: 200 ms and more
    // of a phone's CPU at 4×. Nothing the card needs to wake formats with it; the calendar's
    // «today» makes one later, when the page is idle after the calendar's code has come.
    const [cabin] = await cabins(baseURL);
    const page = await openPage('about:blank', 'phone');
    await page.addInitScript(() => {
      const made: string[] = [];
      (window as unknown as { intlMade: string[] }).intlMade = made;
      const record = (name: string) =>
        made.push(document.querySelector('#booking[data-ready]') ? `${name} after` : name);
      const intl = Intl as unknown as Record<string, unknown>;
      for (const name of [
        'DateTimeFormat',
        'NumberFormat',
        'Collator',
        'PluralRules',
        'RelativeTimeFormat',
        'ListFormat',
      ]) {
        const real = intl[name] as new (...a: unknown[]) => object;
        intl[name] = new Proxy(real, {
          construct: (target, args, newTarget) => (record(name), Reflect.construct(target, args, newTarget)),
          apply: (target, self, args) => (record(name), Reflect.apply(target as unknown as () => object, self, args)),
        });
      }
      for (const [proto, method] of [
        [Number.prototype, 'toLocaleString'],
        [Date.prototype, 'toLocaleDateString'],
        [Date.prototype, 'toLocaleString'],
      ] as const) {
        const real = (proto as unknown as Record<string, (...a: unknown[]) => unknown>)[method]!;
        (proto as unknown as Record<string, unknown>)[method] = function (this: unknown, ...args: unknown[]) {
          record(method);
          return real.apply(this, args);
        };
      }
    });
    await page.goto(`/cabin/${cabin!.id}`, { waitUntil: 'load' });
    await page.locator('#booking').scrollIntoViewIfNeeded();
    await page.locator('#booking[data-ready]').waitFor({ timeout: 30_000 });
    const made = await page.evaluate(() => (window as unknown as { intlMade: string[] }).intlMade);
    expect(made.filter((m) => !m.endsWith(' after'))).toEqual([]);
    // The calendar's «today» makes its formatter once the page is idle again, before any tap.
    await page.waitForFunction(
      () => (window as unknown as { intlMade: string[] }).intlMade.includes('DateTimeFormat after'),
      undefined,
      { timeout: 15_000 },
    );
  });
});
