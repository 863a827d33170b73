import { describe, expect, it } from 'vitest';
import { addDays, todayInMoscow } from '../../../schema/dates.ts';
import { useBrowser } from '../browser.ts';
import { adminApi, notice, signIn, visible } from './helpers.ts';

type Availability = { busy: { start: string; end: string }[] };

describe('the owner answers booking requests in «Заявки»', () => {
  const { baseURL, openPage } = useBrowser();

  it('should show new requests first with a count, confirm one (its nights turn busy), refuse a clash, decline, cancel and delete', async () => {
    const cabins = (await (await fetch(`${baseURL}/api/cabins`)).json()) as { id: number; name: string }[];
    const cabin = cabins.at(-1)!;
    // Far ahead and clear of the demo's busy nights.
    const checkIn = addDays(todayInMoscow(), 230);
    const request = (name: string, from: string, nights: number) =>
      fetch(`${baseURL}/api/bookings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ cabinId: cabin.id, checkIn: from, checkOut: addDays(from, nights), guests: 1, name, phone: '+7 928 000-11-22', email: '', comment: `Комментарий ${name}`, consent: true, channel: 'phone', website: '' }),
      }).then(async (r) => {
        expect(r.status).toBe(201);
        return ((await r.json()) as { id: number }).id;
      });
    const first = await request('Первая Гостья', checkIn, 3);
    const clash = await request('Второй Гость', addDays(checkIn, 1), 2);
    const other = await request('Третий Гость', addDays(checkIn, 10), 2);
    const api = await adminApi(baseURL);
    const waiting = ((await api.get('/admin/bookings')).json as { status: string }[]).filter((b) => b.status === 'new').length;

    const page = await openPage('/admin', 'phone');
    await signIn(page);
    const nav = page.getByRole('navigation', { name: 'Разделы панели' });
    expect(await nav.getByRole('link', { name: /Заявки/ }).innerText()).toContain(String(waiting));
    const item = (id: number) => page.locator('.booking-item').filter({ has: page.getByRole('heading', { name: new RegExp(`№${id} ·`) }) });
    await visible(item(first));
    // Newest first.
    const ids = await page.locator('.booking-item h3').allInnerTexts();
    expect(ids.indexOf(ids.find((t) => t.startsWith(`№${other} `))!)).toBeLessThan(ids.indexOf(ids.find((t) => t.startsWith(`№${first} `))!));
    expect(await item(first).innerText()).toContain('Первая Гостья');
    expect(await item(first).getByRole('link', { name: /\+7 928 000-11-22/ }).getAttribute('href')).toBe('tel:+79280001122');

    await item(first).getByRole('button', { name: /Подтвердить/ }).click();
    await visible(item(first).getByText('Подтверждена'));
    const busy = ((await (await fetch(`${baseURL}/api/cabins/${cabin.id}/availability`)).json()) as Availability).busy;
    expect(busy).toContainEqual({ start: checkIn, end: addDays(checkIn, 3) });
    expect(await nav.getByRole('link', { name: /Заявки/ }).innerText()).toContain(String(waiting - 1));

    // The same nights for someone else: refused in Russian, the request stays new.
    await item(clash).getByRole('button', { name: /Подтвердить/ }).click();
    await visible(notice(page, /Эти даты уже заняты/));
    await visible(item(clash).getByText('Новая'));

    await item(clash).getByRole('button', { name: /Отклонить/ }).click();
    await visible(item(clash).getByText('Отклонена'));

    await item(first).getByRole('button', { name: /Отменить бронирование/ }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Отменить бронирование' }).click();
    await visible(item(first).getByText('Отменена'));
    const after = ((await (await fetch(`${baseURL}/api/cabins/${cabin.id}/availability`)).json()) as Availability).busy;
    expect(after.some((b) => b.start === checkIn)).toBe(false);

    for (const id of [first, clash, other]) {
      await item(id).getByRole('button', { name: /Удалить/ }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Удалить' }).click();
      await item(id).waitFor({ state: 'detached' });
    }
    const left = (await api.get('/admin/bookings')).json as { id: number }[];
    expect(left.some((b) => [first, clash, other].includes(b.id))).toBe(false);
  });
});
