import { afterAll, describe, expect, it } from 'vitest';
import { addDays, todayInMoscow } from '../../../schema/dates.ts';
import type { FunnelReport } from '../../../schema/reports.ts';
import { axeViolations } from '../axe.ts';
import { useBrowser } from '../browser.ts';
import { forgetBookingThrottle } from '../local-d1.ts';
import { flat, textOf } from '../public/helpers.ts';
import { pickStay } from '../stay-calendar.ts';
import { adminApi, openTab, signIn, visible } from '../admin/helpers.ts';

// Where guests come from, as the owner reads it: a visitor on a phone comes from a VK link with
// its utm tags, searches from the home page, opens a cabin and sends a request, and no cookie is
// set on the way; «Сводка» then shows the visit step by step and the booking under «vk», and
// «Заявки» says where the request came from.

describe('where guests come from: a visitor from VK, and «Сводка»', () => {
  const { baseURL, openPage } = useBrowser();
  let made: number | undefined;
  afterAll(async () => {
    // The other journeys find the demo's requests as they were (the newest one is not this).
    if (made === undefined) return;
    const api = await adminApi(baseURL);
    await api.del(`/admin/bookings/${made}`);
    await api.logout();
  });

  it('should count a visit from a VK link through search, the cabin and a request under «vk», with no cookie set', async () => {
    await forgetBookingThrottle();
    const api = await adminApi(baseURL);
    const today = todayInMoscow();
    const before = (await api.get(`/admin/reports/funnel?from=${today}&to=${today}`)).json as FunnelReport;
    const vkBefore = before.bySource.find((s) => s.source === 'vk');
    // Far enough ahead that no other journey's stay is there.
    const checkIn = addDays(today, 200);
    const checkOut = addDays(checkIn, 2);

    const page = await openPage('/?utm_source=vk&utm_medium=cpc&utm_campaign=leto', 'phone');
    const form = page.getByRole('search');
    await pickStay(page, checkIn, checkOut, form);
    await form.getByRole('button', { name: 'Найти' }).click();
    await page.waitForURL(/\/search\?/);
    const result = page.locator('.search-results a.stretched').first();
    await visible(result);
    const cabinId = Number(/^\/cabin\/(\d+)\?/.exec((await result.getAttribute('href')) ?? '')?.[1]);
    expect(cabinId).toBeGreaterThan(0);
    await result.click();
    await page.waitForURL(new RegExp(`/cabin/${cabinId}\\?`));
    const card = page.locator('#booking');
    await visible(card.locator('.booking__total'));
    await card.getByLabel('Имя').fill('Гость Из ВК');
    await card.getByLabel('Телефон').fill('+7 928 321-54-76');
    await card.getByLabel(/Я согласен/).check();
    await card.getByRole('button', { name: 'Отправить заявку' }).click();
    const sent = card.locator('.booking__sent');
    await visible(sent);
    const id = Number(/Заявка №(\d+) принята/.exec(await textOf(sent))?.[1]);
    expect(id).toBeGreaterThan(0);
    made = id;
    // Counting needs no cookie: the browser holds none for the site.
    expect(await page.context().cookies()).toEqual([]);

    // The beacons go after each page has loaded and nothing waits on them: «Сводка» gets them soon after.
    await expect
      .poll(
        async () =>
          ((await api.get(`/admin/reports/funnel?from=${today}&to=${today}`)).json as FunnelReport).bySource.find(
            (s) => s.source === 'vk',
          ),
        { timeout: 15_000 },
      )
      .toMatchObject({
        visits: (vkBefore?.visits ?? 0) + 1,
        searches: (vkBefore?.searches ?? 0) + 1,
        cards: (vkBefore?.cards ?? 0) + 1,
        dates: (vkBefore?.dates ?? 0) + 1,
        requests: (vkBefore?.requests ?? 0) + 1,
      });

    // The owner reads it in «Сводка» on a phone, and the request in «Заявки» with where it came from.
    const admin = await openPage('/admin#reports', 'phone');
    await signIn(admin);
    await visible(admin.getByRole('heading', { level: 2, name: 'Сводка' }));
    const sources = admin.getByRole('table', { name: 'Посещения и бронирования по источникам' });
    await visible(sources.getByRole('row', { name: /^vk/ }));
    expect(flat(await sources.getByRole('row', { name: /^vk/ }).innerText())).toMatch(/^vk \d+ \d+ \d+/);
    await visible(admin.getByRole('img', { name: /^Воронка: Посещения — \d/ }));
    expect(await axeViolations(admin, '#admin-main')).toEqual([]);
    await openTab(admin, 'Заявки');
    const item = admin.locator('.booking-item', { hasText: 'Гость Из ВК' });
    await visible(item);
    expect(flat(await item.innerText())).toContain('откуда: vk · cpc · leto');
    await api.logout();
  });
});
