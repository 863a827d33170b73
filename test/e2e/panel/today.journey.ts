import { afterAll, describe, expect, it } from 'vitest';
import { todayInMoscow } from '../../../schema/dates.ts';
import { axeViolations } from '../axe.ts';
import { useBrowser } from '../browser.ts';
import { adminApi, notice, openTab, signIn, visible } from '../admin/helpers.ts';

type Stay = { id: number; cabinId: number; cabinName: string; name: string; checkIn: string; arrivedAt: string | null };
type Task = { id: number; cabinId: number; cabinName: string; due: string; kind: string; done: boolean };
type Day = { date: string; arrivals: Stay[]; departures: Stay[]; staying: Stay[]; tasks: Task[] };
type Occupancy = { cabins: { id: number; name: string; cleaning: string[] }[] };

describe('«Сегодня» on a phone: the owner marks an arrival and ticks a cabin clean', () => {
  const { baseURL, openPage } = useBrowser();
  let ticked: number | undefined;
  afterAll(async () => {
    // The cleaning is open again, as the demo had it, for the journeys after this one.
    const api = await adminApi(baseURL);
    if (ticked !== undefined) await api.put(`/admin/tasks/${ticked}`, { done: false });
    await api.logout();
  });

  it('should show the demo’s arrival, departure and cleaning today, mark «Заехал», tick «Убрано» and have «Шахматка» show the cabin clean, axe clean', async () => {
    const api = await adminApi(baseURL);
    const today = todayInMoscow();
    const day = (await api.get('/admin/today')).json as Day;
    // The demo content has a guest arriving today and one leaving, whose cabin waits for its cleaning.
    const arrival = day.arrivals.find((s) => s.checkIn === today && !s.arrivedAt)!;
    const cleaning = day.tasks.find((t) => t.due === today && t.kind === 'cleaning' && !t.done)!;
    expect(arrival, 'an arrival today in the demo').toBeDefined();
    expect(cleaning, 'a cleaning today in the demo').toBeDefined();
    const chartBefore = (await api.get(`/admin/occupancy?from=${today}&days=7`)).json as Occupancy;
    expect(chartBefore.cabins.find((c) => c.id === cleaning.cabinId)!.cleaning).toContain(today);

    const page = await openPage('/admin#today', 'phone');
    await signIn(page);
    // «Сегодня» is the first tab of the bar.
    const first = page.getByRole('navigation', { name: 'Разделы панели' }).getByRole('link').first();
    expect((await first.innerText()).trim()).toBe('Сегодня');
    await visible(page.getByRole('heading', { level: 3, name: /^Сегодня, / }));
    const guest = page.locator('.today__item').filter({ hasText: arrival.name }).first();
    await visible(guest);
    expect(await guest.getByRole('link', { name: /Позвонить/ }).getAttribute('href')).toMatch(/^tel:\+?\d{10,15}$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // On a phone the money line wraps: «к» must not be left at a line's end without «оплате».
    expect(await guest.locator('.today__money').innerText()).toMatch(/к\u00a0оплате|оплачено полностью/);
    expect(await axeViolations(page, '#admin-main')).toEqual([]);

    await guest.getByRole('button', { name: `Заехал: ${arrival.name}` }).click();
    await visible(notice(page, `${arrival.name}: заезд отмечен`));
    await visible(guest.getByText('Заехал', { exact: true }));
    const marked = (await api.get('/admin/today')).json as Day;
    expect(marked.arrivals.find((s) => s.id === arrival.id)!.arrivedAt).not.toBeNull();

    const clean = page.getByRole('button', { name: `Убрано: «${cleaning.cabinName}»` }).first();
    await clean.click();
    await visible(notice(page, `«${cleaning.cabinName}»: убрано`));
    expect(await clean.getAttribute('aria-pressed')).toBe('true');
    ticked = cleaning.id;
    expect(await axeViolations(page, '#admin-main')).toEqual([]);

    // «Шахматка»: the cabin no longer waits for its cleaning today.
    await openTab(page, 'Календарь');
    const chart = page.getByRole('region', { name: 'Домики по дням' });
    await visible(chart);
    await visible(page.getByRole('list', { name: 'Обозначения' }).getByText(/Ждёт уборки/));
    expect(
      await chart
        .locator(`.occupancy__clean[data-clean-date="${today}"][aria-label^="«${cleaning.cabinName}»"]`)
        .count(),
    ).toBe(0);
  });
});
