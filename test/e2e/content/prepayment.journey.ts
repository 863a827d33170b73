import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addDays, nightsBetween } from '../../../schema/dates.ts';
import { MSG } from '../../../schema/messages.ts';
import { formatKopecks, prepaymentKopecks, priceStay } from '../../../schema/payment-options.ts';
import { stayRules, type Availability } from '../../../site/lib/stay-picker.ts';
import { readRequests } from '../../../stand-ins/max-api.ts';
import { readMessages } from '../../../stand-ins/telegram-api.ts';
import { readLog } from '../../../stand-ins/yookassa-api.ts';
import { apiAt, bodyOf } from '../../typed-api.ts';
import { useBrowser } from '../browser.ts';
import { runInLocalD1 } from '../local-d1.ts';
import { adminApi, notice, openTab, signIn, visible } from '../admin/helpers.ts';
import { pickStay } from '../stay-calendar.ts';
import { flat, rub } from '../public/helpers.ts';

// Prepayment as it is used, on a phone, against the local stack's ЮKassa stand-in (its payment page
// «pays» without money) and the MAX and Telegram stand-ins the owner's alerts go to: the owner
// switches prepayment on in «Настройки», a guest pays and comes back to «Бронирование
// подтверждено», the owner is told and refunds it from «Заявки»; an unpaid hold frees its nights.

type Cabin = { id: number; name: string; pricePerNight: number; maxGuests: number };
type Logged = {
  payments: { id: string; status: string; metadata: { bookingId: string } }[];
  receipts: {
    kind: string;
    paymentId: string;
    receipt: { items: { amount: { value: string }; payment_mode?: string }[] };
  }[];
};

const MAX_TOKEN = `prepay-${crypto.randomUUID()}`;
const FEE = 1500;
const TAX = { enabled: true, ratePercent: 2, minPerNight: 100 };
const PERCENT = 30;

describe('a guest pays a prepayment on a phone and the booking confirms itself', () => {
  const { baseURL, openPage } = useBrowser();
  const maxApi = inject('maxApiUrl');
  const telegramApi = inject('telegramApiUrl');
  const yookassa = inject('yookassaUrl');
  const mine: number[] = [];
  let before: Record<string, unknown>;
  /** A request received as «Заявка» before prepayment was on: the owner sends it a payment link. */
  let request: { id: number; cabinId: number; checkIn: string; checkOut: string };

  beforeAll(async () => {
    const api = await adminApi(baseURL);
    before = (await api.get('/admin/settings')).json as Record<string, unknown>;
    // The owner's MAX bot, connected as in «Уведомления в MAX» (test/e2e/panel/max-alerts.journey.ts shows the panel's way).
    expect((await api.put('/admin/max', { token: MAX_TOKEN })).status).toBe(200);
    const { link } = await bodyOf(await api.client.admin.max.$get(), 200);
    const payload = new URL(link!).searchParams.get('start');
    await fetch(`${maxApi}/_stand-in/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: MAX_TOKEN, payload, userId: 515_151, chatId: 525_252 }),
    });
    expect((await api.post('/admin/max/check', {})).status).toBe(200);
    await api.logout();
    const cabin = ((await (await fetch(`${baseURL}/api/cabins`)).json()) as Cabin[])[0]!;
    const { checkIn, checkOut } = await freeStay(cabin, 340, 2);
    const res = await apiAt(baseURL).bookings.$post({
      json: {
        cabinId: cabin.id,
        checkIn,
        checkOut,
        guests: 2,
        name: 'Гостья По Заявке',
        phone: '+7 928 333-44-55',
        email: '',
        comment: '',
        channel: 'whatsapp',
        consent: true,
        website: '',
      },
    });
    expect(res.status).toBe(201);
    request = { id: (await bodyOf(res, 201)).id, cabinId: cabin.id, checkIn, checkOut };
    mine.push(request.id);
  });

  afterAll(async () => {
    // The other journeys run with requests, no fee or tax and no MAX bot, on free nights.
    const api = await adminApi(baseURL);
    for (const id of mine) await api.del(`/admin/bookings/${id}`);
    await api.put('/settings', {
      bookingMode: before.bookingMode,
      prepayment: before.prepayment,
      holdMinutes: before.holdMinutes,
      cleaningFee: before.cleaningFee,
      touristTax: before.touristTax,
    });
    await api.del('/admin/max');
    await api.waitPublished();
    await api.logout();
  });

  const maxTexts = async () =>
    (await readRequests(maxApi))
      .filter((r) => r.authorization === MAX_TOKEN && r.method === 'POST' && r.path.startsWith('/messages'))
      .map((r) => r.body?.text ?? '');
  const telegramTexts = async () => (await readMessages(telegramApi)).map((m) => m.body.text);
  /** Waits for an alert with `text` in both MAX and Telegram. */
  async function alerted(text: string) {
    const until = Date.now() + 15_000;
    for (;;) {
      const [max, telegram] = await Promise.all([maxTexts(), telegramTexts()]);
      if (max.some((t) => t.includes(text)) && telegram.some((t) => t.includes(text))) return;
      if (Date.now() > until)
        throw new Error(
          `no alert «${text}»; MAX: ${max.slice(-2).join(' | ')}; Telegram: ${telegram.slice(-2).join(' | ')}`,
        );
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const availability = async (id: number) =>
    (await (await fetch(`${baseURL}/api/cabins/${id}/availability`, { cache: 'no-store' })).json()) as Availability;
  /** A free stay of `nights` nights from `after` days ahead, its minimum stay met. */
  async function freeStay(cabin: Cabin, after: number, nights: number) {
    const a = await availability(cabin.id);
    for (let n = after; n < 350; n++) {
      const checkIn = addDays(a.from, n);
      const checkOut = addDays(checkIn, nights);
      if (
        !a.busy.some((b) => b.start < checkOut && checkIn < b.end) &&
        stayRules(a).quote(checkIn, checkOut).minNights <= nights
      )
        return { checkIn, checkOut, a };
    }
    throw new Error('no free stay');
  }
  /** The guest picks the stay on the cabin's card and fills the form, up to «Оплатить N ₽». */
  async function fillCard(page: Page, stay: { checkIn: string; checkOut: string }, name: string) {
    await page.locator('#booking').scrollIntoViewIfNeeded();
    await page.locator('#booking[data-ready]').waitFor();
    await pickStay(page, stay.checkIn, stay.checkOut);
    const card = page.locator('#booking');
    await card.getByLabel('Имя').fill(name);
    await card.getByLabel('Телефон').fill('+7 928 777-10-20');
    await card.getByLabel(/Я согласен/).check();
    return card;
  }

  it("should take the owner's prepayment settings, let the guest pay on ЮKassa's page and come back to «Бронирование подтверждено», alert the owner, and refund it from «Заявки»", async () => {
    // The owner switches prepayment on in «Настройки» on a phone, with a cleaning fee and the tourist tax.
    const owner = await openPage('/admin#settings', 'phone');
    await signIn(owner);
    const form = owner.getByRole('form', { name: 'Бронирование и оплата' });
    await visible(form);
    await form.getByLabel(/Бронирование с предоплатой/).check();
    await form.getByLabel('Процент от суммы').check();
    await form.getByLabel('Процент предоплаты').fill(String(PERCENT));
    await form.getByLabel('Уборка, ₽ за проживание').fill(String(FEE));
    await form.getByLabel(/Взимать туристический налог/).check();
    await form.getByLabel('Ставка, %').fill(String(TAX.ratePercent));
    await form.getByLabel('Минимум за ночь, ₽').fill(String(TAX.minPerNight));
    // The example shows the lines a guest will see before anything is saved.
    await visible(form.getByText('Туристический налог 2 %'));
    await form.getByRole('button', { name: 'Сохранить настройки оплаты' }).click();
    await visible(notice(owner, 'Настройки сохранены!'));

    // A guest on a phone picks three nights, sees nights, fee, tax and total, and pays the prepayment.
    const cabin = ((await (await fetch(`${baseURL}/api/cabins`)).json()) as Cabin[])[0]!;
    const { checkIn, checkOut, a } = await freeStay(cabin, 300, 3);
    const quote = stayRules(a).quote(checkIn, checkOut);
    const priced = priceStay(quote.parts, { cleaningFee: FEE, touristTax: TAX });
    const prepayment = prepaymentKopecks(priced, quote.parts[0]!.pricePerNight, { kind: 'percent', percent: PERCENT });
    // Search results carry the same total, naming the fee and the tax inside it.
    const found = flat(
      await (await fetch(`${baseURL}/search?checkIn=${checkIn}&checkOut=${checkOut}&guests=2`)).text(),
    );
    expect(found).toContain(
      `3 ночи · ${rub(priced.total)} <small class="price__extras">вкл. уборка ${rub(FEE)}, туристический налог 2 % ${rub(priced.lines.at(-1)!.amount)}</small>`,
    );
    const guest = await openPage(`/cabin/${cabin.id}`, 'phone');
    const card = await fillCard(guest, { checkIn, checkOut }, 'Мадина Платящая');
    const sum = flat(await card.locator('.booking__sum').innerText());
    expect(sum).toContain(`Уборка ${rub(FEE)}`);
    expect(sum).toContain(`Туристический налог 2 % ${rub(priced.lines.find((l) => l.kind === 'tax')!.amount)}`);
    expect(sum).toContain(`Итого ${rub(priced.total)}`);
    expect(sum).toContain(`Предоплата сейчас ${flat(formatKopecks(prepayment))}`);
    await card.getByRole('button', { name: `Оплатить ${formatKopecks(prepayment)}` }).click();

    // ЮKassa's page (the stand-in's), with the prepayment; «Оплатить» sends the guest back.
    await guest.waitForURL(`${yookassa}/pay/**`);
    expect(flat(await guest.locator('.sum').innerText())).toBe(`${(prepayment / 100).toFixed(2).replace('.', ',')} ₽`);
    await guest.getByRole('button', { name: 'Оплатить' }).click();
    await guest.waitForURL(new RegExp(`/cabin/${cabin.id}\\?booking=\\d+&token=`));
    const status = guest.locator('.booking__status');
    await visible(status.getByRole('heading', { name: 'Бронирование подтверждено' }), 20_000);
    const id = Number(new URL(guest.url()).searchParams.get('booking'));
    mine.push(id);
    expect(flat(await status.innerText())).toContain(`Предоплата ${flat(formatKopecks(prepayment))} получена`);

    // The owner hears of it in MAX and in Telegram.
    await alerted(`бронирование №${id} подтверждено`);

    // «Заявки» shows it confirmed and paid; «Шахматка» shows its nights as a stay.
    await owner.goto('/admin#bookings');
    const row = owner.locator('.booking-item', { has: owner.getByRole('heading', { name: new RegExp(`^№${id} ·`) }) });
    await visible(row);
    await visible(row.locator('.badge', { hasText: 'Подтверждена' }));
    await visible(row.getByText(`Предоплата ${formatKopecks(prepayment)} оплачена`));
    await openTab(owner, 'Календарь');
    await visible(await barInChart(owner, `Бронирование №${id}: Мадина Платящая`));

    // Cancelled, it is refunded with a receipt; the nights are free again.
    await openTab(owner, 'Заявки');
    await row.getByRole('button', { name: `Вернуть предоплату по заявке №${id}` }).click();
    await owner.getByRole('alertdialog').getByRole('button', { name: 'Вернуть предоплату' }).click();
    await visible(notice(owner, `Предоплата по заявке №${id} возвращена, бронирование отменено`));
    await visible(row.locator('.badge', { hasText: 'Отменена' }));
    await visible(row.getByText(`Предоплата ${formatKopecks(prepayment)} возвращена гостю`));
    const log = (await (await fetch(`${yookassa}/_log`)).json()) as Logged;
    const payment = log.payments.find((p) => p.metadata.bookingId === String(id))!;
    const receipts = log.receipts.filter((r) => r.paymentId === payment.id);
    expect(receipts.map((r) => r.kind).sort()).toEqual(['payment', 'refund']);
    // An item per line of the price (the stay, the fee, the tax), their shares adding up to what was paid.
    for (const r of receipts)
      expect(r.receipt.items.reduce((sum, i) => sum + Math.round(Number(i.amount.value) * 100), 0)).toBe(prepayment);
    const after = await availability(cabin.id);
    expect(after.busy.some((b) => b.start < checkOut && checkIn < b.end)).toBe(false);
    expect(nightsBetween(checkIn, checkOut)).toBe(3);
  });

  it('should free the nights of a hold left unpaid when it runs out, and say «Бронь истекла» to the guest and the owner', async () => {
    const cabin = ((await (await fetch(`${baseURL}/api/cabins`)).json()) as Cabin[])[0]!;
    const { checkIn, checkOut } = await freeStay(cabin, 320, 2);
    const guest = await openPage(`/cabin/${cabin.id}`, 'phone');
    const card = await fillCard(guest, { checkIn, checkOut }, 'Гость Передумавший');
    await card.getByRole('button', { name: /^Оплатить / }).click();
    await guest.waitForURL(`${yookassa}/pay/**`);
    // The guest leaves the payment page open and never pays: the nights are held meanwhile.
    const held = await availability(cabin.id);
    expect(held.busy.some((b) => b.start < checkOut && checkIn < b.end)).toBe(true);
    const api = await adminApi(baseURL);
    const booking = (await (await api.client.admin.bookings.$get({ query: {} })).json()).find(
      (b) => b.cabinId === cabin.id && b.checkIn === checkIn,
    )!;
    mine.push(booking.id);
    expect(booking.status).toBe('awaiting_payment');
    // The owner sees the held nights in «Шахматка» with a status of their own.
    const owner = await openPage('/admin#calendar', 'phone');
    await signIn(owner);
    await visible(await barInChart(owner, `Ждёт оплаты №${booking.id}`));

    // The hold's time runs out (its end moved into the past in the local D1, as 30 minutes would).
    await expireHoldInLocalD1(booking.id);
    await api.logout();
    // «Заявки» says so.
    await owner.goto('/admin#bookings');
    const row = owner.locator('.booking-item', {
      has: owner.getByRole('heading', { name: new RegExp(`^№${booking.id} ·`) }),
    });
    await visible(row);
    await visible(row.locator('.badge', { hasText: 'Бронь истекла' }));
    const free = await availability(cabin.id);
    expect(free.busy.some((b) => b.start < checkOut && checkIn < b.end)).toBe(false);
    await alerted(`Бронь №${booking.id} истекла`);

    // Back on the site by the payment's return address, the guest is told, and the card offers the dates again.
    const log = await readLog(yookassa);
    const back = log.payments.find((p) => p.metadata.bookingId === String(booking.id))!.confirmation.return_url;
    await guest.goto(back);
    await visible(guest.locator('.booking__status').getByRole('heading', { name: 'Бронь истекла' }), 20_000);
    expect(flat(await guest.locator('.booking__status').innerText())).toContain(
      `Бронирование №${booking.id} не оплачено, и даты снова свободны`,
    );
  });

  it('should send a payment link for a request received as «Заявка» in one tap, holding its nights', async () => {
    const owner = await openPage('/admin#bookings', 'phone');
    await signIn(owner);
    const row = owner.locator('.booking-item', {
      has: owner.getByRole('heading', { name: new RegExp(`^№${request.id} ·`) }),
    });
    await visible(row.locator('.badge', { hasText: 'Новая' }));
    await row.getByRole('button', { name: `Отправить ссылку на оплату по заявке №${request.id}` }).click();
    await visible(notice(owner, new RegExp(`Ссылка на оплату по заявке №${request.id} готова`)));
    await visible(row.locator('.badge', { hasText: 'Ждёт оплаты' }));
    // The reply to the guest, one tap in WhatsApp, carries ЮKassa's page and how long the dates are held.
    const href = (await row.locator('a[data-way="whatsapp"]').getAttribute('href'))!;
    const text = new URL(href).searchParams.get('text')!;
    expect(text).toContain(`Держим для вас даты по заявке №${request.id}, ждём предоплату.`);
    expect(text).toContain(`оплатить: ${yookassa}/pay/`);
    expect(text).toMatch(/Даты держим до \d\d:\d\d по Москве/);
    const held = await availability(request.cabinId);
    expect(held.busy.some((b) => b.start < request.checkOut && request.checkIn < b.end)).toBe(true);
  });

  it('should keep the booking as a «Заявка» and say so in Russian when ЮKassa is down', async () => {
    const cabin = ((await (await fetch(`${baseURL}/api/cabins`)).json()) as Cabin[])[0]!;
    const { checkIn, checkOut } = await freeStay(cabin, 280, 2);
    const guest = await openPage(`/cabin/${cabin.id}`, 'phone');
    const card = await fillCard(guest, { checkIn, checkOut }, 'Гость При Сбое');
    const outage = (down: boolean) =>
      fetch(`${yookassa}/_outage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ down }),
      });
    await outage(true);
    try {
      await card.getByRole('button', { name: /^Оплатить / }).click();
      const sent = card.locator('.booking__sent');
      await visible(sent.getByText(MSG.paymentUnavailable));
      const id = Number(/№(\d+)/.exec(await sent.innerText())![1]);
      mine.push(id);
      // The guest never left the site, and the owner has the request in «Заявки» as «Новая», its nights not held.
      expect(guest.url()).toContain(`/cabin/${cabin.id}`);
      const api = await adminApi(baseURL);
      const row = (await (await api.client.admin.bookings.$get({ query: {} })).json()).find((b) => b.id === id);
      await api.logout();
      expect(row).toMatchObject({ status: 'new', name: 'Гость При Сбое' });
      const after = await availability(cabin.id);
      expect(after.busy.some((b) => b.start < checkOut && checkIn < b.end)).toBe(false);
    } finally {
      await outage(false);
    }
  });
});

/** The bar in «Шахматка» whose title starts with `title`, the months turned forward until it shows. */
async function barInChart(page: Page, title: string) {
  const chart = page.getByRole('region', { name: 'Домики по дням' });
  await visible(chart);
  const bar = chart.locator(`[title^="${title}"]`);
  for (let i = 0; i < 13 && !(await bar.count()); i++) {
    await page.getByRole('button', { name: 'Месяц вперёд' }).click();
    await page.waitForFunction(
      () => document.querySelector('.occupancy__scroll')?.getAttribute('aria-busy') === 'false',
    );
  }
  return bar;
}

/** Moves a hold's end into the past in the e2e stack's local D1 (wrangler dev's SQLite file). */
async function expireHoldInLocalD1(id: number) {
  const changed = await runInLocalD1(
    "UPDATE bookings SET hold_until = '2000-01-01T00:00:00.000Z' WHERE id = ? AND status = 'awaiting_payment'",
    id,
  );
  if (!changed) throw new Error(`hold ${id} not found in the stack's local D1`);
}
