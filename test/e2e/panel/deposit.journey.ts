import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readLog } from '../../../stand-ins/yookassa-api.ts';
import { axeViolations } from '../axe.ts';
import { useBrowser } from '../browser.ts';
import { freeStaySoon, type ListedCabin } from '../stay-calendar.ts';
import { forgetBookingThrottle, runInLocalD1 } from '../local-d1.ts';
import { adminApi, noticed, signIn, visible, bookConfirmed } from '../admin/helpers.ts';
import { flat, textOf } from '../public/helpers.ts';

// A deposit held on the guest's card, on a phone, against the stack's ЮKassa stand-in: a cabin asks
// 5 000 ₽; a guest arriving tomorrow pays it from their page (a hold: «Оплатить» on the stand-in
// leaves it waiting for the shop), and the owner, in «Сегодня», keeps 1 500 ₽ of it with a reason
// that the guest then reads on their page. The cabin's deposit is set in the stack's D1 (the
// guest's page is drawn by the server: no rebuild), and put back after.

const RUN = crypto.randomUUID().slice(0, 6);
const REASON = `Разбита кружка (${RUN})`;

describe('the owner keeps part of a deposit held on the guest’s card', () => {
  const { baseURL, openPage } = useBrowser();
  const yookassa = inject('yookassaUrl');
  let cabin: ListedCabin;
  let bookingId = 0;
  let token = '';

  beforeAll(async () => {
    await forgetBookingThrottle();
    const stay = await freeStaySoon(baseURL);
    cabin = stay.cabin;
    expect(await runInLocalD1('UPDATE cabins SET deposit = 5000 WHERE id = ?', cabin.id)).toBe(1);
    ({ id: bookingId, token } = await bookConfirmed(baseURL, yookassa, {
      cabinId: cabin.id,
      checkIn: stay.checkIn,
      checkOut: stay.checkOut,
      guests: 2,
      name: 'Лейла Залогова',
      phone: '+7 928 555-44-33',
      email: `leila-${RUN}@example.ru`,
      comment: '',
      channel: 'whatsapp',
      consent: true,
      website: '',
    }));
  });

  afterAll(async () => {
    await runInLocalD1('UPDATE cabins SET deposit = ? WHERE id = ?', cabin.deposit ?? 0, cabin.id);
    // The other journeys see the nights free again; a booking with money is cancelled, never deleted.
    const api = await adminApi(baseURL);
    await api.put(`/admin/bookings/${bookingId}`, { status: 'cancelled' });
    await api.logout();
  });

  it('should hold it from the guest’s page, and let the owner keep 1 500 ₽ with a reason the guest reads', async () => {
    const guest = await openPage(`/b/${token}`, 'phone');
    const section = guest.getByRole('region', { name: 'Залог' });
    await visible(section);
    expect(flat(await section.innerText())).toContain('Залог 5 000 ₽ блокируется на вашей карте и не списывается');
    expect(await axeViolations(guest, 'main')).toEqual([]);
    await guest.locator('html[data-guest-ready]').waitFor({ state: 'attached', timeout: 15_000 });
    await section.getByRole('button', { name: 'Внести залог 5 000 ₽' }).click();
    // ЮKassa's page (the stand-in's): «Оплатить» holds the money and sends the guest back.
    await guest.waitForURL(`${yookassa}/pay/**`);
    await guest.getByRole('button', { name: 'Оплатить', exact: true }).click();
    await guest.waitForURL(`${baseURL}/b/${token}`);
    await visible(guest.getByText('заблокирован на вашей карте и не списан', { exact: false }));

    const owner = await openPage('/admin#today', 'phone');
    await signIn(owner);
    const deposits = owner.getByRole('region', { name: 'Залоги' });
    await visible(deposits);
    const item = deposits.locator('li', { hasText: 'Лейла Залогова' });
    await visible(item.getByText('Залог удерживается на карте', { exact: false }));
    await item.getByRole('button', { name: /Удержать …/ }).click();
    // More than the hold is refused in the form, with what was typed kept.
    await item.getByLabel(/Сколько удержать/).fill('6000');
    await item.getByLabel(/Причина/).fill(REASON);
    await item.getByRole('button', { name: 'Удержать', exact: true }).click();
    await visible(item.getByText('Удержать можно не больше залога', { exact: false }));
    expect(await item.getByLabel(/Причина/).inputValue()).toBe(REASON);
    await item.getByLabel(/Сколько удержать/).fill('1500');
    await item.getByRole('button', { name: 'Удержать', exact: true }).click();
    // The server asks ЮKassa to take the part, waiting up to its own 10 s for an answer.
    await noticed(owner, /Удержано 1\s500\s₽/, 25_000);
    await visible(item.getByText('Часть залога удержана', { exact: false }));
    expect(await axeViolations(owner, '#admin-main')).toEqual([]);

    const log = await readLog(yookassa);
    const held = log.payments.find((p) => p.description === `Залог, бронирование №${bookingId}`);
    expect(held).toMatchObject({ status: 'succeeded', amount: { value: '1500.00' } });

    await guest.reload();
    const text = await textOf(guest.getByRole('region', { name: 'Залог' }));
    expect(text).toContain(flat(`Из залога удержано 1 500 ₽: ${REASON}. Остальное вернулось на карту.`));
  });
});
