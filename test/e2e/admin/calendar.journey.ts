import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { addDays, addMonths, todayInMoscow } from '../../../schema/dates.ts';
import { MONTHS_GENITIVE } from '../../../schema/format.ts';
import { apiAt } from '../../typed-api.ts';
import { useBrowser } from '../browser.ts';
import { adminApi, checkPhoneLayout, notice, signIn, visible, waitPublished } from './helpers.ts';

type Availability = {
  busy: { start: string; end: string }[];
  seasons: { start: string; end: string; pricePerNight: number }[];
  minNights: number;
};
type AdminCalendar = {
  seasons: { start: string; end: string; pricePerNight: number; minNights: number }[];
  minNights: number;
  feeds: { name: string; url: string }[];
  blocks: { id: number; note: string }[];
};

/** Sutochno's export as the fixture has it, moved to dates ahead of today (2 bookings and a cancelled one). */
function sutochnoFeed(first: string): string {
  const ymd = (d: string) => d.replaceAll('-', '');
  const moved: Record<string, string> = {
    '20270701': first,
    '20270708': addDays(first, 7),
    '20270710': addDays(first, 9),
    '20270801': addDays(first, 31),
    '20270805': addDays(first, 35),
  };
  const text = readFileSync(path.join(import.meta.dirname, '../../fixtures/ical/sutochno.ics'), 'utf8');
  return text.replace(/\b2027\d{4}\b/g, (d) => ymd(moved[d] ?? d));
}

/** Other platforms' calendars served on this machine (the e2e stack, like `npm start`, allows loopback feeds). */
function feedServer(routes: Record<string, () => { status: number; body: string }>) {
  const server: Server = createServer((req, res) => {
    const route = routes[req.url ?? ''];
    if (!route) return void res.writeHead(404).end();
    const { status, body } = route();
    res.writeHead(status, { 'content-type': 'text/calendar; charset=utf-8' }).end(body);
  });
  return new Promise<{ origin: string; close: () => void }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }),
    ),
  );
}

/** The owner's way of saying a stay: «5–8 марта 2027, 3 ночи». */
function russianNights(start: string, end: string, nights: string) {
  const [y1, m1, d1] = start.split('-').map(Number) as [number, number, number];
  const [y2, m2, d2] = end.split('-').map(Number) as [number, number, number];
  const m = (n: number) => MONTHS_GENITIVE[n - 1];
  const dates =
    y1 === y2 && m1 === m2
      ? `${d1}–${d2} ${m(m1)} ${y1}`
      : y1 === y2
        ? `${d1} ${m(m1)} — ${d2} ${m(m2)} ${y1}`
        : `${d1} ${m(m1)} ${y1} — ${d2} ${m(m2)} ${y2}`;
  return `${dates}, ${nights}`;
}

/**
 * How long a refused save may take to say so. Twice, beside the contract tests on a busy machine,
 * no notice at all came within 10 s while builds took 11 s instead of 3: the answer was slow, not
 * missing. The wait ends as soon as the notice shows.
 */
const ANSWER_PATIENCE_MS = 30_000;

/** Reads an error the panel shows, then closes it as the owner would (errors stay until closed). */
async function readError(page: Page, text: string | RegExp) {
  try {
    await visible(notice(page, text), ANSWER_PATIENCE_MS);
  } catch (err) {
    // Say what the panel showed instead, and whether a save was still under way.
    const shown = await page
      .locator('.notices')
      .innerText()
      .catch(() => '?');
    const saving = await page
      .getByRole('button', { name: 'Сохранение...' })
      .count()
      .catch(() => -1);
    throw new Error(
      `no notice «${text}» within ${ANSWER_PATIENCE_MS / 1000} s: the panel's notices say «${shown}»; saves still under way: ${saving}`,
      { cause: err },
    );
  }
  await page.locator('.notice').filter({ hasText: text }).getByRole('button', { name: 'Закрыть сообщение' }).click();
}

/** Text with every kind of space made one plain space. */
const plain = (text: string) => text.replace(/\s+/g, ' ');

/** Every control of the tab, on a phone. */
const TAB_CONTROLS = '.calendar-tab button, .calendar-tab input, .calendar-tab select';

describe('the owner keeps the calendar in «Календарь»', () => {
  const { baseURL, openPage } = useBrowser();
  const closers: (() => unknown)[] = [];
  afterAll(() => closers.forEach((c) => c()));

  it('should close and open nights, price seasons, import a feed and copy and renew the export address on a 360px phone', async () => {
    const cabins = await (await apiAt(baseURL).cabins.$get({ query: {} })).json();
    const cabin = cabins.at(-2)!;
    const other = cabins.at(-1)!;
    const api = await adminApi(baseURL);
    const before = (await api.get(`/admin/cabins/${cabin.id}/calendar`)).json as AdminCalendar;
    const availability = () =>
      fetch(`${baseURL}/api/cabins/${cabin.id}/availability`).then((r) => r.json() as Promise<Availability>);
    // Far ahead, clear of the demo's busy nights and of the other journeys' dates.
    const start = addDays(todayInMoscow(), 260);
    const imported = addDays(start, 20);
    const feeds = await feedServer({
      '/sutochno.ics': () => ({ status: 200, body: sutochnoFeed(imported) }),
      '/broken.ics': () => ({ status: 500, body: 'oops' }),
    });
    closers.push(feeds.close);
    try {
      // A cabin's own calendar, as its name in «Шахматка» opens it.
      const page = await openPage(`/admin#calendar/${cabin.id}`, 'phone');
      await page.setViewportSize({ width: 360, height: 740 });
      await signIn(page);
      await visible(page.getByRole('heading', { level: 2, name: 'Календарь' }));
      await page.getByLabel('Домик', { exact: true }).selectOption(String(cabin.id));
      await visible(page.getByRole('heading', { name: 'Занятые даты' }));
      await visible(page.getByRole('heading', { name: 'Экспорт календаря' }));
      await checkPhoneLayout(page, TAB_CONTROLS);

      // «Занятые даты»: a block too far ahead is refused in the server's words and stays typed.
      const busyList = page.getByRole('list', { name: 'Занятые даты' });
      const far = addMonths(todayInMoscow(), 19);
      await page.getByLabel('Заезд (первая ночь)', { exact: true }).fill(far);
      await page.getByLabel('Выезд', { exact: true }).fill(addDays(far, 2));
      await page.getByLabel('Заметка (видите только вы)', { exact: true }).fill('Ремонт веранды');
      await page.getByRole('button', { name: 'Закрыть даты' }).click();
      await readError(page, 'Не удалось закрыть даты: Начало: Можно выбрать даты не дальше чем на 18 месяцев вперёд');
      expect(await page.getByLabel('Заезд (первая ночь)', { exact: true }).inputValue()).toBe(far);
      expect(await page.getByLabel('Заметка (видите только вы)', { exact: true }).inputValue()).toBe('Ремонт веранды');

      // Three nights closed by hand: in the list with their dates and note, and busy for visitors.
      await page.getByLabel('Заезд (первая ночь)', { exact: true }).fill(start);
      await page.getByLabel('Выезд', { exact: true }).fill(addDays(start, 3));
      await page.getByRole('button', { name: 'Закрыть даты' }).click();
      const blockItem = busyList.getByRole('listitem').filter({ hasText: 'Закрыто вручную: Ремонт веранды' });
      await visible(blockItem);
      expect(plain(await blockItem.locator('.busy-list__dates').innerText())).toBe(
        russianNights(start, addDays(start, 3), '3 ночи'),
      );
      expect((await availability()).busy).toContainEqual({ start, end: addDays(start, 3) });
      expect(await page.getByLabel('Заметка (видите только вы)', { exact: true }).inputValue()).toBe('');

      // «Сезонные цены»: two overlapping seasons are shown as such and refused; the rows stay.
      await page.getByLabel('Минимум ночей вне сезонов', { exact: true }).fill('2');
      await page.getByRole('button', { name: 'Добавить сезон' }).click();
      await page.getByRole('button', { name: 'Добавить сезон' }).click();
      const n = await page.getByRole('list', { name: 'Сезоны' }).getByRole('listitem').count();
      const fillSeason = async (i: number, from: string, to: string, price: string) => {
        await page.locator(`#season-${i}-start`).fill(from);
        await page.locator(`#season-${i}-end`).fill(to);
        await page.locator(`#season-${i}-price`).fill(price);
      };
      await fillSeason(n - 2, addDays(start, 40), addDays(start, 60), '9500');
      await fillSeason(n - 1, addDays(start, 50), addDays(start, 70), '11000');
      await visible(page.getByText(`Пересекается с сезоном ${n - 1}`));
      // Unsaved rows are not dropped by choosing another cabin unasked.
      await page.getByLabel('Домик', { exact: true }).selectOption(String(other.id));
      await page.getByRole('alertdialog').getByRole('button', { name: 'Остаться' }).click();
      expect(await page.getByLabel('Домик', { exact: true }).inputValue()).toBe(String(cabin.id));
      await page.getByRole('button', { name: 'Сохранить сезоны' }).click();
      await readError(page, 'Не удалось сохранить сезонные цены: Сезоны не должны пересекаться');
      expect(await page.locator(`#season-${n - 1}-start`).inputValue()).toBe(addDays(start, 50));
      expect(await page.locator(`#season-${n - 1}-price`).inputValue()).toBe('11000');
      // A negative price: refused too.
      await fillSeason(n - 1, addDays(start, 60), addDays(start, 70), '-5');
      await page.getByRole('button', { name: 'Сохранить сезоны' }).click();
      await readError(page, /Цена сезона должна быть целым числом рублей/);
      expect(await page.locator(`#season-${n - 1}-price`).inputValue()).toBe('-5');
      expect((await availability()).seasons.some((s) => s.start === addDays(start, 40))).toBe(false);
      await page.locator(`#season-${n - 1}-price`).fill('11000');
      await page.getByRole('button', { name: 'Сохранить сезоны' }).click();
      await visible(notice(page, 'Сезонные цены сохранены! Сайт обновится через минуту.'));
      const priced = await availability();
      expect(priced.minNights).toBe(2);
      expect(priced.seasons).toContainEqual(
        expect.objectContaining({ start: addDays(start, 40), end: addDays(start, 60), pricePerNight: 9500 }),
      );
      expect(priced.seasons).toContainEqual(
        expect.objectContaining({ start: addDays(start, 60), end: addDays(start, 70), pricePerNight: 11000 }),
      );
      // The prices «от N ₽» on the public pages follow: the panel says when the site has them.
      await waitPublished(page);

      // «Импорт календарей»: Sutochno's calendar and one that fails, saved as a list, synced now.
      const feedList = () => page.getByRole('list', { name: 'Календари' }).getByRole('listitem');
      const f = before.feeds.length;
      for (const [i, name, file] of [
        [f, 'Суточно (тест)', 'sutochno.ics'],
        [f + 1, 'Авито (тест)', 'broken.ics'],
      ] as const) {
        await page.getByRole('button', { name: 'Добавить календарь' }).click();
        await page.locator(`#feed-${i}-name`).fill(name);
        await page.locator(`#feed-${i}-url`).fill(`${feeds.origin}/${file}`);
      }
      await page.getByRole('button', { name: 'Сохранить календари' }).click();
      await visible(notice(page, /Календари сохранены/));
      await page.getByRole('button', { name: 'Синхронизировать сейчас' }).click();
      const results = page.getByRole('list', { name: 'Итог синхронизации' });
      await visible(results.getByText('Суточно (тест): загружен, занятых периодов: 2'));
      await visible(results.getByText('Авито (тест): Не удалось загрузить календарь: сервер ответил 500'));
      await visible(
        feedList()
          .nth(f)
          .getByText(/Последняя удачная синхронизация \d+ [а-я]+,? (в )?\d\d:\d\d \(мск\), занятых периодов: 2/),
      );
      await visible(
        feedList()
          .nth(f + 1)
          .getByText('Ошибка: Не удалось загрузить календарь: сервер ответил 500. Ещё ни разу не загрузился.'),
      );
      const importedItem = busyList.getByRole('listitem').filter({ hasText: 'Из календаря: Суточно (тест)' });
      await visible(importedItem);
      expect((await importedItem.locator('.busy-list__dates').allInnerTexts()).map(plain)).toEqual([
        russianNights(imported, addDays(imported, 7), '7 ночей'),
        russianNights(addDays(imported, 7), addDays(imported, 9), '2 ночи'),
      ]);
      expect((await availability()).busy).toContainEqual({ start: imported, end: addDays(imported, 9) });
      await checkPhoneLayout(page, TAB_CONTROLS);

      // «Экспорт календаря»: copied as shown; replaced, the old address is gone.
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
      const field = page.getByLabel('Адрес календаря (iCal)', { exact: true });
      const oldUrl = await field.inputValue();
      expect(oldUrl).toMatch(/^http:\/\/.+\/api\/ical\/[0-9a-f]+\.ics$/);
      await page.getByRole('button', { name: 'Скопировать' }).click();
      await visible(notice(page, 'Адрес календаря скопирован'));
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(oldUrl);
      expect((await fetch(oldUrl)).status).toBe(200);
      await page.getByRole('button', { name: 'Новый адрес' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Выдать новый адрес' }).click();
      await visible(notice(page, /Новый адрес календаря готов/));
      const newUrl = await field.inputValue();
      expect(newUrl).not.toBe(oldUrl);
      expect((await fetch(oldUrl)).status).toBe(404);
      const exported = await (await fetch(newUrl)).text();
      // The owner's own closed nights go out; what came from Sutochno does not echo back.
      expect(exported).toContain(`DTSTART;VALUE=DATE:${start.replaceAll('-', '')}`);
      expect(exported).not.toContain(imported.replaceAll('-', ''));

      // The closed nights opened again, after a confirmation.
      await blockItem.getByRole('button', { name: /Открыть/ }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Открыть даты' }).click();
      await blockItem.waitFor({ state: 'detached' });
      expect((await availability()).busy.some((b) => b.start === start)).toBe(false);
    } finally {
      const now = (await api.get(`/admin/cabins/${cabin.id}/calendar`)).json as AdminCalendar;
      for (const b of now.blocks.filter((x) => x.note === 'Ремонт веранды')) await api.del(`/admin/blocks/${b.id}`);
      await api.put(`/admin/cabins/${cabin.id}/seasons`, {
        seasons: before.seasons.map(({ start, end, pricePerNight, minNights }) => ({
          start,
          end,
          pricePerNight,
          minNights,
        })),
        minNights: before.minNights,
      });
      await api.put(`/admin/cabins/${cabin.id}/feeds`, { feeds: before.feeds.map(({ name, url }) => ({ name, url })) });
      await api.waitPublished();
      await api.logout();
    }
  });
});
