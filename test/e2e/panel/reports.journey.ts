import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { addDays, todayInMoscow } from '../../../schema/dates.ts';
import type { ReportSummary, TouristTaxReport } from '../../../schema/reports.ts';
import { percent } from '../../../site/admin/reports/period.ts';
import { axeViolations } from '../axe.ts';
import { useBrowser } from '../browser.ts';
import { adminApi, signIn, visible } from '../admin/helpers.ts';

// «Сводка» as the owner uses it, on a phone: the owner opens «Сводка» with the demo's bookings, picks a
// period of their own, reads occupancy by cabin and the nights by channel (the same numbers the
// API gives), downloads the CSV for the accountant and finds the cabins' Cyrillic names intact,
// and the screen passes axe with every control a thumb can hit.

const text = (s: string) => s.replace(/[\s\u00a0\u202f]+/g, ' ').trim();
const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('«Сводка» on a phone: the demo’s numbers and the accountant’s CSV', () => {
  const { baseURL, openPage } = useBrowser();
  let api: Awaited<ReturnType<typeof adminApi>> | undefined;
  afterAll(async () => {
    await api?.logout();
  });

  it('should show the period’s occupancy by cabin and channel as the API counts it, download a CSV with Cyrillic intact and pass axe', async () => {
    // The demo's confirmed stay is three weeks ahead: a period from today to two months ahead holds it.
    api = await adminApi(baseURL);
    const from = todayInMoscow();
    const to = addDays(from, 60);
    const summary = (await api.get(`/admin/reports/summary?from=${from}&to=${to}`)).json as ReportSummary;
    expect(summary.nightsSold).toBeGreaterThan(0);
    expect(summary.nightsByChannel.map((c) => c.name)).toContain('Сайт');

    const page = await openPage('/admin#reports', 'phone', { acceptDownloads: true });
    await signIn(page);
    await visible(page.getByRole('heading', { level: 2, name: 'Сводка' }));
    await page.getByRole('button', { name: 'Свой период' }).click();
    await page.getByLabel('С', { exact: true }).fill(from);
    await page.getByLabel('По', { exact: true }).fill(to);
    await page.getByRole('button', { name: 'Показать' }).click();

    // Occupancy by cabin: the picture has a name, and the table under it the API's numbers.
    const cabins = page.getByRole('table', { name: 'Загрузка и выручка по домикам' });
    await visible(cabins.getByRole('row', { name: new RegExp(literal(summary.byCabin[0]!.name)) }));
    await visible(page.getByRole('img', { name: /^Загрузка по домикам/ }));
    // The table first shows the year's figures, then the period's once they arrive: wait for those.
    for (const c of summary.byCabin.filter((x) => x.active)) {
      const row = cabins.getByRole('row', { name: new RegExp(`^${literal(c.name)}`) }).first();
      await expect
        .poll(async () => text(await row.innerText()), { message: c.name, timeout: 10_000 })
        .toContain(text(percent(c.occupancy)));
    }
    const overall = text(await page.locator('.report-card', { hasText: 'Загрузка' }).innerText());
    expect(overall).toContain(text(percent(summary.occupancy)));
    const channels = text(await page.getByRole('table', { name: 'Проданные ночи по каналам' }).innerText());
    for (const c of summary.nightsByChannel) expect(channels).toContain(`${c.name} ${c.nights}`);
    await visible(page.getByRole('img', { name: /^Загрузка по месяцам/ }));

    // The tourist tax of the same period, its total the API's.
    const tax = (await api.get(`/admin/reports/tourist-tax?from=${from}&to=${to}`)).json as TouristTaxReport;
    const taxSection = page.getByRole('region', { name: 'Туристический налог' });
    await visible(taxSection.getByRole('button', { name: 'Печать' }));
    if (tax.total.tax > 0)
      expect(text(await taxSection.innerText())).toContain(text(`налог ${tax.total.tax.toLocaleString('ru-RU')}`));

    // The accountant's CSV: UTF-8 with its BOM, the cabins' names as written.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Скачать CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`bookings-${from}-${to}.csv`);
    const bytes = await readFile((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = bytes.subarray(3).toString('utf8');
    expect(csv.split('\r\n')[0]).toMatch(/^№;Статус;Домик;Заезд;Выезд/);
    const booked = summary.byCabin.find((c) => c.bookings > 0)!;
    expect(csv).toContain(`;${booked.name};`);

    // Every control a thumb can hit, and nothing axe finds.
    const small = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.reports button, .reports a, .reports input')]
        .map((el) => ({ el, box: el.getBoundingClientRect() }))
        .filter(({ box }) => box.width > 0 && (box.height < 43.5 || box.width < 43.5))
        .map(({ el, box }) => `${el.getAttribute('aria-label') ?? el.textContent?.trim()} ${box.width}×${box.height}`),
    );
    expect(small).toEqual([]);
    expect(await axeViolations(page, '#admin-main')).toEqual([]);
  });
});
