import { describe, expect, it } from 'vitest';
import { slowCpu, useBrowser, type ViewportName } from '../browser.ts';
import { approvedReviews, cabins, flat, settings, textOf, visible } from './helpers.ts';

describe.each<ViewportName>(['phone', 'desktop'])('the home page on a %s', (viewport) => {
  const { baseURL, openPage } = useBrowser();

  it('should show the hero with the title, subtitle and «Найти жилье» to the catalogue', async () => {
    const s = await settings(baseURL);
    const page = await openPage('/', viewport);
    await visible(page.getByRole('heading', { level: 1, name: s.heroTitle }));
    await visible(page.getByText(s.heroSubtitle));
    await page.getByRole('link', { name: 'Найти жилье' }).click();
    await page.waitForURL('**/cabins');
  });

  it('should not move the hero while a slow phone is still reading the page', async () => {
    const page = await openPage('/', viewport);
    // A phone's CPU (Lighthouse's 4×): Chrome then paints before the hero is fully parsed.
    await slowCpu(page, 4);
    await page.addInitScript(() => {
      const w = window as unknown as { shifts: string[] };
      w.shifts = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as unknown as { value: number; sources: { node?: Element }[] }[]) {
          w.shifts.push(`${e.value.toFixed(3)} ${e.sources.map((s) => s.node?.className).join(', ')}`);
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    for (let load = 0; load < 3; load++) {
      await page.goto('/', { waitUntil: 'load' });
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => (window as unknown as { shifts: string[] }).shifts), `load ${load + 1}`).toEqual(
        [],
      );
    }
  });

  it('should show the first 6 cabins and «Найти домик» when there are more', async () => {
    const all = await cabins(baseURL);
    const page = await openPage('/', viewport);
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Где остановиться у моря' }) });
    const names = await section.getByRole('article').getByRole('heading').allInnerTexts();
    expect(names).toEqual(all.slice(0, 6).map((c) => c.name));
    expect(all.length).toBeGreaterThan(6);
    await section.getByRole('link', { name: 'Найти домик' }).click();
    await page.waitForURL('**/cabins');
  });

  it('should show 6 gallery photos at a time and the next 6 every 8 seconds, wrapping around', async () => {
    const s = await settings(baseURL);
    const count = s.galleryImages.length || 5;
    expect(count).toBeGreaterThan(6);
    const ctxPage = await openPage('about:blank', viewport);
    // A stopped clock: the gallery's 8-second timer moves only when the test says so.
    const t0 = new Date('2027-06-01T10:00:00Z');
    await ctxPage.clock.install({ time: t0 });
    await ctxPage.clock.pauseAt(new Date(t0.getTime() + 1000));
    await ctxPage.goto('/');
    await ctxPage.locator('[data-gallery]').scrollIntoViewIfNeeded();
    await ctxPage.locator('.home-gallery__controls:not([hidden])').waitFor();
    const shown = () =>
      ctxPage
        .locator('.home-gallery__item:not([hidden])')
        .evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.i)));
    const expected = (g: number) => Array.from({ length: 6 }, (_, i) => (g * 6 + i) % count);
    expect(await shown()).toEqual(expected(0));
    await ctxPage.clock.runFor(7_900);
    expect(await shown()).toEqual(expected(0));
    await ctxPage.clock.runFor(200);
    expect(await shown()).toEqual(expected(1));
    expect(await textOf(ctxPage.locator('.home-gallery__status'))).toBe(`Подборка 2 из ${Math.ceil(count / 6)}`);
    await ctxPage.clock.runFor(8_000 * (Math.ceil(count / 6) - 1));
    expect(await shown()).toEqual(expected(0));
    // The rotation can be paused (and resumed).
    await ctxPage.getByRole('button', { name: 'Остановить показ' }).click();
    await ctxPage.clock.runFor(20_000);
    expect(await shown()).toEqual(expected(0));
    await ctxPage.getByRole('button', { name: 'Продолжить показ' }).click();
    await ctxPage.clock.runFor(8_000);
    expect(await shown()).toEqual(expected(1));
    // Every photo has an alt text and real dimensions.
    const alts = await ctxPage
      .locator('.home-gallery img')
      .evaluateAll((imgs) => imgs.map((img) => img.getAttribute('alt')));
    expect(alts.sort()).toEqual(
      Array.from({ length: count }, (_, i) => `Фото ${i + 1} из ${count}: отдых у Каспийского моря`).sort(),
    );
    for (const img of await ctxPage.locator('.home-gallery img').all())
      expect(Number(await img.getAttribute('width'))).toBeGreaterThan(0);
  });

  it('should carry only the first 6 gallery photos in the page, fetching the rest when the visitor nears the gallery', async () => {
    const s = await settings(baseURL);
    const html = await (await fetch(new URL('/', baseURL))).text();
    expect(html.match(/class="home-gallery__item"/g)?.length).toBe(6);
    const page = await openPage('about:blank', viewport);
    // The rest of the photos and the rotation's module.
    const fetched = () =>
      page.evaluate(
        () =>
          performance
            .getEntriesByType('resource')
            .filter((r) => /\/home-gallery\.json|\/_astro\/home-gallery-rotation\./.test(r.name)).length,
      );
    await page.goto('/', { waitUntil: 'networkidle' });
    // Nothing for a visitor who stays on the first screen.
    expect(await fetched()).toBe(0);
    await page.locator('#home-cabins').scrollIntoViewIfNeeded();
    await page.locator('[data-gallery]').scrollIntoViewIfNeeded();
    await page.locator('.home-gallery__controls:not([hidden])').waitFor();
    expect(await fetched()).toBe(2);
    expect(await page.locator('.home-gallery__item').count()).toBe(s.galleryImages.length);
  });

  it('should show the why-choose-us section from the settings', async () => {
    const s = await settings(baseURL);
    const page = await openPage('/', viewport);
    const section = page.locator('section', { has: page.getByRole('heading', { level: 2, name: s.whyChooseUsTitle }) });
    expect(await section.getByRole('heading', { level: 3 }).allInnerTexts()).toEqual(
      s.whyChooseUsFeatures.map((f) => f.title),
    );
  });

  it('should show three approved reviews cut at 150 characters, and open one on /reviews', async () => {
    const reviews = await approvedReviews(baseURL);
    const page = await openPage('/', viewport);
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Что говорят гости' }) });
    const cards = section.getByRole('article');
    expect(await cards.count()).toBe(3);
    let opened = false;
    for (const card of await cards.all()) {
      const name = await textOf(card.getByRole('heading'));
      const text = flat(await card.locator('.review-card__text').innerText());
      const review = reviews.find((r) => r.name === name && flat(r.comment).startsWith(text.replace(/\.\.\.$/, '')));
      expect(review, `a shown review (${name}) is an approved one`).toBeTruthy();
      const more = card.getByRole('link', { name: /Читать полностью/ });
      if (review!.comment.length > 150) {
        expect(text.endsWith('...')).toBe(true);
        expect(text.length).toBeLessThanOrEqual(153);
        if (!opened) {
          opened = true;
          await more.click();
          const modal = page.getByRole('dialog', { name: 'Полный отзыв' });
          await visible(modal);
          expect(flat(await modal.innerText())).toContain(flat(review!.comment));
          await page.waitForURL(`${baseURL}/reviews`);
          break;
        }
      } else {
        expect(await more.count()).toBe(0);
      }
    }
    if (!opened) {
      // No long review among the three picked: the hand-off still works by address.
      const long = reviews.find((r) => r.comment.length > 150)!;
      await page.goto(`/reviews?open=${long.id}`);
      await visible(page.getByRole('dialog', { name: 'Полный отзыв' }));
      await page.waitForURL(`${baseURL}/reviews`);
    }
    await page.goto('/');
    await page.getByRole('link', { name: 'Все отзывы и оставить свой' }).click();
    await page.waitForURL('**/reviews');
  });

  it('should need no framework: only a few lines of script for the gallery and the header', async () => {
    const page = await openPage('about:blank', viewport);
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
    await page.goto('/', { waitUntil: 'networkidle' });
    expect(scripts.every((u) => !/client\.|react/i.test(u))).toBe(true);
    expect(await page.locator('astro-island').count()).toBe(0);
  });
});
