import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addDays, todayInMoscow } from '../../../schema/dates.ts';
import { quotedName } from '../../../schema/guest-page.ts';
import type { Availability } from '../../../site/lib/stay-picker.ts';
import { apiAt, bodyOf } from '../../typed-api.ts';
import { axeViolations } from '../axe.ts';
import { useBrowser } from '../browser.ts';
import { forgetBookingThrottle } from '../local-d1.ts';
import { adminApi, confirmBooked, visible } from '../admin/helpers.ts';
import { flat } from '../public/helpers.ts';

// Where the owner lets a guest move to any free cabin, the guest moves their stay, same dates, to
// another cabin from their page on a phone: asked about nights another guest has in their cabin,
// the page names the other cabin as free on them; «Домик» offers it, the page prices it (the same
// or less, so nothing to pay) and comes back with the new cabin; the old cabin's nights are free
// for every visitor and the new one's busy. The owner's rule is put back after, and the
// booking cancelled (a booking with money is never deleted).

type Cabin = { id: number; name: string };
const RUN = crypto.randomUUID().slice(0, 6);
const busyOn = async (baseURL: string, cabinId: number, checkIn: string, checkOut: string) =>
  ((await (await fetch(`${baseURL}/api/cabins/${cabinId}/availability`)).json()) as Availability).busy.some(
    (b) => b.start < checkOut && checkIn < b.end,
  );

describe('a guest moves the stay to another free cabin', () => {
  const { baseURL, openPage } = useBrowser();
  const yookassa = inject('yookassaUrl');
  let own: Cabin | undefined;
  let other: Cabin | undefined;
  let bookingId = 0;
  let token = '';
  let stay = { checkIn: '', checkOut: '' };
  let before: unknown;
  /** Nights another guest has in the own cabin and the other cabin has free: for «Свободно в эти даты». */
  let taken = { checkIn: '', checkOut: '' };
  let takenId = 0;

  /** A booking of these nights, paid on the stand-in or confirmed by the owner; undefined if refused. */
  const book = async (api: Awaited<ReturnType<typeof adminApi>>, cabinId: number, dates: typeof stay, n: number) => {
    const res = await apiAt(baseURL).bookings.$post({
      json: {
        cabinId,
        ...dates,
        guests: 2,
        name: 'Зарема Домикова',
        phone: '+7 928 555-62-62',
        email: `zarema-${n}-${RUN}@example.ru`,
        comment: '',
        channel: 'whatsapp',
        consent: true,
        website: '',
      },
    });
    // A minimum stay or a closed day refuses it.
    if (res.status !== 201) return undefined;
    const booked = await bodyOf(res, 201);
    await confirmBooked(baseURL, yookassa, booked, api);
    return booked;
  };
  const quoteStatus = async (dates: typeof stay, cabinId: number) => {
    const res = await fetch(
      `${baseURL}/api/guest/${token}/change?${new URLSearchParams({ ...dates, cabinId: String(cabinId) })}`,
    );
    return { status: res.status, due: res.ok ? ((await res.json()) as { due: number }).due : -1 };
  };

  beforeAll(async () => {
    await forgetBookingThrottle();
    const api = await adminApi(baseURL);
    before = ((await api.get('/admin/settings')).json as { changes: unknown }).changes;
    expect((await api.put('/settings', { changes: { allowedUntilDays: 3, anyCabin: true } })).status).toBe(200);
    const today = todayInMoscow();
    const cabins = (await (await fetch(`${baseURL}/api/cabins`)).json()) as Cabin[];
    // Two nights far ahead, clear of the demo's stays and the other journeys' dates, free in the
    // first cabin that has them; the cabin to move to is chosen once the guest's page can price it.
    search: for (let d = 120; d <= 160; d += 3) {
      const checkIn = addDays(today, d);
      const checkOut = addDays(checkIn, 2);
      for (const c of cabins) {
        if (await busyOn(baseURL, c.id, checkIn, checkOut)) continue;
        const booked = await book(api, c.id, { checkIn, checkOut }, 1);
        if (!booked) continue;
        own = c;
        stay = { checkIn, checkOut };
        bookingId = booked.id;
        token = booked.guestUrl.split('/b/')[1]!;
        break search;
      }
    }
    if (!own) throw new Error('no cabin free for 2 nights 120–160 days ahead');
    // The page's own offer: a cabin free on these dates for the same price or less.
    const page = (await (await fetch(`${baseURL}/api/guest/${token}`)).json()) as {
      status: string;
      change?: { cabins?: Cabin[] };
    };
    expect(page.status).toBe('confirmed');
    for (const c of page.change?.cabins ?? []) {
      if (c.id === own.id) continue;
      const q = await quoteStatus(stay, c.id);
      if (q.status === 200 && q.due === 0) {
        other = c;
        break;
      }
    }
    if (!other) throw new Error(`no cabin free on ${stay.checkIn} for the price of «${own.name}» or less`);
    // Two nights a little later that another guest takes in the own cabin while the other is free.
    for (let d = 4; d <= 16 && !takenId; d += 3) {
      const dates = { checkIn: addDays(stay.checkIn, d), checkOut: addDays(stay.checkIn, d + 2) };
      if ((await quoteStatus(dates, own.id)).status !== 200 || (await quoteStatus(dates, other.id)).status !== 200)
        continue;
      const booked = await book(api, own.id, dates, 2);
      if (!booked) continue;
      taken = dates;
      takenId = booked.id;
    }
    await api.logout();
    if (!takenId) throw new Error(`no nights after ${stay.checkIn} busy in «${own.name}» and free in «${other.name}»`);
  });

  afterAll(async () => {
    const api = await adminApi(baseURL);
    try {
      for (const id of [bookingId, takenId]) if (id) await api.put(`/admin/bookings/${id}`, { status: 'cancelled' });
      if (before) await api.put('/settings', { changes: before });
      // A setting saved rebuilds the public pages: the next journey starts on the site as it was.
      await api.waitPublished();
    } finally {
      await api.logout();
    }
  });

  it('should name the other cabin free on nights taken in the own, offer it in «Домик», move there with nothing to pay and show it', async () => {
    const guest = await openPage(`/b/${token}`, 'phone');
    const section = guest.getByRole('region', { name: 'Перенести даты' });
    await visible(section);
    const field = section.getByLabel('Домик');
    // Before the script: the booking's own cabin chosen, the other among the options.
    expect(await field.inputValue()).toBe(String(own!.id));
    expect(await field.locator(`option[value="${other!.id}"]`).count()).toBe(1);
    expect(await axeViolations(guest, 'main')).toEqual([]);
    await guest.locator('html[data-guest-ready]').waitFor({ state: 'attached', timeout: 15_000 });
    // Nights taken in the own cabin: the refusal, and the other cabin named as free on them.
    await section.getByLabel('Новый заезд').fill(taken.checkIn);
    await section.getByLabel('Новый выезд').fill(taken.checkOut);
    await section.getByRole('button', { name: 'Узнать стоимость' }).click();
    await visible(section.getByRole('alert').filter({ hasText: 'Эти даты уже заняты' }));
    const free = section.locator('.guest__free');
    await visible(free);
    expect(flat(await free.innerText())).toContain('Свободно в эти даты:');
    expect(await axeViolations(guest, 'main')).toEqual([]);
    await free.getByRole('button', { name: other!.name }).click();
    expect(await field.inputValue()).toBe(String(other!.id));
    await visible(section.getByRole('status'));
    expect(flat(await section.getByRole('status').innerText())).toContain(`Домик ${quotedName(other!.name)}.`);

    // The stay's own dates in the other cabin: the same price or less, nothing to pay.
    await section.getByLabel('Новый заезд').fill(stay.checkIn);
    await section.getByLabel('Новый выезд').fill(stay.checkOut);
    await field.selectOption(String(other!.id));
    await section.getByRole('button', { name: 'Узнать стоимость' }).click();
    const status = section.getByRole('status');
    await visible(status);
    const said = flat(await status.innerText());
    expect(said).toContain(`Домик ${quotedName(other!.name)}. Новая стоимость`);
    expect(said).not.toContain('Доплата');
    expect(await axeViolations(guest, 'main')).toEqual([]);
    await section.getByRole('button', { name: 'Перенести на эти даты' }).click();

    // The page as the server has it now: the new cabin at the top.
    await visible(guest.locator('.guest__stay').getByRole('link', { name: quotedName(other!.name) }));
    expect(await busyOn(baseURL, own!.id, stay.checkIn, stay.checkOut)).toBe(false);
    expect(await busyOn(baseURL, other!.id, stay.checkIn, stay.checkOut)).toBe(true);
    expect(await axeViolations(guest, 'main')).toEqual([]);
  });
});
