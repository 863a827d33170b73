import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { addDays, todayInMoscow } from '../../../schema/dates.ts';
import type { BookingChannel } from '../../../schema/booking-options.ts';
import { apiAt } from '../../typed-api.ts';
import { useBrowser } from '../browser.ts';
import { adminApi, notice, signIn, visible } from '../admin/helpers.ts';

type Cabin = { id: number; name: string; maxGuests: number };
type Availability = {
  busy: { start: string; end: string }[];
  seasons: { start: string; end: string; minNights: number | null }[];
  minNights: number;
};
type Sent = { id: number; nights: number; total: number; checkIn: string; checkOut: string };

/** «5 марта» as Chromium's Russian calendar writes it, for checking the panel's own dates. */
const dayMonth = (date: string) =>
  new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );
/** «5–8 марта 2027», «30 марта — 2 апреля 2027» or across the new year. */
function expectedStay(checkIn: string, checkOut: string): string {
  const [y1, y2] = [checkIn.slice(0, 4), checkOut.slice(0, 4)];
  if (y1 !== y2) return `${dayMonth(checkIn)} ${y1} — ${dayMonth(checkOut)} ${y2}`;
  if (checkIn.slice(0, 7) === checkOut.slice(0, 7)) return `${Number(checkIn.slice(8))}–${dayMonth(checkOut)} ${y1}`;
  return `${dayMonth(checkIn)} — ${dayMonth(checkOut)} ${y1}`;
}
/** «24 ноября, 16:05» in Moscow. */
function expectedReceived(iso: string): string {
  const parts = new Intl.DateTimeFormat('ru-RU', {
    day: 'numeric',
    month: 'long',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'Europe/Moscow',
  }).formatToParts(new Date(iso));
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('day')} ${part('month')}, ${part('hour')}:${part('minute')}`;
}
const plainSpaces = (s: string) => s.replace(/[\s\u00a0\u202f]+/g, ' ');

describe('the owner answers booking requests in «Заявки»', () => {
  const { baseURL, openPage } = useBrowser();
  const mine: number[] = [];

  afterAll(async () => {
    // Whatever a failure left behind goes, so other journeys see the nights free.
    const api = await adminApi(baseURL);
    for (const id of mine) await api.del(`/admin/bookings/${id}`);
    await api.logout();
  });

  const availability = async (cabinId: number) =>
    (await (await fetch(`${baseURL}/api/cabins/${cabinId}/availability`)).json()) as Availability;

  it('should show new requests with a count, confirm one (its nights turn busy), refuse a clash in Russian, decline, cancel and delete on a phone', async () => {
    const cabins = (await (await fetch(`${baseURL}/api/cabins`)).json()) as Cabin[];
    const cabin = cabins.at(-1)!;
    const free = await availability(cabin.id);
    const nights = Math.max(3, free.minNights);
    // About eight months ahead (other journeys book at +120, +200, +260 and later), on nights
    // with nothing busy around them and no season of its own.
    const span = 10 + nights + 2;
    let start = addDays(todayInMoscow(), 230);
    const clear = (s: string) => {
      const [a, b] = [addDays(s, -1), addDays(s, span)];
      return !free.busy.some((r) => r.start < b && r.end > a) && !free.seasons.some((r) => r.start < b && r.end > a);
    };
    while (!clear(start)) start = addDays(start, 1);

    const send = async (
      name: string,
      checkIn: string,
      extra: { email: string; channel: BookingChannel; guests: number },
    ): Promise<Sent> => {
      const checkOut = addDays(checkIn, nights);
      const res = await apiAt(baseURL).bookings.$post({
        json: {
          cabinId: cabin.id,
          checkIn,
          checkOut,
          name,
          phone: '+7 928 000-11-22',
          comment: `Комментарий: ${name}`,
          consent: true,
          website: '',
          ...extra,
        },
      });
      const body = await res.json();
      expect(res.status, 'error' in body ? body.error : undefined).toBe(201);
      if ('error' in body) throw new Error(body.error);
      mine.push(body.id);
      return { ...body, checkIn, checkOut };
    };
    const guests = Math.min(2, cabin.maxGuests);
    const first = await send('Первая Гостья', start, { email: 'pervaya@example.ru', channel: 'whatsapp', guests });
    const clash = await send('Второй Гость', addDays(start, 1), { email: '', channel: 'telegram', guests: 1 });
    const other = await send('Третий Гость', addDays(start, 10), { email: '', channel: 'phone', guests: 1 });

    const api = await adminApi(baseURL);
    const rows = await (await api.client.admin.bookings.$get({ query: {} })).json();
    const waiting = rows.filter((b) => b.status === 'new').length;
    const createdAt = rows.find((b) => b.id === first.id)!.createdAt;

    // The panel opens on «Заявки», its count on the tab.
    const page = await openPage('/admin', 'phone');
    await page.setViewportSize({ width: 360, height: 780 });
    await signIn(page);
    await visible(page.getByRole('heading', { level: 2, name: 'Заявки' }));
    await expect.poll(() => badge(page)).toBe(waiting);
    const item = (id: number) =>
      page.locator('.booking-item').filter({ has: page.getByRole('heading', { name: new RegExp(`^№${id} ·`) }) });
    await visible(item(first.id));

    // Newest first.
    const titles = await page.locator('.booking-item h3').allInnerTexts();
    const at = (id: number) => titles.findIndex((t) => t.startsWith(`№${id} `));
    expect(at(other.id)).toBeLessThan(at(clash.id));
    expect(at(clash.id)).toBeLessThan(at(first.id));

    // Everything needed to call the guest back, in Russian.
    const card = item(first.id);
    const text = plainSpaces(await card.innerText());
    expect(text).toContain(cabin.name);
    expect(text).toContain('Новая');
    expect(text).toContain(expectedStay(first.checkIn, first.checkOut));
    expect(text).toMatch(new RegExp(`${nights} ноч(и|ей)`));
    expect(text).toContain(`${guests} гост${guests === 1 ? 'ь' : 'я'}`);
    expect(text).toContain(`${plainSpaces(new Intl.NumberFormat('ru-RU').format(first.total))} ₽`);
    expect(text).toContain('Первая Гостья');
    expect(text).toContain('Комментарий: Первая Гостья');
    expect(text).toContain('WhatsApp');
    expect(text).toContain(`получена ${expectedReceived(createdAt)}`);
    expect(await card.getByRole('link', { name: /\+7 928 000-11-22/ }).getAttribute('href')).toBe('tel:+79280001122');
    expect(await card.getByRole('link', { name: /pervaya@example\.ru/ }).getAttribute('href')).toBe(
      'mailto:pervaya@example.ru',
    );
    expect(plainSpaces(await item(clash.id).innerText())).toContain('Telegram');
    expect(await item(clash.id).getByRole('link', { name: /@/ }).count()).toBe(0);
    expect(plainSpaces(await item(other.id).innerText())).toContain('Звонок');

    // A phone of 360px: nothing wider than the screen, every tap at least 44px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const small = await page.$$eval('.booking-item a, .booking-item button, .bookings .segmented__btn', (els) =>
      els
        .map((el) => ({ text: (el as HTMLElement).innerText.trim(), box: el.getBoundingClientRect() }))
        .filter(({ box }) => box.height < 44 || box.width < 44)
        .map(({ text, box }) => `${text} ${Math.round(box.width)}×${Math.round(box.height)}`),
    );
    expect(small).toEqual([]);

    // The filter shows only the new ones.
    await page.getByRole('button', { name: /^Новые/ }).click();
    expect(await page.locator('.booking-item').count()).toBe(waiting);
    await page.getByRole('button', { name: /^Все/ }).click();

    // Confirming: the nights turn busy on the site, the count goes down.
    await card.getByRole('button', { name: /Подтвердить/ }).click();
    await visible(card.locator('.badge', { hasText: 'Подтверждена' }));
    await visible(notice(page, `Заявка №${first.id} подтверждена: эти ночи теперь заняты`));
    expect((await availability(cabin.id)).busy).toContainEqual({ start: first.checkIn, end: first.checkOut });
    await expect.poll(() => badge(page)).toBe(waiting - 1);
    expect(await card.getByRole('button', { name: /Подтвердить|Отклонить/ }).count()).toBe(0);

    // The same nights for someone else: refused in Russian, and the list is read again (a
    // change made meanwhile elsewhere shows up).
    expect((await api.put(`/admin/bookings/${other.id}`, { status: 'declined' })).status).toBe(200);
    await item(clash.id)
      .getByRole('button', { name: /Подтвердить/ })
      .click();
    await visible(notice(page, `Не удалось изменить заявку №${clash.id}: Эти даты уже заняты. Выберите другие`));
    await visible(item(other.id).locator('.badge', { hasText: 'Отклонена' }));
    await visible(item(clash.id).locator('.badge', { hasText: 'Новая' }));
    await expect.poll(() => badge(page)).toBe(waiting - 2);

    // Declining.
    await item(clash.id)
      .getByRole('button', { name: /Отклонить/ })
      .click();
    await visible(item(clash.id).locator('.badge', { hasText: 'Отклонена' }));
    await expect.poll(() => badge(page)).toBe(waiting - 3);
    expect(
      (await (await api.client.admin.bookings.$get({ query: {} })).json()).find((b) => b.id === clash.id)?.status,
    ).toBe('declined');
    await visible(item(clash.id).getByRole('button', { name: /Подтвердить/ }));

    // Cancelling asks first; «Не отменять» keeps it, then the nights are free again.
    await card.getByRole('button', { name: /Отменить бронирование/ }).click();
    const dialog = page.getByRole('alertdialog');
    await visible(dialog.getByText('эти ночи снова станут свободными'));
    await dialog.getByRole('button', { name: 'Не отменять' }).click();
    expect(await card.locator('.badge').innerText()).toBe('Подтверждена');
    await card.getByRole('button', { name: /Отменить бронирование/ }).click();
    await dialog.getByRole('button', { name: 'Отменить бронирование' }).click();
    await visible(card.locator('.badge', { hasText: 'Отменена' }));
    expect((await availability(cabin.id)).busy.some((b) => b.start < first.checkOut && b.end > first.checkIn)).toBe(
      false,
    );
    await visible(card.getByRole('button', { name: /Подтвердить/ }));

    // Deleting warns that the guest's personal data goes too.
    await card.getByRole('button', { name: /Удалить/ }).click();
    await visible(dialog.getByText(/персональными данными гостя/));
    await dialog.getByRole('button', { name: 'Удалить' }).click();
    await card.waitFor({ state: 'detached' });
    await visible(notice(page, `Заявка №${first.id} удалена`));
    const left = await (await api.client.admin.bookings.$get({ query: {} })).json();
    expect(left.some((b) => b.id === first.id)).toBe(false);
    expect(left.some((b) => b.id === clash.id)).toBe(true);
    await api.logout();
  });

  it('should say there are no requests yet on a desktop when there are none', async () => {
    const page = await openPage('/admin', 'desktop');
    // An owner before the first request: the list answered empty.
    await page.route('**/api/admin/bookings', (route) =>
      route.request().method() === 'GET' ? route.fulfill({ json: [] }) : route.continue(),
    );
    await signIn(page);
    await visible(page.getByRole('heading', { level: 2, name: 'Заявки' }));
    await visible(page.getByText(/^Заявок пока нет/));
    expect(await page.locator('.admin-nav__count').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Новые/ }).count()).toBe(0);
  });
});

/** The number on the «Заявки» tab, 0 when it shows none. */
async function badge(page: Page): Promise<number> {
  const count = page.getByRole('navigation', { name: 'Разделы панели' }).locator('.admin-nav__count');
  if (!(await count.count())) return 0;
  return Number.parseInt(await count.innerText(), 10);
}
