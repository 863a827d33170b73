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
});
