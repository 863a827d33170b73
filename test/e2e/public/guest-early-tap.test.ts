// The guest's page on a slow phone: the server draws all of it, and the buttons' code comes after
// the first paint (site/islands/guest-loader.ts). A tap on «Отменить бронирование» before that code
// has come must still open the cancellation's second look, once it has.
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../browser.ts';
import { adminApi, visible } from './helpers.ts';

/** The guest token of a demo stay still ahead, confirmed: one its guest can cancel. */
async function stayAheadToken(baseURL: string): Promise<string> {
  const api = await adminApi(baseURL);
  const { guestToken } = await api.stayAhead();
  await api.logout();
  return guestToken;
}

describe('the guest page on a slow phone', () => {
  const { baseURL, openPage } = useBrowser();

  it('should keep a tap on «Отменить бронирование» made before the buttons work, and act on it once they do', async () => {
    const token = await stayAheadToken(baseURL);

    const page = await openPage('about:blank', 'phone');
    // The buttons' module is held until the test lets it through.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let asked = false;
    await page.route(/\/_astro\/GuestPage\.[^/]*\.js$/, async (route) => {
      asked = true;
      await released;
      await route.continue();
    });
    await page.goto(`/b/${token}`, { waitUntil: 'load' });
    const cancel = page.getByRole('button', { name: 'Отменить бронирование' });
    await visible(cancel);
    // The module is asked for only after the page has painted; the page does not wait for it.
    await expect.poll(() => asked, { timeout: 10_000 }).toBe(true);
    expect(await page.locator('html[data-guest-ready]').count()).toBe(0);

    await cancel.tap();
    // Nothing yet: no code to act, and the tap is not lost either.
    expect(await page.getByText('Отменить бронирование?').count()).toBe(0);
    release();
    await visible(page.getByText('Отменить бронирование?'), 20_000);
    await visible(page.getByRole('button', { name: 'Да, отменить' }));
  });

  it('should make the buttons work without loading the validation library the page never uses', async () => {
    // Building zod's schemas was most of the one long task after the guest page's first paint
    // (Lighthouse's TBT 63-104 ms at 4x CPU, against 0-4 ms without them).
    const token = await stayAheadToken(baseURL);
    const page = await openPage('about:blank', 'phone');
    const scripts: Promise<{ url: string; text: string }>[] = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') scripts.push(r.text().then((text) => ({ url: r.url(), text })));
    });
    await page.goto(`/b/${token}`, { waitUntil: 'load' });
    await page.locator('html[data-guest-ready]').waitFor({ state: 'attached', timeout: 20_000 });
    const loaded = await Promise.all(scripts);
    expect(
      loaded.some((s) => /\/GuestPage\.[^/]*\.js$/.test(s.url)),
      "the buttons' module",
    ).toBe(true);
    expect(loaded.filter((s) => s.text.includes('ZodError')).map((s) => s.url)).toEqual([]);
  });
});
