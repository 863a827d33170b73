import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser, type ViewportName } from '../browser.ts';
import { addDays, nightsBetween } from '../../../schema/dates.ts';
import type { Cabin } from '../../../schema/tables.ts';
import { stayRules } from '../../../site/lib/stay-picker.ts';
import { adminApi, cabins, getJson, ru, rub, settings, textOf, visible, waDigits } from './helpers.ts';
import { dayButton, pickStay } from '../stay-calendar.ts';

/** The viewer hydrates when a photo is approached (pointer, touch or focus); then the photos say they open a dialog. */
const viewerReady = (page: Page) =>
  page.locator('[data-viewer][aria-haspopup="dialog"]').first().waitFor({ state: 'attached' });

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
      expect(await img.getAttribute('alt')).toMatch(
        new RegExp(`^${cabin.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, фото \\d+ из ${cabin.images.length}$`),
      );
      expect(await img.getAttribute('srcset')).toMatch(/^\/_astro\/\S+\.webp 480w, .*720w/);
      expect(Number(await img.getAttribute('width'))).toBeGreaterThan(0);
    }
    expect(await page.locator('.cabin-gallery source[type="image/avif"]').first().getAttribute('srcset')).toMatch(
      /\.avif 480w/,
    );
    // The photos really load.
    await page.waitForFunction(
      () => ((document.querySelector('.cabin-gallery img') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0,
    );
  });

  it.skipIf(viewport !== 'phone')(
    "should fetch the strip's photos past the second only when the visitor swipes to them",
    async () => {
      const cabin = await pick();
      expect(cabin.images.length).toBeGreaterThan(2);
      const page = await openPage(`/cabin/${cabin.id}`, viewport);
      const photos = page.locator('.cabin-gallery img');
      const loaded = (i: number) =>
        photos.nth(i).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);
      await page.waitForFunction(
        () =>
          ((document.querySelectorAll('.cabin-gallery img')[1] as HTMLImageElement | undefined)?.naturalWidth ?? 0) > 0,
      );
      // The third photo lies a screen to the right: lazy loading alone fetched it with the first.
      await page.waitForTimeout(500);
      expect(await loaded(2)).toBe(false);
      await page.locator('.cabin-gallery').evaluate((strip) => strip.scrollBy({ left: strip.clientWidth }));
      await page.waitForFunction(
        () => (document.querySelectorAll('.cabin-gallery img')[2] as HTMLImageElement).naturalWidth > 0,
      );
      // It fills its frame as the first does.
      const [first, third] = await Promise.all([photos.nth(0).boundingBox(), photos.nth(2).boundingBox()]);
      expect([Math.round(third!.width), Math.round(third!.height)]).toEqual([
        Math.round(first!.width),
        Math.round(first!.height),
      ]);
    },
  );

  /** The cabin page with its first photo's answer held back until `release` is called; `askedFor` tells whether a photo has been asked for. */
  async function firstPhotoHeld(cabin: Cabin) {
    const name = (src: string) =>
      src
        .split('/')
        .pop()!
        .replace(/\.\w+$/, '');
    // The build names a photo's files `/_astro/<its name>_<hash>.<format>`.
    const [first, second] = [`/_astro/${name(cabin.images[0]!)}_`, `/_astro/${name(cabin.images[1]!)}_`];
    const page = await openPage('/robots.txt', viewport);
    const asked: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(
      (url) => url.pathname.startsWith(first),
      async (route) => {
        await held;
        await route.continue();
      },
    );
    page.on('request', (req) => asked.push(new URL(req.url()).pathname));
    // Not until `load`: that waits for the held photo.
    await page.goto(`/cabin/${cabin.id}`, { waitUntil: 'domcontentloaded' });
    const loaded = (i: number) =>
      page
        .locator('.cabin-gallery img')
        .nth(i)
        .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);
    return {
      page,
      release,
      loaded,
      askedFor: (photo: 'first' | 'second') => asked.some((p) => p.startsWith(photo === 'first' ? first : second)),
    };
  }

  it("should fetch the second photo only once the first, the page's largest paint, has arrived", async () => {
    const cabin = await pick();
    const { page, release, loaded, askedFor } = await firstPhotoHeld(cabin);
    await expect.poll(() => askedFor('first')).toBe(true);
    // Lazy loading alone fetched the second photo (at the strip's edge on a phone, beside the first on a desktop) with the first.
    await page.waitForTimeout(700);
    expect(askedFor('second')).toBe(false);
    const frame = page.locator('.cabin-gallery__item').nth(1);
    const size = async (box: Promise<{ width: number; height: number } | null>) => {
      const b = (await box)!;
      return [Math.round(b.width), Math.round(b.height)];
    };
    const waiting = await size(frame.boundingBox());
    expect(waiting[0]! * waiting[1]!).toBeGreaterThan(0);
    release();
    await expect.poll(() => loaded(0), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => loaded(1), { timeout: 10_000 }).toBe(true);
    // Nothing moved: the frame had its size while it waited, and the photo fills it.
    expect(await size(frame.boundingBox())).toEqual(waiting);
    expect(await size(page.locator('.cabin-gallery img').nth(1).boundingBox())).toEqual(waiting);
  });

  it.skipIf(viewport !== 'phone')(
    'should show the second photo to a visitor who swipes before the first has arrived',
    async () => {
      const cabin = await pick();
      const { page, release, loaded } = await firstPhotoHeld(cabin);
      await page.waitForTimeout(300);
      await page.locator('.cabin-gallery').evaluate((strip) => strip.scrollBy({ left: strip.clientWidth * 0.8 }));
      await expect.poll(() => loaded(1), { timeout: 10_000 }).toBe(true);
      expect(await loaded(0)).toBe(false);
      release();
    },
  );

  it('should open the full-screen viewer: previous/next wrapping, arrows, thumbnails, counter, Escape', async () => {
    const cabin = await pick();
    const n = cabin.images.length;
    expect(n).toBeGreaterThan(2);
    const page = await openPage(`/cabin/${cabin.id}`, viewport);
    // On a phone React is not even loaded with the page: the first click wakes the viewer
    // and opens the photo.
    if (viewport === 'phone') {
      await page.waitForLoadState('networkidle');
      expect(
        await page.evaluate(() => performance.getEntriesByType('resource').some((r) => /client\.\w+\.js/.test(r.name))),
      ).toBe(false);
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
    await page.waitForFunction(
      () => ((document.querySelector('.viewer__img') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0,
    );
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
    for (const rule of [
      `Заезд после ${s.checkInTime}`,
      `Выезд до ${s.checkOutTime}`,
      'Курение запрещено',
      'Без вечеринок и мероприятий',
      // As the owner set the cabin's pets rule.
      cabin.pets.allowed ? 'Можно с питомцами' : 'Без домашних животных',
    ]) {
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

  it('should add the dates, nights, guests and the total by season to the message once a stay is picked', async () => {
    const cabin = await pick();
    const free = await availability(baseURL, cabin.id);
    const stay = firstFreeStay(free, 20, 3);
    const quote = stayRules(free).quote(stay.checkIn, stay.checkOut);
    const page = await openPage(`/cabin/${cabin.id}`, viewport);
    // The card wakes up when it scrolls into view.
    await page.locator('#booking').scrollIntoViewIfNeeded();
    await page.locator('#booking[data-ready]').waitFor();
    const card = page.locator('#booking');
    const guests = card.getByLabel('Гости');
    expect(await guests.locator('option').count()).toBe(cabin.maxGuests);
    await guests.selectOption(String(cabin.maxGuests));
    await pickStay(page, stay.checkIn, stay.checkOut);
    // The tapped day is marked at once; the month then draws the stay and the mark goes.
    const last = page.locator(`.stay-calendar [data-day="${stay.checkOut}"]`);
    await expect.poll(() => last.getAttribute('aria-selected')).toBe('true');
    expect(await page.locator('.stay-calendar [data-picked]').count()).toBe(0);
    const total = rub(quote.total);
    const sum = await textOf(card.locator('.booking__sum'));
    expect(sum).toContain(`Итого ${total}`);
    // Drawn as a tinted block: its rules come with the card's script, not in the page.
    expect(await card.locator('.booking__sum').evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(
      'rgba(0, 0, 0, 0)',
    );
    expect(await (await page.request.get(`/cabin/${cabin.id}`)).text()).not.toContain('.booking__sum');
    for (const part of quote.parts)
      expect(sum).toContain(`${rub(part.pricePerNight)} × ${part.nights} ${ru(part.nights, 'ночь', 'ночи', 'ночей')}`);
    const href = (await card.getByRole('link', { name: 'Забронировать через WhatsApp' }).getAttribute('href'))!;
    const message = new URL(href).searchParams.get('text')!.replace(/\u00a0/g, ' ');
    expect(message).toContain(`Заезд: ${longDate(stay.checkIn)}`);
    expect(message).toContain(`Выезд: ${longDate(stay.checkOut)}`);
    expect(message).toContain(`Гостей: ${cabin.maxGuests}`);
    expect(message).toContain(`Итого за 3 ночи: ${total}`);
    // «Сбросить» forgets the stay, and the message goes back to asking for dates.
    await card.getByLabel('Заезд').click();
    await card.getByRole('button', { name: 'Сбросить' }).click();
    // The card's lines follow the calendar a frame after the tap.
    const link = card.getByRole('link', { name: 'Забронировать через WhatsApp' });
    await expect
      .poll(async () => new URL((await link.getAttribute('href'))!).searchParams.get('text'))
      .toContain('какие даты свободны');
  });

  it('should let a keyboard user open the calendar, walk its days with the arrows and pick a stay with Enter', async () => {
    const cabin = await pick();
    const free = await availability(baseURL, cabin.id);
    const stay = firstFreeStay(free, 20, 3);
    const page = await openPage(`/cabin/${cabin.id}`, viewport);
    await page.locator('#booking').scrollIntoViewIfNeeded();
    await page.locator('#booking[data-ready]').waitFor();
    const card = page.locator('#booking');
    await card.getByLabel('Заезд').focus();
    await page.keyboard.press('Enter');
    await page.locator('.stay-calendar .rdp-caption_label').waitFor();
    // The day the keyboard is on, as the calendar's cell names it.
    const focusedDay = () =>
      page.evaluate(
        () => document.activeElement?.closest<HTMLElement>('.stay-calendar [data-day]')?.dataset.day ?? null,
      );
    for (let i = 0; i < 12 && !(await focusedDay()); i++) await page.keyboard.press('Tab');
    expect(await focusedDay()).not.toBeNull();
    const walkTo = async (day: string) => {
      for (let i = 0; i < 400 && (await focusedDay())! < day; i++) await page.keyboard.press('ArrowRight');
      expect(await focusedDay()).toBe(day);
      await page.keyboard.press('Enter');
    };
    await walkTo(stay.checkIn);
    await visible(card.getByText(/^Выберите дату выезда/));
    await walkTo(stay.checkOut);
    await visible(card.locator('.booking__calendar-foot .hint', { hasText: '3 ночи' }));
    expect(await textOf(card.locator('.booking__sum'))).toContain(
      `Итого ${rub(stayRules(free).quote(stay.checkIn, stay.checkOut).total)}`,
    );
    // The keyboard stays on the day it picked.
    expect(await focusedDay()).toBe(stay.checkOut);
  });

  it('should store a booking request for the picked stay, keep what was typed when the network drops, and carry its number to WhatsApp', async () => {
    const cabin = await pick();
    const free = await availability(baseURL, cabin.id);
    const stay = firstFreeStay(free, viewport === 'phone' ? 150 : 160, 2);
    const page = await openPage(`/cabin/${cabin.id}`, viewport);
    await page.locator('#booking').scrollIntoViewIfNeeded();
    await page.locator('#booking[data-ready]').waitFor();
    await pickStay(page, stay.checkIn, stay.checkOut);
    const card = page.locator('#booking');
    const name = `Гость ${viewport} ${Date.now()}`;
    await card.getByLabel('Имя').fill(name);
    await card.getByLabel('Телефон').fill('+7 928 555-12-34');
    await card.getByLabel('Комментарий').fill('Приедем с собакой');
    // Without the consent the form says so and sends nothing.
    await card.getByRole('button', { name: 'Отправить заявку' }).click();
    await visible(card.getByText('Необходимо согласие на обработку персональных данных'));
    await card.getByLabel(/Я согласен/).check();
    // The network drops: the visitor is told, and nothing typed is lost.
    await page.route('**/api/bookings', (route) => route.abort('internetdisconnected'));
    await card.getByRole('button', { name: 'Отправить заявку' }).click();
    await visible(card.getByText(/Не удалось отправить заявку/));
    expect(await card.getByLabel('Имя').inputValue()).toBe(name);
    expect(await card.getByLabel('Комментарий').inputValue()).toBe('Приедем с собакой');
    await page.unroute('**/api/bookings');
    await card.getByRole('button', { name: 'Отправить заявку' }).click();
    const sent = card.locator('.booking__sent');
    await visible(sent);
    const number = /Заявка №(\d+) принята/.exec(await textOf(sent))?.[1];
    expect(number).toBeDefined();
    const href = (await card.getByRole('link', { name: 'Забронировать через WhatsApp' }).getAttribute('href'))!;
    expect(new URL(href).searchParams.get('text')).toContain(`Заявка №${number}`);
    // The owner has it, with the server's total.
    const admin = await adminApi(baseURL);
    const rows = await (await admin.client.admin.bookings.$get({ query: {} })).json();
    const row = rows.find((r) => r.id === Number(number))!;
    expect(row).toMatchObject({
      name,
      status: 'new',
      comment: 'Приедем с собакой',
      total: stayRules(free).quote(stay.checkIn, stay.checkOut).total,
    });
    await admin.del(`/admin/bookings/${row.id}`);
  });

  it('should strike out busy nights, yet allow leaving on the morning the next stay begins', async () => {
    // The demo closes some nights of a cabin (a block, an imported feed).
    let cabin: Cabin | undefined;
    let free: Availability | undefined;
    for (const c of await cabins(baseURL)) {
      const a = await availability(baseURL, c.id);
      if (a.busy.some((b) => b.start > addDays(a.from, 2))) [cabin, free] = [c, a];
      if (cabin) break;
    }
    expect(cabin, 'a demo cabin with busy nights ahead').toBeDefined();
    const busy = free!.busy.find((b) => b.start > addDays(free!.from, 2))!;
    const page = await openPage(`/cabin/${cabin!.id}`, viewport);
    await page.locator('#booking').scrollIntoViewIfNeeded();
    await page.locator('#booking[data-ready]').waitFor();
    await page.locator('#booking').getByLabel('Заезд').click();
    // A busy night cannot be a check-in.
    expect(await (await dayButton(page, busy.start)).isDisabled()).toBe(true);
    // The nearest check-in before it whose minimum stay fits: that stay may end on its first morning.
    const a = free!;
    const checkIn = [1, 2, 3, 4, 5, 6, 7]
      .map((k) => addDays(busy.start, -k))
      .find(
        (d) =>
          d >= a.from &&
          !a.busy.some((b) => b.start < busy.start && d < b.end) &&
          stayRules(a).quote(d, busy.start).minNights <= nightsBetween(d, busy.start),
      );
    expect(checkIn, 'a free check-in before the busy nights').toBeDefined();
    await (await dayButton(page, checkIn!)).click();
    expect(await (await dayButton(page, busy.start)).isDisabled()).toBe(false);
    expect(await (await dayButton(page, addDays(busy.start, 1))).isDisabled()).toBe(true);
    await (await dayButton(page, busy.start)).click();
    expect(await textOf(page.locator('.booking__sum'))).toContain(
      `Итого ${rub(stayRules(a).quote(checkIn!, busy.start).total)}`,
    );
  });
});

type Availability = {
  from: string;
  to: string;
  busy: { start: string; end: string }[];
  seasons: { start: string; end: string; pricePerNight: number; minNights: number }[];
  pricePerNight: number;
  minNights: number;
};
const availability = (baseURL: string, id: number) => getJson<Availability>(baseURL, `/api/cabins/${id}/availability`);

/** The first stay of `nights` nights from `after` days ahead with every night free and the minimum stay met. */
function firstFreeStay(a: Availability, after: number, nights: number) {
  for (let n = after; n < 300; n++) {
    const checkIn = addDays(a.from, n);
    const checkOut = addDays(checkIn, nights);
    const clash = a.busy.some((b) => b.start < checkOut && checkIn < b.end);
    if (!clash && stayRules(a).quote(checkIn, checkOut).minNights <= nights) return { checkIn, checkOut };
  }
  throw new Error('no free stay in the demo calendar');
}

/** «5 марта 2027». */
const longDate = (day: string) =>
  new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })
    .format(new Date(`${day}T12:00:00Z`))
    .replace(' г.', '');
