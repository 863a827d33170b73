import { describe, expect, it } from 'vitest';
import { useBrowser, type ViewportName } from '../browser.ts';
import { gzipSync } from 'node:zlib';
import {
  adminApi,
  behaviourScripts,
  cabins,
  COUNTING_SCRIPT,
  flat,
  ru,
  rub,
  scriptCount,
  textOf,
  visible,
} from './helpers.ts';

const PAGE_SIZE = 12;
const objectsGen = (n: number) => ru(n, 'объекта', 'объектов', 'объектов');

describe.each<ViewportName>(['phone', 'desktop'])('the catalogue on a %s', (viewport) => {
  const { baseURL, openPage } = useBrowser();

  it('should show the heading, the count and the range of the first 12 objects', async () => {
    const all = await cabins(baseURL);
    const page = await openPage('/cabins', viewport);
    await visible(page.getByRole('heading', { level: 1, name: 'Каталог недвижимости' }));
    const n = all.length;
    expect(await textOf(page.locator('main'))).toContain(
      `${ru(n, 'Доступен', 'Доступны', 'Доступно')} ${n} ${ru(n, 'объект', 'объекта', 'объектов')}`,
    );
    expect(await textOf(page.getByText(/^Показано/))).toBe(
      `Показано 1-${Math.min(PAGE_SIZE, n)} из ${n} ${objectsGen(n)}`,
    );
    expect(await page.getByRole('article').count()).toBe(Math.min(PAGE_SIZE, n));
    expect(await textOf(page.locator('.pager__status'))).toBe(`Страница 1 из ${Math.ceil(n / PAGE_SIZE)}`);
  });

  it('should show each card with photo, badges, price, name, place and counts in Russian', async () => {
    const all = await cabins(baseURL);
    const page = await openPage('/cabins', viewport);
    for (const [i, cabin] of all.slice(0, PAGE_SIZE).entries()) {
      const card = page
        .getByRole('article')
        .filter({ has: page.getByRole('heading', { name: cabin.name, exact: true }) });
      const text = await textOf(card);
      expect(text).toContain(`${rub(cabin.pricePerNight)} / ночь`);
      if (cabin.location.trim()) expect(text).toContain(cabin.location.trim());
      expect(text).toContain(`${cabin.bedrooms} ${ru(cabin.bedrooms, 'спальня', 'спальни', 'спален')}`);
      expect(text).toContain(`${cabin.bathrooms} ${ru(cabin.bathrooms, 'ванная', 'ванные', 'ванных')}`);
      expect(text).toContain(`${cabin.maxGuests} ${ru(cabin.maxGuests, 'гость', 'гостя', 'гостей')}`);
      expect(await card.getByText('Популярный').count()).toBe(cabin.featured ? 1 : 0);
      if (cabin.images.length > 1) expect(text).toContain(`${cabin.images.length} фото`);
      const img = card.locator('img');
      expect(await img.getAttribute('alt')).toBe(cabin.name);
      expect(Number(await img.getAttribute('width'))).toBeGreaterThan(0);
      expect(Number(await img.getAttribute('height'))).toBeGreaterThan(0);
      expect(await card.locator('source[type="image/avif"]').getAttribute('srcset')).toMatch(/\.avif \d+w/);
      if (i === 0) expect(await img.getAttribute('srcset')).toMatch(/\.webp \d+w/);
      else {
        // Below the first screen a browser without AVIF gets one WebP, the largest (images.ts, webpSet).
        expect(await img.getAttribute('srcset')).toBeNull();
        const fallback = await page.request.get(new URL(String(await img.getAttribute('src')), page.url()).href);
        expect([fallback.status(), fallback.headers()['content-type']]).toEqual([200, 'image/webp']);
      }
      expect(await card.getByRole('link', { name: cabin.name }).getAttribute('href')).toBe(`/cabin/${cabin.id}`);
    }
    // Only the first photo is fetched at once.
    expect(await page.locator('article img').first().getAttribute('fetchpriority')).toBe('high');
    expect(await page.locator('article img').nth(1).getAttribute('loading')).toBe('lazy');
  });

  it('should clamp the description to three lines', async () => {
    const page = await openPage('/cabins', viewport);
    const desc = page.locator('.cabin-card__desc').first();
    const { lines } = await desc.evaluate((el) => ({
      lines: Math.round(el.clientHeight / parseFloat(getComputedStyle(el).lineHeight)),
    }));
    expect(lines).toBeLessThanOrEqual(3);
  });

  it('should page with Назад, Далее and the page numbers, and say which page it is', async () => {
    const all = await cabins(baseURL);
    const pages = Math.ceil(all.length / PAGE_SIZE);
    expect(pages).toBeGreaterThanOrEqual(2);
    const page = await openPage('/cabins', viewport);
    const pager = page.getByRole('navigation', { name: 'Страницы каталога' });
    expect(await pager.getByText('Назад').getAttribute('aria-disabled')).toBe('true');
    expect(await pager.getByRole('link', { name: 'Страница 1' }).getAttribute('aria-current')).toBe('page');
    expect(await pager.getByRole('listitem').count()).toBe(Math.min(5, pages));
    await pager.getByRole('link', { name: /Далее/ }).click();
    await page.waitForURL('**/cabins/2');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const to = Math.min(2 * PAGE_SIZE, all.length);
    expect(await textOf(page.getByText(/^Показано/))).toBe(
      `Показано 13-${to} из ${all.length} ${objectsGen(all.length)}`,
    );
    expect(await textOf(page.locator('.pager__status'))).toBe(`Страница 2 из ${pages}`);
    expect(await page.getByRole('article').count()).toBe(to - PAGE_SIZE);
    await visible(page.getByRole('heading', { name: all[PAGE_SIZE]!.name }));
    await page.getByRole('navigation', { name: 'Страницы каталога' }).getByRole('link', { name: /Назад/ }).click();
    await page.waitForURL(/\/cabins$/);
  });

  it('should open the cabin page from a card', async () => {
    const [first] = await cabins(baseURL);
    const page = await openPage('/cabins', viewport);
    await page.getByRole('article').first().locator('.card__media').scrollIntoViewIfNeeded();
    // A click anywhere on the card, here on its photo, opens the cabin.
    const box = (await page.getByRole('article').first().locator('.card__media').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForURL(`**/cabin/${first!.id}`);
    await visible(page.getByRole('heading', { level: 1, name: first!.name }));
  });

  it("should load no JavaScript file but its counting, after it has loaded: only the search form's few lines that wake its picker on a touch", async () => {
    const page = await openPage('/cabins', viewport);
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
    await page.reload({ waitUntil: 'networkidle' });
    // The counting of the view: asked for once the page had loaded and its first photo painted
    // (which a loaded machine can bring after the network went quiet), under 1 KB gzipped.
    await page.waitForFunction(
      () => performance.getEntriesByType('resource').some((r) => /\/_astro\/visit/.test(r.name)),
      undefined,
      { timeout: 15_000 },
    );
    expect(behaviourScripts(scripts)).toEqual([]);
    const counting = await page.evaluate(() => {
      const loaded = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return performance
        .getEntriesByType('resource')
        .filter((r) => /\/_astro\/visit/.test(r.name))
        .map((r) => r.startTime >= loaded.loadEventStart);
    });
    expect(counting.length).toBeGreaterThan(0);
    expect(counting.every(Boolean)).toBe(true);
    const counted = [...new Set(scripts.filter((u) => COUNTING_SCRIPT.test(u)))];
    const sizes = await Promise.all(
      counted.map(async (u) => gzipSync(Buffer.from(await (await fetch(u)).arrayBuffer())).length),
    );
    expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1024);
    // The search form's lines, in <head> the few that bring the typeface in after the page has
    // loaded, and the line that loads the counting then.
    expect(await scriptCount(page)).toBe(3);
    expect(await page.locator('astro-island').count()).toBe(0);
    await page.goto('/cabins/2', { waitUntil: 'networkidle' });
    expect(behaviourScripts(scripts)).toEqual([]);
  });
});

describe('inactive cabins', () => {
  const { baseURL, openPage } = useBrowser();

  it('should appear nowhere: not in the catalogue, the home page or the sitemap, and their page is gone', async () => {
    const api = await adminApi(baseURL);
    const all = await (await api.client.admin.cabins.$get()).json();
    await api.logout();
    const inactive = all.filter((c) => !c.active);
    expect(inactive.length).toBeGreaterThan(0);
    const page = await openPage('/cabins', 'desktop');
    let text = await textOf(page.locator('main'));
    await page.goto('/cabins/2');
    text += await textOf(page.locator('main'));
    await page.goto('/');
    text += await textOf(page.locator('main'));
    const sitemap = await (await fetch(`${baseURL}/sitemap.xml`)).text();
    for (const cabin of inactive) {
      expect(text).not.toContain(flat(cabin.name));
      expect(sitemap).not.toContain(`/cabin/${cabin.id}<`);
      expect((await fetch(`${baseURL}/cabin/${cabin.id}`)).status).toBe(404);
    }
  });
});

describe('photos below the first screen', () => {
  const { openPage } = useBrowser();

  it("should fetch a card's photo below the first screen only when the visitor scrolls near it", async () => {
    const page = await openPage('/cabins', 'phone');
    const photos = page.locator('article img');
    expect(await photos.count()).toBeGreaterThan(3);
    const loaded = (i: number) =>
      photos.nth(i).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);
    await page.waitForFunction(
      () => ((document.querySelector('article img') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0,
    );
    // The third card starts about two screens down: lazy loading alone fetched it with the page.
    await page.waitForTimeout(500);
    expect(await loaded(2)).toBe(false);
    await photos.nth(2).scrollIntoViewIfNeeded();
    await page.waitForFunction(
      () => (document.querySelectorAll('article img')[2] as HTMLImageElement).naturalWidth > 0,
    );
    // Drawn into the box its card kept for it: the photo fills the card's 4:3 frame.
    const [frame, photo] = await Promise.all([
      photos.nth(2).locator('xpath=ancestor::div[1]').boundingBox(),
      photos.nth(2).boundingBox(),
    ]);
    expect(Math.round(photo!.height)).toBe(Math.round(frame!.height));
    expect(Math.round(frame!.height)).toBe(Math.round((frame!.width * 3) / 4));
  });
});
