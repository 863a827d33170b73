import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addDays, todayInMoscow } from '../../../schema/dates.ts';
import { formatLineAmount, formatPrice } from '../../../schema/format.ts';
import { formatKopecks, type PriceLine } from '../../../schema/payment-options.ts';
import { scheduledUrl } from '../../../scripts/lib/stack.ts';
import { stayRules, type Availability } from '../../../site/lib/stay-picker.ts';
import type { StandInMail } from '../../../stand-ins/mail-api.ts';
import { readLog } from '../../../stand-ins/yookassa-api.ts';
import { apiAt, bodyOf } from '../../typed-api.ts';
import { axeViolations } from '../axe.ts';
import { useBrowser } from '../browser.ts';
import { E2E_OWNER_EMAIL } from '../global-setup.ts';
import { forgetBookingThrottle, runInLocalD1 } from '../local-d1.ts';
import { adminApi, notice, openTab, signIn, visible } from '../admin/helpers.ts';
import { pickStay } from '../stay-calendar.ts';
import { flat, solveCaptcha, textOf } from '../public/helpers.ts';

// The guest's page as it is used, on a phone, against the stack's ЮKassa stand-in (its page «pays») and its
// mail API stand-in (every e-mail the site sends lands there): the owner writes a cabin's arrival
// instructions and checks the cancellation policy and the e-mails in «Настройки» → «Гостям»; a
// guest books and pays the prepayment, opens the page from the confirmation e-mail, sees what is
// left and the instructions, adds the stay to a calendar, pays the rest, and cancels inside the
// free period: both payments go back in full and the nights are free. A second guest's stay gets
// the reminder and, once over, the review request by the schedule; the review sent through its
// link shows on /reviews as «Гость проживал(а)»; «Заявки» shows the three e-mails.

type Cabin = { id: number; name: string };
type Settings = {
  bookingMode: string;
  prepayment: unknown;
  holdMinutes: number;
  cancellation: { freeUntilDays: number; keepPercent: number };
  messages: unknown;
};
type AdminBooking = { id: number; total: number; lines: PriceLine[]; guestUrl: string; status: string };

const RUN = crypto.randomUUID().slice(0, 8);
const INSTRUCTIONS = `Заезд с 14:00. Ключи в сейфе у калитки, код ${RUN.slice(0, 4)}. Wi-Fi «Kaspiy», пароль more-${RUN}.`;
const FIRST_EMAIL = `madina-${RUN}@example.ru`;
const SECOND_EMAIL = `timur-${RUN}@example.ru`;
const REVIEW = `Домик чистый, море в двух шагах, хозяева на связи (${RUN}).`;

const kopecks = (value: string) => Math.round(Number(value) * 100);
const busyOn = (a: Availability, checkIn: string, checkOut: string) =>
  a.busy.some((b) => b.start < checkOut && checkIn < b.end);

describe('a guest manages a stay on the page of their booking, and the messages go by themselves', () => {
  const { baseURL, openPage } = useBrowser();
  const yookassa = inject('yookassaUrl');
  const mailApi = inject('mailApiUrl');
  const mine: number[] = [];
  let before: { settings: Settings; instructions: string };
  let cabin: Cabin;
  /** The guest who pays, then cancels. */
  let first: {
    id: number;
    token: string;
    checkIn: string;
    checkOut: string;
    total: number;
    lines: PriceLine[];
    prepayment: number;
  };
  /** The guest whose stay gets the reminder and the review request. */
  let second: { id: number; token: string; cabinId: number; nights: number };
  let reviewId: number | undefined;

  beforeAll(async () => {
    // This journey books twice from this machine's address: the journeys before it may have used the hour's count.
    await forgetBookingThrottle();
    cabin = ((await (await fetch(`${baseURL}/api/cabins`)).json()) as Cabin[])[0]!;
    const api = await adminApi(baseURL);
    const settings = (await api.get('/admin/settings')).json as Settings;
    const instructions = await api.client.admin.cabins[':id'].instructions.$get({ param: { id: String(cabin.id) } });
    const { text } = await bodyOf(instructions, 200);
    before = { settings, instructions: text };
    await api.logout();
  });

  afterAll(async () => {
    // The other journeys see the stack as it was: requests without prepayment, the cabin without
    // instructions, no bookings or review of this journey.
    const api = await adminApi(baseURL);
    for (const id of mine) await api.del(`/admin/bookings/${id}`);
    if (reviewId !== undefined) await api.del(`/reviews/${reviewId}`);
    if (before) {
      const { bookingMode, prepayment, holdMinutes, cancellation, messages } = before.settings;
      await api.put('/settings', { bookingMode, prepayment, holdMinutes, cancellation, messages });
      await api.put(`/admin/cabins/${cabin.id}/instructions`, { text: before.instructions });
    }
    await api.waitPublished();
    await api.logout();
    await forgetBookingThrottle();
  }, 180_000);

  const availability = async (id: number) =>
    (await (await fetch(`${baseURL}/api/cabins/${id}/availability`, { cache: 'no-store' })).json()) as Availability;
  const yookassaLog = () => readLog(yookassa);

  /** Waits for the e-mail to `to` whose subject has `subject`, as the mail API stand-in got it. */
  async function mailTo(to: string, subject: string | RegExp, timeoutMs = 30_000): Promise<StandInMail> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const mails = (await (await fetch(`${mailApi}/_stand-in/mails`)).json()) as StandInMail[];
      const mail = mails.find(
        (m) =>
          m.to.includes(to) && (typeof subject === 'string' ? m.subject.includes(subject) : subject.test(m.subject)),
      );
      if (mail) return mail;
      if (Date.now() > until)
        throw new Error(
          `no e-mail «${subject}» to ${to}; it got: ${
            mails
              .filter((m) => m.to.includes(to))
              .map((m) => m.subject)
              .join(' | ') || 'nothing'
          }`,
        );
      await new Promise((r) => setTimeout(r, 300));
    }
  }

  /**
   * The schedule's 15-minute upkeep, now: miniflare's trigger of the Cron handler with a
   * scheduledTime (ms) on a quarter hour, as the Cron Trigger gives it (worker/scheduled.ts
   * jobsAt); without a time, the upkeep would wait for the clock.
   */
  async function runUpkeep() {
    const quarter = Math.floor(Date.now() / 900_000) * 900_000;
    const res = await fetch(`${scheduledUrl(baseURL)}&time=${quarter}`);
    expect(res.status, await res.text()).toBe(200);
  }

  /** The link to the guest's page in an e-mail. */
  const pageLink = (mail: StandInMail) => {
    const link = new RegExp(`${baseURL.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/b/[0-9a-f]{36}(#review)?`).exec(
      mail.text,
    )?.[0];
    if (!link) throw new Error(`no link to the guest's page in «${mail.subject}»:\n${mail.text}`);
    return link;
  };

  const money = (page: Page) => page.getByRole('region', { name: 'Стоимость и оплата' });

  it("should let the owner write a cabin's instructions for guests, show the cancellation policy and the e-mails with a preview, and switch prepayment on", async () => {
    const owner = await openPage('/admin#cabins', 'phone');
    await signIn(owner);
    await owner.getByRole('button', { name: `Для гостей «${cabin.name}»` }).click();
    const dialog = owner.getByRole('dialog', { name: `Для гостей: «${cabin.name}»` });
    await visible(dialog);
    await dialog.getByLabel('Инструкция для гостей').fill(INSTRUCTIONS);
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    await visible(notice(owner, 'Инструкция сохранена'));

    // «Настройки» → «Гостям»: the default policy (free until 7 days before, then 30 % kept) and the three e-mails.
    await openTab(owner, 'Настройки');
    await owner.getByRole('navigation', { name: 'Разделы настроек' }).getByRole('link', { name: 'Гостям' }).click();
    const policy = owner.getByRole('group', { name: 'Отмена бронирования' });
    await visible(policy);
    expect(await policy.getByLabel('Бесплатная отмена: за сколько дней до заезда').inputValue()).toBe('7');
    expect(await policy.getByLabel('Позже удерживать, % стоимости').inputValue()).toBe('30');
    expect(flat(await policy.innerText())).toContain('позже — вернём 28 000 ₽, удержим 12 000 ₽');
    const confirmation = owner.getByRole('group', { name: 'Подтверждение' });
    await visible(confirmation);
    await visible(owner.getByRole('group', { name: 'Напоминание перед заездом' }));
    await visible(owner.getByRole('group', { name: 'Просьба об отзыве' }));
    // The preview fills the placeholders with an example booking, as the guest will read it.
    await confirmation.getByText('Как увидит гость').click();
    const preview = flat(await confirmation.locator('.message-preview').innerText());
    expect(preview).toContain('Бронирование подтверждено: Домик у моря, 10 июля 2027');
    expect(preview).toContain('Здравствуйте, Мадина!');
    expect(preview).toContain('https://ваш-сайт.рф/b/…');
    expect(preview).not.toMatch(/\{(имя|домик|заезд|выезд|ссылка)\}/);
    expect(await axeViolations(owner)).toEqual([]);

    // Prepayment on, as in «Основные» → «Бронирование и оплата» (test/e2e/content/prepayment.journey.ts).
    await owner.getByRole('navigation', { name: 'Разделы настроек' }).getByRole('link', { name: 'Основные' }).click();
    const form = owner.getByRole('form', { name: 'Бронирование и оплата' });
    await visible(form);
    await form.getByLabel(/Бронирование с предоплатой/).check();
    await form.getByLabel('Процент от суммы').check();
    await form.getByLabel('Процент предоплаты').fill('30');
    await form.getByRole('button', { name: 'Сохранить настройки оплаты' }).click();
    await visible(notice(owner, 'Настройки сохранены!'));
  });

  it('should e-mail the guest who paid the prepayment a link to their page, which shows the stay, what is left to pay, the instructions and the stay for a calendar', async () => {
    // A stay far enough ahead to cancel free of charge.
    const a = await availability(cabin.id);
    let checkIn = '';
    for (let n = 200; n < 300 && !checkIn; n++) {
      const day = addDays(todayInMoscow(), n);
      if (!busyOn(a, day, addDays(day, 2)) && stayRules(a).quote(day, addDays(day, 2)).minNights <= 2) checkIn = day;
    }
    expect(checkIn).not.toBe('');
    const checkOut = addDays(checkIn, 2);

    const guest = await openPage(`/cabin/${cabin.id}`, 'phone');
    await guest.locator('#booking').scrollIntoViewIfNeeded();
    await guest.locator('#booking[data-ready]').waitFor();
    await pickStay(guest, checkIn, checkOut);
    const card = guest.locator('#booking');
    await card.getByLabel('Имя').fill('Мадина Гостья');
    await card.getByLabel('Телефон').fill('+7 928 777-10-20');
    await card.getByLabel('E-mail').fill(FIRST_EMAIL);
    await card.getByLabel(/Я согласен/).check();
    await card.getByRole('button', { name: /^Оплатить / }).click();
    await guest.waitForURL(`${yookassa}/pay/**`);
    await guest.getByRole('button', { name: 'Оплатить' }).click();
    await guest.waitForURL(new RegExp(`/cabin/${cabin.id}\\?booking=\\d+&token=`));
    await visible(
      guest.locator('.booking__status').getByRole('heading', { name: 'Бронирование подтверждено' }),
      20_000,
    );
    const id = Number(new URL(guest.url()).searchParams.get('booking'));
    mine.push(id);
    const prepayment = kopecks(
      (await yookassaLog()).payments.find((p) => p.metadata.bookingId === String(id))!.amount.value,
    );

    // The confirmation e-mail carries the page's link.
    const mail = await mailTo(FIRST_EMAIL, 'Бронирование подтверждено');
    expect(mail.text).toContain('Здравствуйте, Мадина!');
    const link = pageLink(mail);
    const token = link.split('/b/')[1]!;
    const api = await adminApi(baseURL);
    const row = ((await api.get('/admin/bookings')).json as AdminBooking[]).find((b) => b.id === id)!;
    await api.logout();
    expect(row.guestUrl).toContain(`/b/${token}`);
    first = { id, token, checkIn, checkOut, total: row.total, lines: row.lines, prepayment };

    // The page, opened from the e-mail on the phone: whole before any script (here with none at all).
    const bare = await openPage(link, 'phone', { javaScriptEnabled: false });
    await visible(bare.getByRole('heading', { level: 1, name: 'Бронирование подтверждено' }));
    const sum = flat(await money(bare).innerText());
    for (const line of row.lines) expect(sum).toContain(flat(`${line.label} ${formatLineAmount(line.amount)}`));
    expect(sum).toContain(flat(`Итого ${formatPrice(row.total)}`));
    expect(sum).toContain(flat(`Оплачено ${formatKopecks(prepayment)}`));
    expect(sum).toContain(flat(`Осталось оплатить ${formatKopecks(row.total * 100 - prepayment)}`));
    await visible(bare.getByRole('region', { name: 'Как добраться и заселиться' }).getByText(INSTRUCTIONS));

    // With its script: the same page, the booking not read again, nothing asked of another site.
    const page = await openPage(link, 'phone');
    await page.locator('html[data-guest-ready]').waitFor({ state: 'attached' });
    await page.waitForLoadState('networkidle');
    expect(flat(await money(page).innerText())).toBe(sum);
    const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
    expect(loaded.filter((u) => u.includes('/api/guest/'))).toEqual([]);
    expect(loaded.filter((u) => new URL(u).origin !== new URL(baseURL).origin)).toEqual([]);
    const way = page.getByRole('region', { name: 'Как добраться и заселиться' });
    await visible(way.getByText(INSTRUCTIONS));

    // «Добавить в календарь»: the stay as one all-day event, check-in to check-out.
    const ics = await fetch(
      new URL((await way.getByRole('link', { name: 'Добавить в календарь' }).getAttribute('href'))!, baseURL),
    );
    expect(ics.status).toBe(200);
    expect(ics.headers.get('content-type')).toMatch(/^text\/calendar/);
    const event = (await ics.text()).replace(/\r\n[ \t]/g, '');
    expect(event).toContain(`DTSTART;VALUE=DATE:${checkIn.replaceAll('-', '')}`);
    expect(event).toContain(`DTEND;VALUE=DATE:${checkOut.replaceAll('-', '')}`);
    expect(event).toContain('STATUS:CONFIRMED');

    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });

  it("should take the rest through ЮKassa's page and bring the guest back to their page with nothing left to pay", async () => {
    const due = first.total * 100 - first.prepayment;
    const page = await openPage(`/b/${first.token}`, 'phone');
    await page.locator('html[data-guest-ready]').waitFor({ state: 'attached' });
    await page.getByRole('button', { name: `Оплатить остаток ${formatKopecks(due)}` }).click();
    await page.waitForURL(`${yookassa}/pay/**`);
    expect(flat(await page.locator('.sum').innerText())).toBe(`${(due / 100).toFixed(2).replace('.', ',')} ₽`);
    await page.getByRole('button', { name: 'Оплатить' }).click();
    await page.waitForURL(new RegExp(`/b/${first.token}`));
    await visible(page.getByRole('heading', { level: 1, name: 'Бронирование подтверждено' }), 20_000);
    const sum = flat(await money(page).innerText());
    expect(sum).toContain(flat(`Оплачено ${formatPrice(first.total)}`));
    expect(sum).not.toContain('Осталось оплатить');
    expect(await page.getByRole('button', { name: /Оплатить остаток/ }).count()).toBe(0);
  });

  it('should say what comes back before the guest cancels, refund both payments in full through ЮKassa, tell the owner and free the nights', async () => {
    const page = await openPage(`/b/${first.token}`, 'phone');
    // Whatever the page's script does breaks no rule of its CSP (a try of eval is one, even caught).
    await page.addInitScript(() => {
      const seen: string[] = [];
      Object.assign(window, { cspViolations: seen });
      addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.sourceFile}`));
    });
    await page.reload();
    await page.locator('html[data-guest-ready]').waitFor({ state: 'attached' });
    const cancel = page.getByRole('region', { name: 'Условия отмены' });
    await visible(cancel);
    expect(flat(await cancel.innerText())).toContain('Отмена бесплатна не позднее чем за 7 дней до заезда');
    await cancel.getByRole('button', { name: 'Отменить бронирование' }).click();
    await visible(cancel.getByText(flat(`Вернём ${formatPrice(first.total)}.`)));
    await cancel.getByRole('button', { name: 'Да, отменить' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Бронирование отменено' }), 20_000);
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    expect(await textOf(page.getByRole('region', { name: 'Отмена' }))).toContain(
      flat(`Возвращаем ${formatPrice(first.total)} на карту`),
    );

    // ЮKassa returned each payment, the prepayment and the rest, in full.
    const log = await yookassaLog();
    const payments = log.payments.filter((p) => p.metadata.bookingId === String(first.id) && p.status === 'succeeded');
    expect(payments.map((p) => p.metadata.kind ?? 'prepayment').sort()).toEqual(['balance', 'prepayment']);
    expect(payments.reduce((s, p) => s + kopecks(p.amount.value), 0)).toBe(first.total * 100);
    for (const p of payments) {
      const back = log.refunds.filter((r) => r.payment_id === p.id).reduce((s, r) => s + kopecks(r.amount.value), 0);
      expect(back, `refunded of ${p.metadata.kind ?? 'prepayment'}`).toBe(kopecks(p.amount.value));
    }
    // The nights are free on the site again, and the owner is told by e-mail.
    expect(busyOn(await availability(cabin.id), first.checkIn, first.checkOut)).toBe(false);
    await mailTo(E2E_OWNER_EMAIL, `Гость отменил бронирование №${first.id}`);
  });

  it('should send the reminder before arrival and, after the stay, the review request whose link opens the review form, the review showing as «Гость проживал(а)» once approved', {
    timeout: 240_000,
  }, async () => {
    // A stay that begins within the reminder's days (3 by default), on any cabin free then.
    const today = todayInMoscow();
    const cabins = (await (await fetch(`${baseURL}/api/cabins`)).json()) as Cabin[];
    let stay: { cabinId: number; checkIn: string; checkOut: string; nights: number } | undefined;
    for (const c of cabins) {
      const a = await availability(c.id);
      for (let d = 1; d <= 3 && !stay; d++) {
        const checkIn = addDays(today, d);
        for (let n = 1; n <= 7 && !stay; n++) {
          const checkOut = addDays(checkIn, n);
          if (!busyOn(a, checkIn, checkOut) && stayRules(a).quote(checkIn, checkOut).minNights <= n)
            stay = { cabinId: c.id, checkIn, checkOut, nights: n };
        }
      }
      if (stay) break;
    }
    if (!stay) throw new Error('no cabin free within the next 3 days');
    const res = await apiAt(baseURL).bookings.$post({
      json: {
        cabinId: stay.cabinId,
        checkIn: stay.checkIn,
        checkOut: stay.checkOut,
        guests: 2,
        name: 'Тимур Скорый',
        phone: '+7 928 555-66-77',
        email: SECOND_EMAIL,
        comment: '',
        channel: 'whatsapp',
        consent: true,
        website: '',
      },
    });
    expect(res.status).toBe(201);
    const booked = await bodyOf(res, 201);
    mine.push(booked.id);
    // Paid on the stand-in, which tells the site as ЮKassa would.
    const paymentId = booked.payment!.confirmationUrl.split('/pay/')[1]!;
    expect((await fetch(`${yookassa}/_payments/${paymentId}/succeed`, { method: 'POST' })).status).toBe(200);
    const confirmation = await mailTo(SECOND_EMAIL, 'Бронирование подтверждено');
    const token = pageLink(confirmation).split('/b/')[1]!;
    expect(booked.guestUrl).toContain(token);
    second = { id: booked.id, token, cabinId: stay.cabinId, nights: stay.nights };

    // The schedule's upkeep sends the reminder with the page's link.
    await runUpkeep();
    const reminder = await mailTo(SECOND_EMAIL, 'Скоро заезд');
    expect(pageLink(reminder)).toBe(`${baseURL}/b/${token}`);

    // The stay is over (its dates moved into the past in the stack's D1, as the days would pass):
    // the next upkeep sends the review request, its link the page's review form.
    const checkOut = addDays(today, -1);
    const moved = await runInLocalD1(
      'UPDATE bookings SET check_in = ?, check_out = ? WHERE id = ?',
      addDays(checkOut, -stay.nights),
      checkOut,
      booked.id,
    );
    expect(moved).toBe(1);
    await runUpkeep();
    const request = await mailTo(SECOND_EMAIL, 'Как вам отдых');
    const link = pageLink(request);
    expect(link).toBe(`${baseURL}/b/${token}#review`);

    const page = await openPage(link, 'phone');
    const form = page.getByRole('form', { name: 'Новый отзыв' });
    await visible(form, 20_000);
    await form.getByLabel('Имя').fill('Тимур');
    await form.getByLabel('Email').fill(SECOND_EMAIL);
    await form.getByLabel('Отзыв').fill(REVIEW);
    await form.getByLabel(/Решите пример/).fill(String(solveCaptcha(await textOf(form.locator('.captcha__question')))));
    await form.getByLabel(/Я согласен/).check();
    await form.getByRole('button', { name: 'Отправить отзыв' }).click();
    await visible(page.getByText('Спасибо за отзыв!'));

    // The owner approves it; once the site is rebuilt, /reviews shows it from a guest who stayed.
    const api = await adminApi(baseURL);
    const review = (await (await api.client.reviews.$get({ query: {} })).json()).find((r) => r.comment === REVIEW);
    expect(review).toMatchObject({ approved: false, verifiedStay: true });
    reviewId = review!.id;
    expect((await api.put(`/reviews/${reviewId}`, { approved: true })).status).toBe(200);
    await api.waitPublished();
    await api.logout();
    const reviews = await openPage('/reviews', 'phone');
    const shown = reviews.locator('.review-card', { hasText: REVIEW });
    await visible(shown);
    await visible(shown.getByText('Гость проживал(а)'));
  });

  it('should list the three e-mails the second guest got under «Письма гостю» in «Заявки»', async () => {
    const owner = await openPage('/admin#bookings', 'phone');
    await signIn(owner);
    const row = owner.locator('.booking-item', {
      has: owner.getByRole('heading', { name: new RegExp(`^№${second.id} ·`) }),
    });
    await visible(row);
    await row.getByText('Письма гостю').click();
    const list = row.locator('.booking-messages');
    await visible(list);
    const items = (await list.locator('li').allInnerTexts()).map(flat);
    expect(items).toHaveLength(3);
    expect(items[0]).toMatch(new RegExp(`^Подтверждение на ${SECOND_EMAIL}: отправлено `));
    expect(items[1]).toMatch(new RegExp(`^Напоминание перед заездом на ${SECOND_EMAIL}: отправлено `));
    expect(items[2]).toMatch(new RegExp(`^Просьба об отзыве на ${SECOND_EMAIL}: отправлено `));
  });
});
