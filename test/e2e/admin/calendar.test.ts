import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { addDays, todayInMoscow } from '../../../schema/dates.ts';
import { useBrowser } from '../browser.ts';
import { adminApi, notice, signIn, visible } from './helpers.ts';

type Availability = { busy: { start: string; end: string }[]; seasons: { start: string; pricePerNight: number }[] };

/** A calendar of another platform, served on this machine (the local stack allows loopback feeds). */
function feedServer(body: () => string) {
  const server: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/calendar' }).end(body()));
  return new Promise<{ url: string; close: () => void }>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cal.ics`, close: () => server.close() })),
  );
}

const ics = (start: string, end: string) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//RU', 'BEGIN:VEVENT', 'UID:e2e-1@test', `DTSTART;VALUE=DATE:${start.replaceAll('-', '')}`, `DTEND;VALUE=DATE:${end.replaceAll('-', '')}`, 'SUMMARY:Занято', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');

describe('the owner keeps the calendar in «Календарь»', () => {
  const { baseURL, openPage } = useBrowser();
  const closers: (() => unknown)[] = [];
  afterAll(() => closers.forEach((c) => c()));

  it('should close and open nights, refuse overlapping seasons, import a feed and renew the export address, on a phone', async () => {
    const cabins = (await (await fetch(`${baseURL}/api/cabins`)).json()) as { id: number; name: string }[];
    const cabin = cabins.at(-2)!;
    const api = await adminApi(baseURL);
    const before = (await api.get(`/admin/cabins/${cabin.id}/calendar`)).json as { seasons: unknown[]; minNights: number; feeds: { name: string; url: string }[] };
    const free = (path: string) => fetch(`${baseURL}${path}`).then((r) => r.json() as Promise<Availability>);
    const start = addDays(todayInMoscow(), 260);
    const feed = await feedServer(() => ics(addDays(start, 20), addDays(start, 23)));
    closers.push(feed.close);
    try {
      const page = await openPage('/admin#calendar', 'phone');
      await signIn(page);
      await visible(page.getByRole('heading', { level: 2, name: 'Календарь' }));
      await page.getByLabel('Домик').selectOption(String(cabin.id));
      await visible(page.getByRole('heading', { name: 'Занятые даты' }));

      // Close three nights by hand.
      await page.getByLabel('Заезд (первая ночь)').fill(start);
      await page.getByLabel('Выезд').fill(addDays(start, 3));
      await page.getByLabel('Заметка (видите только вы)').fill('Ремонт веранды');
      await page.getByRole('button', { name: 'Закрыть даты' }).click();
      const busyList = page.getByRole('list', { name: 'Занятые даты' });
      await visible(busyList.getByText('Закрыто вручную: Ремонт веранды'));
      expect((await free(`/api/cabins/${cabin.id}/availability`)).busy).toContainEqual({ start, end: addDays(start, 3) });

      // Two seasons that overlap: the server's Russian error, and the rows stay as typed.
      await page.getByRole('button', { name: 'Добавить сезон' }).click();
      await page.getByRole('button', { name: 'Добавить сезон' }).click();
      const seasons = page.getByRole('list', { name: 'Сезоны' }).getByRole('listitem');
      const n = await seasons.count();
      const fillSeason = async (i: number, from: string, to: string, price: string) => {
        await page.locator(`#season-${i}-start`).fill(from);
        await page.locator(`#season-${i}-end`).fill(to);
        await page.locator(`#season-${i}-price`).fill(price);
      };
      await fillSeason(n - 2, addDays(start, 40), addDays(start, 60), '9500');
      await fillSeason(n - 1, addDays(start, 50), addDays(start, 70), '11000');
      await page.getByRole('button', { name: 'Сохранить сезоны' }).click();
      await visible(notice(page, /Сезоны не должны пересекаться/));
      expect(await page.locator(`#season-${n - 1}-price`).inputValue()).toBe('11000');
      await fillSeason(n - 1, addDays(start, 60), addDays(start, 70), '11000');
      await page.getByRole('button', { name: 'Сохранить сезоны' }).click();
      await visible(notice(page, 'Сезонные цены сохранены! Сайт обновится через минуту.'));
      const priced = (await free(`/api/cabins/${cabin.id}/availability`)).seasons;
      expect(priced).toContainEqual(expect.objectContaining({ start: addDays(start, 40), pricePerNight: 9500 }));

      // A feed from another platform: saved, synced, its nights busy with its name.
      await page.getByRole('button', { name: 'Добавить календарь' }).click();
      const feeds = page.getByRole('list', { name: 'Календари' }).getByRole('listitem');
      const f = (await feeds.count()) - 1;
      await page.locator(`#feed-${f}-name`).fill('Суточно (тест)');
      await page.locator(`#feed-${f}-url`).fill(feed.url);
      await page.getByRole('button', { name: 'Сохранить календари' }).click();
      await visible(notice(page, /Календари сохранены/));
      await page.getByRole('button', { name: 'Синхронизировать сейчас' }).click();
      await visible(feeds.nth(f).getByText(/Загружен .+, занятых периодов: 1/));
      await visible(busyList.getByText('Из календаря «Суточно (тест)»'));
      expect((await free(`/api/cabins/${cabin.id}/availability`)).busy).toContainEqual({ start: addDays(start, 20), end: addDays(start, 23) });

      // Open the closed nights again.
      await busyList.getByRole('listitem').filter({ hasText: 'Ремонт веранды' }).getByRole('button', { name: /Открыть/ }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Открыть даты' }).click();
      await busyList.getByText('Закрыто вручную: Ремонт веранды').waitFor({ state: 'detached' });

      // The export address: copied from the field, then replaced; the old one is gone.
      const oldUrl = await page.getByLabel('Адрес календаря (iCal)').inputValue();
      expect((await fetch(oldUrl)).status).toBe(200);
      await page.getByRole('button', { name: 'Новый адрес' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Выдать новый адрес' }).click();
      await visible(notice(page, 'Новый адрес календаря готов'));
      const newUrl = await page.getByLabel('Адрес календаря (iCal)').inputValue();
      expect(newUrl).not.toBe(oldUrl);
      expect((await fetch(oldUrl)).status).toBe(404);
      const exported = await (await fetch(newUrl)).text();
      expect(exported).toContain('BEGIN:VCALENDAR');
    } finally {
      await api.put(`/admin/cabins/${cabin.id}/seasons`, { seasons: before.seasons, minNights: before.minNights });
      await api.put(`/admin/cabins/${cabin.id}/feeds`, { feeds: before.feeds.map(({ name, url }) => ({ name, url })) });
      await api.waitPublished();
    }
  });
});

