import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser, type ViewportName } from '../browser.ts';
import { cabins, ru, rub, settings, textOf, visible, waDigits } from './helpers.ts';

/** A date n days from today, «YYYY-MM-DD». */
const inDays = (n: number) => {
  const d = new Date();
  d.setDate(d.getDate() + n);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** The viewer hydrates when a photo is approached (pointer, touch or focus); then the photos say they open a dialog. */
const viewerReady = (page: Page) => page.locator('[data-viewer][aria-haspopup="dialog"]').first().waitFor({ state: 'attached' });

describe.each<ViewportName>(['phone', 'desktop'])('a cabin page on a %s', (viewport) => {
  const { baseURL, openPage } = useBrowser();
  /** The demo cabin with the most photos, so the viewer has somewhere to go. */
  const pick = async () => (await cabins(baseURL)).reduce((a, b) => (b.images.length > a.images.length ? b : a));

  it('should show the name, description, counts, distance, location and amenities', async () => {
    const cabin = await pick();
    const page = await openPage(`/cabin/${cabin.id}`, viewport);
    await visible(page.getByRole('heading', { level: 1, name: cabin.name }));
    const main = await textOf(page.locator('main'));
    expect(main).toContain(cabin.description.replace(/\s+/g, ' ').trim());
    expect(main).toContain(`${cabin.bedrooms} ${ru(cabin.bedrooms, 'спальня', 'спальни', 'спален')}`);
    expect(main).toContain(`${cabin.bathrooms} ${ru(cabin.bathrooms, 'ванная', 'ванные', 'ванных')}`);
    expect(main).toContain(`до ${cabin.maxGuests} ${ru(cabin.maxGuests, 'гостя', 'гостей', 'гостей')}`);
    expect(main).toContain(`До моря: ${cabin.distanceToSea}`);
    expect(main).toContain(cabin.location);
    const amenities = page.getByRole('heading', { name: 'Удобства' }).locator('..').getByRole('listitem');
    expect(await amenities.allInnerTexts()).toEqual(cabin.amenities);
  });

  it('should show optimised photos, the first loaded at once, and every photo with an alt text', async () => {
    const cabin = await pick();
    const page = await openPage(`/cabin/${cabin.id}`, viewport);
    const imgs = page.locator('.cabin-gallery img');
    expect(await imgs.count()).toBe(Math.min(5, cabin.images.length));
    expect(await imgs.first().getAttribute('loading')).toBe('eager');
    expect(await imgs.first().getAttribute('fetchpriority')).toBe('high');
    expect(await imgs.nth(1).getAttribute('loading')).toBe('lazy');
    for (const img of await imgs.all()) {
      expect(await img.getAttribute('alt')).toMatch(new RegExp(`^${cabin.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, фото \\d+ из ${cabin.images.length}$`));
      expect(await img.getAttribute('srcset')).toMatch(/^\/_astro\/\S+\.webp 480w, .*720w/);
      expect(Number(await img.getAttribute('width'))).toBeGreaterThan(0);
    }
    expect(await page.locator('.cabin-gallery source[type="image/avif"]').first().getAttribute('srcset')).toMatch(/\.avif 480w/);
    // The photos really load.
    await page.waitForFunction(() => (document.querySelector('.cabin-gallery img') as HTMLImageElement | null)?.naturalWidth! > 0);
  });

  it('should open the full-screen viewer: previous/next wrapping, arrows, thumbnails, counter, Escape', async () => {
    const cabin = await pick();
    const n = cabin.images.length;
    expect(n).toBeGreaterThan(2);
    const page = await openPage(`/cabin/${cabin.id}`, viewport);
    // On a phone React is not even loaded with the page: the first click wakes the viewer
    // and opens the photo.
    if (viewport === 'phone') {
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => performance.getEntriesByType('resource').some((r) => /client\.\w+\.js/.test(r.name)))).toBe(false);
    }
    const first = page.locator('[data-viewer="0"]');
    await first.click();
    const viewer = page.getByRole('dialog', { name: `Фото: ${cabin.name}` });
    await visible(viewer);
    const counter = viewer.locator('.viewer__counter');
    expect(await textOf(counter)).toBe(`1 / ${n}`);
    await viewer.getByRole('button', { name: 'Предыдущее фото' }).click();
    expect(await textOf(counter)).toBe(`${n} / ${n}`);
    await viewer.getByRole('button', { name: 'Следующее фото' }).click();
    expect(await textOf(counter)).toBe(`1 / ${n}`);
    await page.keyboard.press('ArrowRight');
    expect(await textOf(counter)).toBe(`2 / ${n}`);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect(await textOf(counter)).toBe(`${n} / ${n}`);
    await page.keyboard.press('ArrowRight');
    expect(await textOf(counter)).toBe(`1 / ${n}`);
    const thumbs = viewer.getByRole('list', { name: 'Все фото' }).getByRole('button');
    expect(await thumbs.count()).toBe(n);
    await thumbs.nth(2).click();
    expect(await textOf(counter)).toBe(`3 / ${n}`);
    expect(await thumbs.nth(2).getAttribute('aria-current')).toBe('true');
    expect(await viewer.locator('img.viewer__img').getAttribute('alt')).toBe(`${cabin.name}, фото 3 из ${n}`);
    await page.waitForFunction(() => (document.querySelector('.viewer__img') as HTMLImageElement | null)?.naturalWidth! > 0);
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
  });

  it('should keep the focus inside the viewer and give it back on close', async () => {
    const cabin = await pick();
    const page = await openPage(`/cabin/${cabin.id}`, viewport);
    // By keyboard: focus the second photo (which wakes the viewer), Enter opens it.
    const second = page.locator('[data-viewer="1"]');
    await second.focus();
    await viewerReady(page);
    await page.keyboard.press('Enter');
    const viewer = page.getByRole('dialog');
    await visible(viewer);
    expect(await textOf(viewer.locator('.viewer__counter'))).toBe(`2 / ${cabin.images.length}`);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Закрыть');
    for (let i = 0; i < cabin.images.length + 6; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    await viewer.getByRole('button', { name: 'Закрыть' }).click();
    await viewer.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-viewer'))).toBe('1');
  });

  it('should offer booking by WhatsApp with the price, the house rules and the note', async () => {
    const cabin = await pick();
    const s = await settings(baseURL);
    const page = await openPage(`/cabin/${cabin.id}`, viewport);
    const card = page.locator('#booking');
    const text = await textOf(card);
    expect(text).toContain(`${rub(cabin.pricePerNight)} за ночь`);
    for (const rule of [`Заезд после ${s.checkInTime}`, `Выезд до ${s.checkOutTime}`, 'Курение запрещено', 'Без вечеринок и мероприятий', 'Можно с питомцами']) {
      expect(text).toContain(rule);
    }
    expect(text).toContain('Нажимая кнопку, вы перейдете в WhatsApp для оформления бронирования.');
    const button = card.getByRole('link', { name: 'Забронировать через WhatsApp' });
    expect(await button.getAttribute('target')).toBe('_blank');
    const href = (await button.getAttribute('href'))!;
    expect(href.startsWith(`https://wa.me/${waDigits(s.phone)}?text=`)).toBe(true);
    const message = new URL(href).searchParams.get('text')!.replace(/\u00a0/g, ' ');
    expect(message).toContain(`«${cabin.name}»`);
    expect(message).toContain(`${rub(cabin.pricePerNight)} за ночь`);
    if (viewport === 'phone') {
      // On a phone the price and the button also stay at the bottom of the screen.
      await visible(page.locator('.book-bar'));
    }
  });

  it('should add the dates, nights, guests and total to the message when they are filled', async () => {
    const cabin = await pick();
    const page = await openPage(`/cabin/${cabin.id}`, viewport);
    // The card wakes up when it scrolls into view.
    await page.locator('#booking').scrollIntoViewIfNeeded();
    await page.locator('#booking[data-ready]').waitFor();
    const card = page.locator('#booking');
    const guests = card.getByLabel('Гости');
    expect(await guests.locator('option').count()).toBe(cabin.maxGuests);
    await card.getByLabel('Заезд').fill(inDays(30));
    await card.getByLabel('Выезд').fill(inDays(33));
    await guests.selectOption(String(cabin.maxGuests));
    const total = rub(3 * cabin.pricePerNight);
    expect(await textOf(card.locator('.booking__sum'))).toContain(`Итого ${total}`);
    const href = (await card.getByRole('link', { name: 'Забронировать через WhatsApp' }).getAttribute('href'))!;
    const message = new URL(href).searchParams.get('text')!.replace(/\u00a0/g, ' ');
    expect(message).toMatch(/Заезд: \d{1,2} [а-я]+ \d{4}/);
    expect(message).toMatch(/Выезд: \d{1,2} [а-я]+ \d{4}/);
    expect(message).toContain(`Гостей: ${cabin.maxGuests}`);
    expect(message).toContain(`Итого за 3 ночи: ${total}`);
    // A departure before the arrival is refused, and the message goes back to asking for dates.
    await card.getByLabel('Выезд').fill(inDays(29));
    await visible(card.getByText('Дата выезда должна быть позже даты заезда'));
    const plain = (await card.getByRole('link', { name: 'Забронировать через WhatsApp' }).getAttribute('href'))!;
    expect(new URL(plain).searchParams.get('text')).toContain('какие даты свободны');
  });
});
