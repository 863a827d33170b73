import { describe, expect, it } from 'vitest';
import { addDays, todayInMoscow } from '../../../schema/dates.ts';
import { bodyOf } from '../../typed-api.ts';
import { useBrowser } from '../browser.ts';
import { adminApi, cabins, textOf, visible } from '../public/helpers.ts';
import { pickStay } from '../stay-calendar.ts';

// Changes the settings: runs with the other content-changing journeys (vitest.config.ts).

describe('messengers chosen in «Контакты»', () => {
  const { baseURL, openPage } = useBrowser();

  it('should list Telegram and MAX on the contacts page and offer them after a booking request, each with the same message', async () => {
    const api = await adminApi(baseURL);
    const before = await bodyOf(await api.client.settings.$put({ json: {} }), 200);
    try {
      expect(
        (
          await api.put('/settings', {
            telegramUsername: '@kaspiy_test',
            maxLink: 'https://max.ru/u/kaspiy_test',
            bookingChannels: ['whatsapp', 'telegram', 'max', 'phone'],
          })
        ).status,
      ).toBe(200);
      await api.waitPublished();

      const page = await openPage('about:blank', 'phone');
      // Record the new tab instead of leaving for t.me (there is no internet here).
      await page.addInitScript(() => {
        (window as unknown as { opened: unknown[] }).opened = [];
        window.open = (...args: unknown[]) => {
          (window as unknown as { opened: unknown[] }).opened.push(args);
          return { opener: window } as unknown as Window;
        };
      });
      await page.goto('/contacts');
      expect(await page.getByRole('link', { name: '@kaspiy_test' }).getAttribute('href')).toBe(
        'https://t.me/kaspiy_test',
      );
      expect(await page.getByRole('link', { name: 'Написать в MAX' }).getAttribute('href')).toBe(
        'https://max.ru/u/kaspiy_test',
      );
      // «Напишите нам» can go to Telegram too, with the same message it sends to WhatsApp.
      const form = page.getByRole('form', { name: 'Напишите нам' });
      await form.scrollIntoViewIfNeeded();
      await page.locator('form[data-ready]').waitFor();
      await form.getByLabel(/^Имя/).fill('Тимур');
      await form.getByLabel(/^Email/).fill('timur@example.ru');
      await form.getByLabel(/^Сообщение/).fill('Можно с детьми?');
      await form.getByRole('radio', { name: 'Telegram' }).check();
      await form.getByRole('checkbox', { name: /Я согласен/ }).check();
      await form.getByRole('button', { name: 'Отправить сообщение' }).click();
      await visible(form.getByText('Сообщение отправлено!'));
      const [[opened]] = (await page.evaluate(
        () => (window as unknown as { opened: string[][] }).opened,
      )) as string[][];
      const tgForm = new URL(opened!);
      expect(tgForm.origin + tgForm.pathname).toBe('https://t.me/kaspiy_test');
      expect(tgForm.searchParams.get('text')).toContain('Сообщение: Можно с детьми?');

      // A stay far ahead, clear of the demo's busy nights, on a cabin with free nights there.
      const cabin = (await cabins(baseURL))[2]!;
      const checkIn = addDays(todayInMoscow(), 200);
      await page.goto(`/cabin/${cabin.id}`);
      const card = page.locator('#booking');
      await card.scrollIntoViewIfNeeded();
      await page.locator('#booking[data-ready]').waitFor();
      await pickStay(page, checkIn, addDays(checkIn, 3));
      await card.getByLabel('Имя').fill('Тимур');
      await card.getByLabel('Телефон').fill('89285550000');
      await card.getByRole('radio', { name: 'Telegram' }).check();
      await card.getByLabel(/Я согласен/).check();
      await card.getByRole('button', { name: 'Отправить заявку' }).click();
      await visible(card.locator('.booking__sent'));
      const number = /Заявка №(\d+)/.exec(await textOf(card.locator('.booking__sent')))![1]!;
      const wa = new URL(
        (await card.getByRole('link', { name: 'Забронировать через WhatsApp' }).getAttribute('href'))!,
      ).searchParams.get('text')!;
      const tg = new URL((await card.getByRole('link', { name: 'Написать в Telegram' }).getAttribute('href'))!);
      expect(tg.origin + tg.pathname).toBe('https://t.me/kaspiy_test');
      expect(tg.searchParams.get('text')).toBe(wa);
      expect(wa).toContain(`Заявка №${number}`);
      expect(await card.getByRole('link', { name: 'Написать в MAX' }).getAttribute('href')).toBe(
        'https://max.ru/u/kaspiy_test',
      );
      expect(await card.getByRole('link', { name: 'Позвонить' }).getAttribute('href')).toMatch(/^tel:\+\d+$/);
      const row = (await (await api.client.admin.bookings.$get({ query: {} })).json()).find(
        (r) => r.id === Number(number),
      )!;
      expect(row.channel).toBe('telegram');
      await api.del(`/admin/bookings/${number}`);
    } finally {
      await api.put('/settings', before);
      await api.waitPublished();
    }
  });
});
