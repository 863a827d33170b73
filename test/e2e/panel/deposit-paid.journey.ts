import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readLog } from '../../../stand-ins/yookassa-api.ts';
import { axeViolations } from '../axe.ts';
import { useBrowser } from '../browser.ts';
import { freeStaySoon, type ListedCabin } from '../stay-calendar.ts';
import { forgetBookingThrottle, runInLocalD1 } from '../local-d1.ts';
import { adminApi, notice, signIn, visible, bookConfirmed } from '../admin/helpers.ts';
import { flat, textOf } from '../public/helpers.ts';

// A deposit paid and refunded after departure, on a phone, against the stack's ЮKassa stand-in:
// the owner says in «Бронирование и оплата» that the shop has no two-stage payments and chooses
// «Залог оплачивается и возвращается после выезда»; a guest arriving tomorrow reads on their page
// that 4 000 ₽ is charged and comes back after departure, pays it, and the owner, in «Сегодня»,
// returns it: a refund of all of it, which the guest then reads. The cabin's deposit is set in the
// stack's D1 (no rebuild), and it and the deposit settings are put back after.

const RUN = crypto.randomUUID().slice(0, 6);
const GUEST = `Тимур Оплативший ${RUN}`;

describe('the owner returns a deposit the guest paid where a hold cannot be used', () => {
  const { baseURL, openPage } = useBrowser();
  const yookassa = inject('yookassaUrl');
  let cabin: ListedCabin;
  let bookingId = 0;
  let token = '';
  let savedDeposit: unknown;

  beforeAll(async () => {
    await forgetBookingThrottle();
    const api = await adminApi(baseURL);
    savedDeposit = ((await api.get('/admin/settings')).json as { deposit: unknown }).deposit;
    const stay = await freeStaySoon(baseURL);
    cabin = stay.cabin;
    expect(await runInLocalD1('UPDATE cabins SET deposit = 4000 WHERE id = ?', cabin.id)).toBe(1);
    ({ id: bookingId, token } = await bookConfirmed(
      baseURL,
      yookassa,
      {
        cabinId: cabin.id,
        checkIn: stay.checkIn,
        checkOut: stay.checkOut,
        guests: 2,
        name: GUEST,
        phone: '+7 928 555-46-46',
        email: `timur-${RUN}@example.ru`,
        comment: '',
        channel: 'whatsapp',
        consent: true,
        website: '',
      },
      api,
    ));
    await api.logout();
  });

  afterAll(async () => {
    await runInLocalD1('UPDATE cabins SET deposit = ? WHERE id = ?', cabin.deposit ?? 0, cabin.id);
    // The other journeys see holds as before and the nights free again; a booking with money is
    // cancelled, never deleted.
    const api = await adminApi(baseURL);
    await api.put('/settings', { deposit: savedDeposit });
    await api.put(`/admin/bookings/${bookingId}`, { status: 'cancelled' });
    await api.logout();
  });

  it('should tell the guest it is charged and comes back, take it, and refund all of it on «Вернуть залог»', async () => {
    const owner = await openPage('/admin#settings', 'phone');
    await signIn(owner);
    const form = owner.getByRole('form', { name: 'Бронирование и оплата' });
    await visible(form);
    await form.getByLabel(/В магазине ЮKassa включены двухстадийные платежи/).uncheck();
    await form.getByLabel('Залог оплачивается и возвращается после выезда').check();
    await form.getByRole('button', { name: 'Сохранить настройки оплаты' }).click();
    await visible(notice(owner, 'Настройки сохранены!'));

    const guest = await openPage(`/b/${token}`, 'phone');
    const section = guest.getByRole('region', { name: 'Залог' });
    await visible(section);
    expect(flat(await section.innerText())).toContain(
      flat('Залог 4 000 ₽ списывается с карты и возвращается после выезда, в течение 2 дней.'),
    );
    expect(await axeViolations(guest, 'main')).toEqual([]);
    await guest.locator('html[data-guest-ready]').waitFor({ state: 'attached', timeout: 15_000 });
    await section.getByRole('button', { name: 'Оплатить залог 4 000 ₽' }).click();
    // ЮKassa's page (the stand-in's): «Оплатить» charges it and sends the guest back.
    await guest.waitForURL(`${yookassa}/pay/**`);
    await guest.getByRole('button', { name: 'Оплатить', exact: true }).click();
    await guest.waitForURL(`${baseURL}/b/${token}`);
    await visible(guest.getByText('оплачен. Он вернётся на карту после выезда', { exact: false }));

    await owner.goto('/admin#today');
    const deposits = owner.getByRole('region', { name: 'Залоги' });
    await visible(deposits);
    const item = deposits.locator('li', { hasText: GUEST });
    await visible(item.getByText('Залог оплачен, вернётся после выезда', { exact: false }));
    await item.getByRole('button', { name: /Вернуть залог/ }).click();
    await owner.getByRole('alertdialog').getByRole('button', { name: 'Вернуть залог' }).click();
    await visible(notice(owner, 'Залог возвращается гостю'));
    await visible(item.getByText('Залог возвращён', { exact: false }));
    expect(await axeViolations(owner, '#admin-main')).toEqual([]);

    const log = await readLog(yookassa);
    const paid = log.payments.find(
      (p) => p.description === `Залог с возвратом после выезда, бронирование №${bookingId}`,
    );
    expect(paid).toMatchObject({ status: 'succeeded', capture: true, amount: { value: '4000.00' } });
    expect(log.refunds.filter((r) => r.payment_id === paid!.id).map((r) => r.amount.value)).toEqual(['4000.00']);

    await guest.reload();
    const text = await textOf(guest.getByRole('region', { name: 'Залог' }));
    expect(text).toContain(flat('Залог 4 000 ₽ возвращён на карту.'));
  });
});
