import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addDays, todayInMoscow } from '../../../schema/dates.ts';
import { formatStayDates } from '../../../schema/format.ts';
import { stayRules, type Availability } from '../../../site/lib/stay-picker.ts';
import { readPushed } from '../../../stand-ins/avito-api.ts';
import { readLog } from '../../../stand-ins/yookassa-api.ts';
import { axeViolations } from '../axe.ts';
import { useBrowser } from '../browser.ts';
import { forgetBookingThrottle } from '../local-d1.ts';
import { adminApi, visible, bookConfirmed } from '../admin/helpers.ts';
import { flat } from '../public/helpers.ts';

// A guest moves their stay two days later and one night longer from their page, on a phone: the
// page prices the new dates, the guest pays the difference on the stack's ЮKassa stand-in, comes
// back to the new dates, and the Avito stand-in receives the cabin's new busy nights at the next
// push. The cabin is linked to a listing of the stand-in's demo account for the journey and
// unlinked after; the booking is cancelled after (a booking with money is never deleted).

type Cabin = { id: number; name: string };
const RUN = crypto.randomUUID().slice(0, 6);
/** The stand-in's demo account (scripts/lib/stack.ts DEMO_AVITO), and a listing no other journey links. */
const DEMO = { clientId: 'demo-avito-client', clientSecret: 'demo-avito-secret', userId: 100500, item: 4000017 };

describe('a guest moves the dates of a stay and pays the difference', () => {
  const { baseURL, openPage } = useBrowser();
  const yookassa = inject('yookassaUrl');
  const avitoUrl = inject('avitoUrl');
  let cabin: Cabin;
  let bookingId = 0;
  let token = '';
  let from = { checkIn: '', checkOut: '' };
  let to = { checkIn: '', checkOut: '' };

  beforeAll(async () => {
    await forgetBookingThrottle();
    const today = todayInMoscow();
    const cabins = (await (await fetch(`${baseURL}/api/cabins`)).json()) as Cabin[];
    // Far ahead, clear of the demo's stays and of the other journeys' dates: 3 nights, and 4 nights
    // two days later, both free and long enough.
    search: for (const c of cabins) {
      const a = (await (await fetch(`${baseURL}/api/cabins/${c.id}/availability`)).json()) as Availability;
      for (let d = 75; d <= 110; d++) {
        const checkIn = addDays(today, d);
        const end = addDays(checkIn, 6);
        if (a.busy.some((b) => b.start < end && checkIn < b.end)) continue;
        const rules = stayRules(a);
        if (rules.quote(checkIn, addDays(checkIn, 3)).minNights > 3) continue;
        if (rules.quote(addDays(checkIn, 2), end).minNights > 4) continue;
        cabin = c;
        from = { checkIn, checkOut: addDays(checkIn, 3) };
        to = { checkIn: addDays(checkIn, 2), checkOut: end };
        break search;
      }
    }
    if (!cabin) throw new Error('no cabin free for 6 nights 75–110 days ahead');
    const api = await adminApi(baseURL);
    ({ id: bookingId, token } = await bookConfirmed(
      baseURL,
      yookassa,
      {
        cabinId: cabin.id,
        ...from,
        guests: 2,
        name: 'Тимур Переносов',
        phone: '+7 928 555-61-61',
        email: `timur-${RUN}@example.ru`,
        comment: '',
        channel: 'whatsapp',
        consent: true,
        website: '',
      },
      api,
    ));
    // Avito connected with the demo keys, and this cabin linked to a listing of its own.
    expect(
      (
        await api.put('/admin/channels/avito', {
          clientId: DEMO.clientId,
          clientSecret: DEMO.clientSecret,
          userId: DEMO.userId,
        })
      ).status,
    ).toBe(200);
    expect((await api.put(`/admin/cabins/${cabin.id}/channels`, { avitoItemId: DEMO.item })).status).toBe(200);
    await api.logout();
  });

  afterAll(async () => {
    const api = await adminApi(baseURL);
    try {
      if (cabin) await api.put(`/admin/cabins/${cabin.id}/channels`, { avitoItemId: null });
      await api.del('/admin/channels/avito');
      if (bookingId) await api.put(`/admin/bookings/${bookingId}`, { status: 'cancelled' });
    } finally {
      await api.logout();
    }
  });

  it('should move the stay two days later on the guest’s page, take the difference on ЮKassa’s page and send the new nights to Avito', async () => {
    const guest = await openPage(`/b/${token}`, 'phone');
    const section = guest.getByRole('region', { name: 'Перенести даты' });
    await visible(section);
    expect(flat(await section.innerText())).toContain('Перенести даты можно до');
    expect(await axeViolations(guest, 'main')).toEqual([]);
    await guest.locator('html[data-guest-ready]').waitFor({ state: 'attached', timeout: 15_000 });
    await section.getByLabel('Новый заезд').fill(to.checkIn);
    await section.getByLabel('Новый выезд').fill(to.checkOut);
    await section.getByRole('button', { name: 'Узнать стоимость' }).click();
    const status = section.getByRole('status');
    await visible(status);
    expect(flat(await status.innerText())).toMatch(/Новая стоимость .+ ₽\. Доплата .+ ₽\./);
    expect(await axeViolations(guest, 'main')).toEqual([]);
    await section.getByRole('button', { name: /^Перенести и доплатить/ }).click();

    // ЮKassa's page (the stand-in's): «Оплатить» pays the difference and sends the guest back.
    await guest.waitForURL(`${yookassa}/pay/**`);
    await guest.getByRole('button', { name: 'Оплатить', exact: true }).click();
    await guest.waitForURL(`${baseURL}/b/${token}`);
    await visible(guest.getByText(formatStayDates(to.checkIn, to.checkOut), { exact: false }));
    const paid = (await readLog(yookassa)).payments.find(
      (p) => p.description === `Доплата за перенос дат, бронирование №${bookingId}`,
    );
    expect(paid).toMatchObject({ status: 'succeeded' });

    // The old nights are free and the new ones busy for every visitor at once…
    const a = (await (await fetch(`${baseURL}/api/cabins/${cabin.id}/availability`)).json()) as Availability;
    expect(a.busy.some((b) => b.start < from.checkOut && from.checkIn < b.end && b.start < to.checkIn)).toBe(false);
    expect(a.busy.some((b) => b.start <= to.checkIn && to.checkOut <= b.end)).toBe(true);
    // …and Avito gets them at the next push (the minute's schedule; «Синхронизировать сейчас» here).
    const api = await adminApi(baseURL);
    try {
      expect((await api.post('/admin/channels/sync', {})).status).toBe(200);
    } finally {
      await api.logout();
    }
    const pushed = await readPushed(`${avitoUrl}/_control`, DEMO.item);
    // (A neighbour's stay may join the new nights into one period: the period covers them.)
    const periods = pushed.busy.last ?? [];
    expect(periods.some((b) => b.date_start <= to.checkIn && to.checkOut <= b.date_end)).toBe(true);
    expect(periods.some((b) => b.date_start <= from.checkIn && from.checkIn < b.date_end)).toBe(false);
  });
});
