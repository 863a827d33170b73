import type { InferResponseType } from 'hono/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, isoWeekday, todayInMoscow } from '../../../schema/dates.ts';
import { type Api, apiAt, bodyOf } from '../../typed-api.ts';
import { axeViolations } from '../axe.ts';
import { forgetBookingThrottle } from '../local-d1.ts';
import { useBrowser } from '../browser.ts';
import { adminApi } from '../admin/helpers.ts';
import { pickStay } from '../stay-calendar.ts';
import { flat, rub, textOf, visible } from '../public/helpers.ts';

// Prices as owners sell, on a phone: the owner prices one cabin the way owners sell (a weekend
// price, two guests in the price and 500 ₽ a night for each further one, −10 % from 7 nights, a
// promo code, a баня at 2 000 ₽ a stay), a visitor finds a Thursday-to-Sunday stay for four in
// search at the server's price, ticks the баня and enters the code on the cabin's card, sees every
// line and the total GET /api/quote gives, books, and «Заявки» has the same lines and total.

type Cabin = InferResponseType<Api['admin']['cabins']['$get'], 200>[number];
type Pricing = InferResponseType<Api['admin']['pricing']['$get'], 200>;
type Code = InferResponseType<Api['admin']['promo-codes']['$get'], 200>['codes'][number];
type Line = { kind: string; label: string; amount: number };
type Quote = { nights: number; total: number; lines: Line[] };
type Availability = {
  busy: { start: string; end: string }[];
  seasons: { start: string; end: string }[];
  minNights: number;
};

const CODE = `LETO${Math.floor(1000 + Math.random() * 9000)}`;
const CODE_PERCENT = 15;
const WEEKEND_EXTRA = 1500;

/** A line as the card and the message show it: «−2 260 ₽» for the code. */
const amount = (n: number) => (n < 0 ? `−${rub(-n)}` : rub(n));

describe("the owner prices a cabin by weekend, guests, discount, code and extras, and a visitor books it at the server's price", () => {
  const { baseURL, openPage } = useBrowser();
  let cabin: Cabin;
  let before: { cabin: Cabin; discounts: Pricing['discounts']; extras: Pricing['extras']; codes: Code[] };
  let banya: Pricing['extras'][number];
  const mine: number[] = [];

  beforeAll(async () => {
    // This journey books three times from this machine's address: the journeys before it may have used the hour's count.
    await forgetBookingThrottle();
    const api = await adminApi(baseURL);
    const cabins = await (await api.client.admin.cabins.$get()).json();
    const pricing = await (await api.client.admin.pricing.$get()).json();
    const { codes } = await (await api.client.admin['promo-codes'].$get()).json();
    // A cabin of the demo that takes four (the second: no winter season to price its nights).
    cabin = cabins.filter((c) => c.active).sort((a, b) => a.id - b.id)[1]!;
    before = { cabin: { ...cabin }, discounts: pricing.discounts, extras: pricing.extras, codes };

    // The owner's prices, through the admin API as the panel sends them.
    const put = await api.put(`/cabins/${cabin.id}`, {
      weekendPricePerNight: cabin.pricePerNight + WEEKEND_EXTRA,
      baseGuests: 2,
      extraGuestPerNight: 500,
      maxGuests: Math.max(4, cabin.maxGuests),
    });
    expect(put.status).toBe(200);
    const kept = pricing.extras.map(({ id, name, price, per, mandatory, cabinIds, kind, time }) => ({
      id,
      name,
      price,
      per,
      mandatory,
      cabinIds,
      kind,
      time,
    }));
    const saved = await api.client.admin.pricing.$put({
      json: {
        discounts: [{ kind: 'longStay', minNights: 7, percent: 10 }],
        extras: [...kept, { name: 'Баня', price: 2000, per: 'stay', mandatory: false, cabinIds: [cabin.id] }],
      },
    });
    expect(saved.status).toBe(200);
    banya = (await bodyOf(saved, 200)).extras.find(
      (e) => e.name === 'Баня' && e.cabinIds?.includes(cabin.id) && !pricing.extras.some((p) => p.id === e.id),
    )!;
    expect(banya).toBeDefined();
    expect(
      (await api.put('/admin/promo-codes', { codes: [...codes, { code: CODE, percent: CODE_PERCENT, maxUses: 5 }] }))
        .status,
    ).toBe(200);
    // The cabin's page takes four guests once the site is rebuilt.
    await api.waitPublished();
    await api.logout();
  });

  afterAll(async () => {
    // The other journeys see the demo's prices again.
    const api = await adminApi(baseURL);
    for (const id of mine) await api.del(`/admin/bookings/${id}`);
    const { weekendPricePerNight, baseGuests, extraGuestPerNight, maxGuests } = before.cabin;
    expect(
      (await api.put(`/cabins/${cabin.id}`, { weekendPricePerNight, baseGuests, extraGuestPerNight, maxGuests }))
        .status,
    ).toBe(200);
    const extras = before.extras.map(({ id, name, price, per, mandatory, cabinIds, kind, time }) => ({
      id,
      name,
      price,
      per,
      mandatory,
      cabinIds,
      kind,
      time,
    }));
    expect((await api.put('/admin/pricing', { discounts: before.discounts, extras })).status).toBe(200);
    expect((await api.put('/admin/promo-codes', { codes: before.codes })).status).toBe(200);
    await api.waitPublished();
    await api.logout();
    // The visitor journeys after it book from the same address.
    await forgetBookingThrottle();
  });

  const quote = async (q: Record<string, string | number>) => {
    const res = await fetch(
      `${baseURL}/api/quote?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`,
    );
    expect(res.status).toBe(200);
    return (await res.json()) as Quote;
  };

  /** The first Thursday-to-Sunday from three weeks ahead (Moscow) with every night free and outside the seasons. */
  async function thursdayToSunday(): Promise<{ checkIn: string; checkOut: string }> {
    const a = (await (
      await fetch(`${baseURL}/api/cabins/${cabin.id}/availability`, { cache: 'no-store' })
    ).json()) as Availability;
    for (let checkIn = addDays(todayInMoscow(), 21), n = 0; n < 40; n++, checkIn = addDays(checkIn, 7)) {
      while (isoWeekday(checkIn) !== 4) checkIn = addDays(checkIn, 1);
      const checkOut = addDays(checkIn, 3);
      const overlaps = (r: { start: string; end: string }) => r.start < checkOut && checkIn < r.end;
      if (!a.busy.some(overlaps) && !a.seasons.some(overlaps) && a.minNights <= 3) return { checkIn, checkOut };
    }
    throw new Error('no free Thursday-to-Sunday outside the seasons');
  }

  it("should show the server's price for four in search, every line on the card with the баня and the code, and store the same lines and total", async () => {
    const { checkIn, checkOut } = await thursdayToSunday();
    const weekend = cabin.pricePerNight + WEEKEND_EXTRA;
    const forFour = await quote({ cabinId: cabin.id, checkIn, checkOut, guests: 4 });
    // Thursday at the weekday price, Friday and Saturday at the weekend's, two guests beyond the price.
    expect(forFour.lines.slice(0, 3).map((l) => [l.kind, flat(l.label), l.amount])).toEqual([
      ['nights', `${rub(cabin.pricePerNight)} × 1 ночь`, cabin.pricePerNight],
      ['nights', `${rub(weekend)} × 2 ночи`, weekend * 2],
      ['extraGuests', 'Дополнительные гости: 2 × 500 ₽ × 3 ночи', 3000],
    ]);

    // A visitor on a phone searches the stay for four from the home page.
    const page = await openPage('/', 'phone');
    const form = page.getByRole('search');
    await pickStay(page, checkIn, checkOut, form);
    await form.getByLabel('Гости').fill('4');
    await form.getByRole('button', { name: 'Найти' }).click();
    await page.waitForURL(/\/search\?/);
    const result = page.locator('.search-results .cabin-card', {
      has: page.locator(`a.stretched[href^="/cabin/${cabin.id}?"]`),
    });
    await visible(result);
    expect(await textOf(result.locator('.price'))).toMatch(new RegExp(`^3 ночи · ${rub(forFour.total)}(?: вкл\\.|$)`));

    // The result opens the cabin with the stay and the guests picked, at the same total.
    await result.locator('a.stretched').click();
    await page.waitForURL(new RegExp(`/cabin/${cabin.id}\\?`));
    const card = page.locator('#booking');
    await visible(card.locator('.booking__total'));
    expect(await card.getByLabel('Гости').inputValue()).toBe('4');
    expect(await textOf(card.locator('.booking__total dd'))).toBe(rub(forFour.total));

    // The баня ticked and the code applied: the server's price, line by line.
    const extra = card.getByRole('checkbox', { name: /^Баня — 2\s000\s₽ за проживание$/ });
    await extra.check();
    await visible(card.locator('.booking__sum').getByText('Баня'));
    // A code that does not exist: the server's reason beside the field, and what was typed stays.
    const code = card.getByLabel('Промокод', { exact: true });
    await code.fill('NETAKOGO');
    await card.getByRole('button', { name: 'Применить' }).click();
    await visible(card.locator('.booking__promo').getByText('Такого промокода нет: проверьте, как он написан'));
    expect(await code.inputValue()).toBe('NETAKOGO');
    expect(await code.getAttribute('aria-invalid')).toBe('true');
    await code.fill(CODE.toLowerCase());
    await card.getByRole('button', { name: 'Применить' }).click();
    await visible(card.locator('.booking__promo').getByText(`Промокод ${CODE} применён`));
    const priced = await quote({ cabinId: cabin.id, checkIn, checkOut, guests: 4, extras: banya.id, promo: CODE });
    expect(priced.lines.map((l) => l.kind)).toEqual(['nights', 'nights', 'extraGuests', 'promo', 'extra']);
    const sum = await textOf(card.locator('.booking__sum'));
    expect(sum).toBe(
      flat(`${priced.lines.map((l) => `${l.label} ${amount(l.amount)}`).join(' ')} Итого ${rub(priced.total)}`),
    );
    expect(sum).toContain(`${rub(cabin.pricePerNight)} × 1 ночь ${rub(cabin.pricePerNight)}`);
    expect(sum).toContain(`${rub(weekend)} × 2 ночи ${rub(weekend * 2)}`);
    expect(sum).toContain(`Дополнительные гости: 2 × 500 ₽ × 3 ночи ${rub(3000)}`);
    expect(sum).toMatch(new RegExp(`Промокод ${CODE} ${CODE_PERCENT} % −\\d`));
    expect(sum).toContain(`Баня ${rub(2000)}`);
    // The phone's bar and the WhatsApp message carry the same price, the code's line with a minus.
    expect(await textOf(page.locator('.book-bar__price .price'))).toBe(rub(priced.total));
    const href = (await card.getByRole('link', { name: 'Забронировать через WhatsApp' }).getAttribute('href'))!;
    const message = flat(new URL(href).searchParams.get('text'));
    for (const l of priced.lines) expect(message).toContain(flat(`${l.label}: ${amount(l.amount)}`));
    expect(message).toContain(`Итого за 3 ночи: ${rub(priced.total)}`);

    // WCAG 2.2 AA on the card with the extras and the code shown; every control of theirs a thumb's size.
    expect(await axeViolations(page, '#booking')).toEqual([]);
    const small = await card
      .locator('.booking__options')
      .evaluate((el) =>
        [...el.querySelectorAll<HTMLElement>('label.check, input.input, button')]
          .map((c) => ({ name: c.textContent?.trim() || c.id, height: c.getBoundingClientRect().height }))
          .filter((c) => c.height < 43.5),
      );
    expect(small).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // The visitor books; «Заявки» has the very lines and total, the code and the баня with it.
    await card.getByLabel('Имя').fill('Гость С Промокодом');
    await card.getByLabel('Телефон').fill('+7 928 444-55-66');
    await card.getByLabel(/Я согласен/).check();
    await card.getByRole('button', { name: 'Отправить заявку' }).click();
    const sent = card.locator('.booking__sent');
    await visible(sent);
    const id = Number(/Заявка №(\d+) принята/.exec(await textOf(sent))?.[1]);
    mine.push(id);
    const api = await adminApi(baseURL);
    const row = (await (await api.client.admin.bookings.$get({ query: {} })).json()).find((b) => b.id === id)!;
    const uses = (await (await api.client.admin['promo-codes'].$get()).json()).codes.find((c) => c.code === CODE)!.uses;
    // A request uses no code; the owner's confirmation counts its use.
    expect(uses).toBe(0);
    expect((await api.put(`/admin/bookings/${id}`, { status: 'confirmed' })).status).toBe(200);
    const confirmedUses = (await (await api.client.admin['promo-codes'].$get()).json()).codes.find(
      (c) => c.code === CODE,
    )!.uses;
    await api.logout();
    expect(row).toMatchObject({ total: priced.total, lines: priced.lines, promoCode: CODE, guests: 4 });
    expect(row.extras).toContain(banya.id);
    expect(confirmedUses).toBe(1);
  });

  it("should say beside the code's field when its last use went to another guest meanwhile, keep everything typed, and book at the price without it", async () => {
    const { checkIn, checkOut } = await thursdayToSunday();
    const last = `${CODE}X`;
    const api = await adminApi(baseURL);
    const { codes } = await (await api.client.admin['promo-codes'].$get()).json();
    expect(
      (await api.put('/admin/promo-codes', { codes: [...codes, { code: last, amount: 1000, maxUses: 1 }] })).status,
    ).toBe(200);
    const page = await openPage(`/cabin/${cabin.id}?checkIn=${checkIn}&checkOut=${checkOut}&guests=3#booking`, 'phone');
    const card = page.locator('#booking');
    await visible(card.locator('.booking__total'));
    const code = card.getByLabel('Промокод', { exact: true });
    await code.fill(last);
    await card.getByRole('button', { name: 'Применить' }).click();
    await visible(card.locator('.booking__sum').getByText(`Промокод ${last}`));
    await card.getByLabel('Имя').fill('Гость Без Промокода');
    await card.getByLabel('Телефон').fill('+7 928 777-88-99');
    await card.getByLabel('Комментарий').fill('Приедем поздно');
    await card.getByLabel(/Я согласен/).check();

    // Another guest's booking (other dates) with the code's only use is confirmed first: a request
    // uses a code only once the owner confirms it.
    const other = await apiAt(baseURL).bookings.$post({
      json: {
        cabinId: cabin.id,
        checkIn: addDays(checkIn, 70),
        checkOut: addDays(checkOut, 70),
        guests: 2,
        name: 'Другой Гость',
        phone: '+7 928 000-11-22',
        email: '',
        comment: '',
        channel: 'whatsapp',
        consent: true,
        website: '',
        promo: last,
      },
    });
    expect(other.status).toBe(201);
    const otherId = (await bodyOf(other, 201)).id;
    mine.push(otherId);
    expect((await api.put(`/admin/bookings/${otherId}`, { status: 'confirmed' })).status).toBe(200);

    await card.getByRole('button', { name: 'Отправить заявку' }).click();
    await visible(card.locator('.booking__promo').getByText('Этот промокод уже использован максимальное число раз'));
    await visible(card.getByRole('alert').getByText(/Промокод не подошёл/));
    expect(await code.inputValue()).toBe(last);
    expect(await card.getByLabel('Имя').inputValue()).toBe('Гость Без Промокода');
    expect(await card.getByLabel('Комментарий').inputValue()).toBe('Приедем поздно');
    // The price is the one without the code again, and that is what is stored.
    const without = await quote({ cabinId: cabin.id, checkIn, checkOut, guests: 3 });
    expect(await textOf(card.locator('.booking__total dd'))).toBe(rub(without.total));
    expect(await textOf(card.locator('.booking__sum'))).not.toContain('Промокод');
    await card.getByRole('button', { name: 'Отправить заявку' }).click();
    const sent = card.locator('.booking__sent');
    await visible(sent);
    const id = Number(/Заявка №(\d+) принята/.exec(await textOf(sent))?.[1]);
    mine.push(id);
    const row = (await (await api.client.admin.bookings.$get({ query: {} })).json()).find((b) => b.id === id)!;
    await api.logout();
    expect(row).toMatchObject({ total: without.total, lines: without.lines, promoCode: null });
  });
});
