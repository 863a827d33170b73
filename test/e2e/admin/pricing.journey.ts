import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays, isoWeekday, todayInMoscow } from '../../../schema/dates.ts';
import { formatNumber, formatPrice } from '../../../schema/format.ts';
import { MSG } from '../../../schema/messages.ts';
import { bodyOf } from '../../typed-api.ts';
import { axeViolations } from '../axe.ts';
import { useBrowser } from '../browser.ts';
import { adminApi, notice, signIn, visible } from './helpers.ts';

type Season = {
  start: string;
  end: string;
  pricePerNight: number;
  weekendPricePerNight: number | null;
  minNights: number;
};
type Quote = { nights: number; total: number; lines: { kind: string; label: string; amount: number }[] };

/** The cabin the journey prices: 4 guests fit, no demo seasons, used by no other journey. */
const CABIN = 'Домик «Рассвет»';
const CODE = 'RASSVET10';
const FAILED_CODES = 'Не удалось сохранить промокоды';

/** Nothing on the phone scrolls sideways. */
async function noSideScroll(page: Page) {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(width);
}

/** Text with every kind of space made one plain space. */
const plain = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, ' ').trim();

/** Waits for a text in a part of the page, and says what it showed instead. */
async function shows(where: Locator, text: string, timeout = 30_000) {
  try {
    await expect.poll(async () => plain(await where.innerText()), { timeout }).toContain(plain(text));
  } catch (err) {
    throw new Error(
      `no «${text}» within ${timeout / 1000} s; it shows «${plain(await where.innerText().catch(() => '?'))}»`,
      { cause: err },
    );
  }
}

/** Closes an error notice as the owner would (errors stay until closed). */
async function closeNotice(page: Page, text: string) {
  await visible(notice(page, text), 30_000);
  await page.locator('.notice').filter({ hasText: text }).getByRole('button', { name: 'Закрыть сообщение' }).click();
}

/** The first Thursday at least `from` days ahead whose week and the week after touch no season of the cabin. */
function clearThursday(seasons: Season[], from: number): string {
  let day = addDays(todayInMoscow(), from);
  while (isoWeekday(day) !== 4) day = addDays(day, 1);
  while (seasons.some((s) => s.start < addDays(day, 30) && addDays(day, -2) < s.end)) day = addDays(day, 7);
  return day;
}

describe('the owner sets weekend and guest prices, discounts, extras and promo codes', () => {
  const { baseURL, openPage } = useBrowser();

  it('should price a Thursday-to-Sunday stay for 4 with the баня and a code exactly as set in the panel on a phone', async () => {
    const api = await adminApi(baseURL);
    const cabin = (await (await api.client.admin.cabins.$get()).json()).find((c) => c.name === CABIN);
    if (!cabin) throw new Error(`the demo has no cabin «${CABIN}»`);
    expect(cabin.maxGuests).toBeGreaterThanOrEqual(4);
    const id = cabin.id;
    const param = { id: String(id) };
    const calendarBefore = await bodyOf(await api.client.admin.cabins[':id'].calendar.$get({ param }), 200);
    const datesBefore = (await bodyOf(await api.client.admin.cabins[':id']['date-prices'].$get({ param }), 200)).prices;
    const pricingBefore = await (await api.client.admin.pricing.$get()).json();
    const codesBefore = (await (await api.client.admin['promo-codes'].$get()).json()).codes;

    const weekday = cabin.pricePerNight;
    const weekend = weekday + 1500;
    // A Thursday two months ahead or more, clear of the demo's and the other journeys' dates.
    const thursday = clearThursday(calendarBefore.seasons, 70);
    const sunday = addDays(thursday, 3);
    const newYear = addDays(thursday, -1);
    const season = {
      start: addDays(thursday, 14),
      end: addDays(thursday, 21),
      price: weekday + 700,
      weekend: weekday + 2700,
    };

    try {
      // axe is added to the page as a script: the panel's CSP would refuse it.
      const page = await openPage('/admin#cabins', 'phone', { bypassCSP: true });
      await signIn(page);

      // «Домики»: a weekend price of 0 is refused under its field, in the very words the server
      // answers for it (the form checks with the same schema before sending), and stays typed.
      const row = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: CABIN }) });
      await row.getByRole('button', { name: /Изменить/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Редактировать домик' });
      await visible(dialog);
      expect(await dialog.getByRole('checkbox', { name: /Пт/ }).isChecked()).toBe(true);
      expect(await dialog.getByRole('checkbox', { name: /Сб/ }).isChecked()).toBe(true);
      expect(await dialog.getByRole('checkbox', { name: /Вс/ }).isChecked()).toBe(false);
      await dialog.getByLabel('Цена в выходные, ₽ за ночь').fill('0');
      await dialog.getByLabel('Гостей в цене').fill('2');
      await dialog.getByLabel('Доплата за каждого следующего гостя, ₽ за ночь').fill('500');
      await dialog.getByRole('button', { name: 'Сохранить' }).click();
      const refused = await api.client.cabins[':id'].$put({ param, json: { weekendPricePerNight: 0 } });
      const refusal = await refused.json();
      expect(refused.status).toBe(400);
      if (!('error' in refusal)) throw new Error('a weekend price of 0 was saved');
      await visible(dialog.getByText(refusal.error));
      expect(refusal.error).toBe(MSG.weekendPriceInvalid);
      expect(await dialog.getByLabel('Цена в выходные, ₽ за ночь').inputValue()).toBe('0');
      expect(await dialog.getByLabel('Гостей в цене').inputValue()).toBe('2');
      expect(await axeViolations(page)).toEqual([]);

      await dialog.getByLabel('Цена в выходные, ₽ за ночь').fill(String(weekend));
      await dialog.getByRole('button', { name: 'Сохранить' }).click();
      await visible(notice(page, 'Домик сохранён'));
      await visible(row.getByText(`В выходные ${formatNumber(weekend).replace(/\u00a0/g, ' ')}`));
      const saved = (await (await api.client.admin.cabins.$get()).json()).find((c) => c.id === id)!;
      expect(saved).toMatchObject({
        weekendPricePerNight: weekend,
        weekendNights: [5, 6],
        baseGuests: 2,
        extraGuestPerNight: 500,
      });

      // «Календарь» → the cabin: a season with its weekend price and a night of its own price,
      // and every night's price by the same rules.
      await page.goto(`/admin#calendar/${id}`);
      const month = page.getByRole('region', { name: 'Цены по дням' });
      await visible(month);
      await page.getByRole('button', { name: 'Добавить сезон' }).click();
      const s = (await page.getByRole('list', { name: 'Сезоны' }).getByRole('listitem').count()) - 1;
      await page.locator(`#season-${s}-start`).fill(season.start);
      await page.locator(`#season-${s}-end`).fill(season.end);
      await page.locator(`#season-${s}-price`).fill(String(season.price));
      await page.locator(`#season-${s}-weekend`).fill(String(season.weekend));
      await page.getByRole('button', { name: 'Сохранить сезоны' }).click();
      await visible(notice(page, /Сезонные цены сохранены/));
      await page.getByRole('button', { name: 'Добавить дату' }).click();
      const d = (await page.getByRole('list', { name: 'Цены на даты' }).getByRole('listitem').count()) - 1;
      await page.locator(`#date-price-${d}-date`).fill(newYear);
      await page.locator(`#date-price-${d}-price`).fill('25000');
      await page.getByRole('button', { name: 'Сохранить цены на даты' }).click();
      await visible(notice(page, 'Цены на даты сохранены'));
      const datePrices = await api.client.admin.cabins[':id']['date-prices'].$get({ param });
      expect((await bodyOf(datePrices, 200)).prices).toContainEqual({ date: newYear, price: 25000 });

      const cell = (date: string) => month.locator(`td[data-date="${date}"]`);
      // Every night as priced by the same rules: the single date, the weekday and the weekend
      // nights of the stay, the season's weekday and weekend night.
      const expected: [string, string, number][] = [
        [newYear, 'date', 25000],
        [thursday, 'base', weekday],
        [addDays(thursday, 1), 'weekend', weekend],
        [addDays(thursday, 2), 'weekend', weekend],
        [sunday, 'base', weekday],
        [season.start, 'season', season.price],
        [addDays(season.start, 1), 'weekend', season.weekend],
      ];
      const backgrounds = new Map<string, string>();
      for (const [date, kind, price] of expected) {
        for (let i = 0; i < 6 && (await cell(date).count()) === 0; i++)
          await month.getByRole('button', { name: 'Следующий месяц' }).click();
        expect(await cell(date).getAttribute('data-kind'), date).toBe(kind);
        expect(plain(await cell(date).innerText())).toContain(plain(formatPrice(price)));
        backgrounds.set(kind, await cell(date).evaluate((el) => getComputedStyle(el).backgroundColor));
      }
      // Weekend, single-date and season nights look different from the others.
      expect(new Set(backgrounds.values()).size).toBe(4);
      await noSideScroll(page);
      expect(await axeViolations(page)).toEqual([]);

      // «Настройки» → «Цены и скидки»: a 10 % discount from 7 nights, the баня for this cabin, a code.
      await page.goto('/admin#settings/pricing');
      const discounts = page.getByRole('form', { name: 'Скидки' });
      await visible(discounts);
      await discounts.getByRole('button', { name: 'Добавить скидку' }).click();
      const n = pricingBefore.discounts.length;
      expect(await page.locator(`#discount-${n}-kind`).inputValue()).toBe('longStay');
      await page.locator(`#discount-${n}-days`).fill('7');
      await page.locator(`#discount-${n}-percent`).fill('10');
      await shows(discounts, '−10 % при проживании от 7 ночей');
      await discounts.getByRole('button', { name: 'Сохранить скидки' }).click();
      await visible(notice(page, 'Скидки сохранены'));

      const extras = page.getByRole('form', { name: 'Дополнительные услуги' });
      await extras.getByRole('button', { name: 'Добавить услугу' }).click();
      const e = pricingBefore.extras.length;
      const extraItem = extras
        .getByRole('listitem')
        .filter({ has: page.locator(`#extra-${e}-name`) })
        .first();
      await page.locator(`#extra-${e}-name`).fill('Баня');
      await page.locator(`#extra-${e}-price`).fill('2000');
      expect(await page.locator(`#extra-${e}-per`).inputValue()).toBe('stay');
      await extraItem.getByRole('radio', { name: 'Только для выбранных' }).check();
      await extraItem.getByRole('checkbox', { name: CABIN }).check();
      await shows(extras, 'Баня: 2 000 ₽ за проживание');
      await extras.getByRole('button', { name: 'Сохранить услуги' }).click();
      await visible(notice(page, 'Услуги сохранены'));

      // A code with both a percentage and an amount: the server's words beside the form, the row kept.
      const codes = page.getByRole('form', { name: 'Промокоды' });
      await codes.getByRole('button', { name: 'Добавить промокод' }).click();
      const c = codesBefore.length;
      await page.locator(`#promo-${c}-code`).fill(CODE.toLowerCase());
      await page.locator(`#promo-${c}-percent`).fill('10');
      await page.locator(`#promo-${c}-amount`).fill('500');
      await page.locator(`#promo-${c}-max`).fill('5');
      await page.locator(`#promo-${c}-stayTo`).fill(addDays(thursday, 60));
      expect(await axeViolations(page)).toEqual([]);
      await codes.getByRole('button', { name: 'Сохранить промокоды' }).click();
      const said = `${FAILED_CODES}: Промокод ${c + 1}: ${MSG.promoValueInvalid}`;
      await shows(codes.getByRole('alert'), said);
      await closeNotice(page, said);
      expect(await page.locator(`#promo-${c}-code`).inputValue()).toBe(CODE.toLowerCase());
      expect(await page.locator(`#promo-${c}-percent`).inputValue()).toBe('10');
      expect(await page.locator(`#promo-${c}-amount`).inputValue()).toBe('500');
      expect(await page.locator(`#promo-${c}-max`).inputValue()).toBe('5');
      expect((await (await api.client.admin['promo-codes'].$get()).json()).codes.some((p) => p.code === CODE)).toBe(
        false,
      );
      await page.locator(`#promo-${c}-amount`).fill('');
      await codes.getByRole('button', { name: 'Сохранить промокоды' }).click();
      await visible(notice(page, 'Промокоды сохранены'));
      // Saved in capitals, as the server keeps it, with its uses so far.
      expect(
        await codes
          .getByRole('textbox', { name: 'Код' })
          .evaluateAll((els) => els.map((el) => (el as HTMLInputElement).value)),
      ).toContain(CODE);
      await shows(codes, '−10 % · Ещё не использован, можно 5 раз');
      await noSideScroll(page);
      expect(await axeViolations(page)).toEqual([]);

      // The API prices the stay by exactly these rules.
      const pricing = await (await api.client.admin.pricing.$get()).json();
      const banya = pricing.extras.find((x) => x.name === 'Баня')!;
      expect(banya).toMatchObject({ price: 2000, per: 'stay', mandatory: false, cabinIds: [id] });
      expect(pricing.discounts).toContainEqual({ kind: 'longStay', minNights: 7, percent: 10 });
      const quote = async (checkOut: string, guests: number, more = '') => {
        const res = await fetch(
          `${baseURL}/api/quote?cabinId=${id}&checkIn=${thursday}&checkOut=${checkOut}&guests=${guests}${more}`,
        );
        const body = (await res.json()) as Quote & { error?: string };
        expect(res.status, body.error).toBe(200);
        expect(body.total).toBe(body.lines.reduce((sum, l) => sum + l.amount, 0));
        return body;
      };
      const stay = await quote(sunday, 4, `&extras=${banya.id}&promo=${CODE.toLowerCase()}`);
      const lodging = weekday + 2 * weekend + 2 * 500 * 3;
      expect(stay.nights).toBe(3);
      expect(
        stay.lines.filter((l) => l.kind !== 'fee' && l.kind !== 'tax').map((l) => ({ ...l, label: plain(l.label) })),
      ).toEqual([
        { kind: 'nights', label: plain(`${formatPrice(weekday)} × 1 ночь`), amount: weekday },
        { kind: 'nights', label: plain(`${formatPrice(weekend)} × 2 ночи`), amount: 2 * weekend },
        { kind: 'extraGuests', label: plain(`Дополнительные гости: 2 × ${formatPrice(500)} × 3 ночи`), amount: 3000 },
        { kind: 'promo', label: plain(`Промокод ${CODE} 10 %`), amount: -Math.round(lodging / 10) },
        { kind: 'extra', label: 'Баня', amount: 2000 },
      ]);
      // Seven nights or more: the long stay's 10 % (one discount, the largest that applies).
      const week = await quote(addDays(thursday, 7), 2);
      const weekLodging = week.lines.filter((l) => l.kind === 'nights').reduce((sum, l) => sum + l.amount, 0);
      expect(weekLodging).toBe(5 * weekday + 2 * weekend);
      expect(week.lines.filter((l) => l.kind === 'discount')).toEqual([
        {
          kind: 'discount',
          label: expect.stringMatching(/^Скидка за долгое проживание 10\s%$/),
          amount: -Math.round(weekLodging / 10),
        },
      ]);
    } finally {
      // Everything as it was, for the other journeys on this stack.
      await api.put(`/cabins/${id}`, {
        weekendPricePerNight: cabin.weekendPricePerNight,
        weekendNights: cabin.weekendNights,
        baseGuests: cabin.baseGuests,
        extraGuestPerNight: cabin.extraGuestPerNight,
      });
      await api.put(`/admin/cabins/${id}/seasons`, {
        seasons: calendarBefore.seasons.map(({ start, end, pricePerNight, weekendPricePerNight, minNights }) => ({
          start,
          end,
          pricePerNight,
          weekendPricePerNight,
          minNights,
        })),
        minNights: calendarBefore.minNights,
      });
      await api.put(`/admin/cabins/${id}/date-prices`, {
        prices: datesBefore.filter((p) => p.date >= todayInMoscow()),
      });
      await api.put('/admin/pricing', pricingBefore);
      await api.put('/admin/promo-codes', { codes: codesBefore });
      await api.waitPublished();
      await api.logout();
    }
  });
});
