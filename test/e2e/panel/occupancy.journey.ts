import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { addDays, todayInMoscow } from '../../../schema/dates.ts';
import type { GuestMessagePlace } from '../../../schema/guest-message.ts';
import { guestReplyText } from '../../../site/lib/guest-reply.ts';
import { bodyOf } from '../../typed-api.ts';
import { useBrowser } from '../browser.ts';
import { adminApi, notice, signIn, visible } from '../admin/helpers.ts';

type Range = {
  start: string;
  end: string;
  kind: 'booking' | 'request' | 'block' | 'feed';
  label: string;
  bookingId?: number;
  blockId?: number;
};
type Occupancy = {
  from: string;
  days: number;
  cabins: { id: number; name: string; active: boolean; ranges: Range[] }[];
};
type Booking = {
  id: number;
  status: string;
  cabinName: string;
  name: string;
  phone: string;
  total: number;
  nights: number;
  guests: number;
  channel: string;
  checkIn: string;
  checkOut: string;
  guestToken: string | null;
};

/** The 360px phone of the issue. */
async function phone(page: Page) {
  await page.setViewportSize({ width: 360, height: 740 });
}

/** Controls under 44px, by what they say (targets a thumb must hit). */
const smallTargets = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    return [...document.querySelectorAll<HTMLElement>(sel)]
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && (box.height < 43.5 || box.width < 43.5))
      .map(({ el, box }) => `${el.getAttribute('aria-label') ?? el.textContent?.trim()} ${box.width}×${box.height}`);
  }, selector);

describe('the owner’s day on a phone: «Шахматка» and replies to guests', () => {
  const { baseURL, openPage } = useBrowser();
  const blocks: number[] = [];
  afterAll(async () => {
    // The nights the journey closed open again, so other journeys find them free.
    const api = await adminApi(baseURL);
    for (const id of blocks) await api.del(`/admin/blocks/${id}`);
    await api.logout();
  });

  it('should show every cabin against the days with the demo’s stay, request, block and feed, keep the names in view sideways, open a request in «Заявки» and close free nights', async () => {
    const api = await adminApi(baseURL);
    const today = todayInMoscow();
    const occupancy = (await api.get(`/admin/occupancy?from=${today}&days=31`)).json as Occupancy;
    const all = occupancy.cabins.flatMap((c) => c.ranges.map((r) => ({ cabin: c, r })));
    const of = (kind: Range['kind']) => all.find((x) => x.r.kind === kind)!;
    // The demo holds one of each within the month: a confirmed stay, a request, a block, a feed.
    const [booking, request, block, feed] = (['booking', 'request', 'block', 'feed'] as const).map(of);
    expect([booking, request, block, feed].every(Boolean)).toBe(true);

    const page = await openPage('/admin#calendar', 'phone');
    await phone(page);
    await signIn(page);
    const chart = page.getByRole('region', { name: 'Домики по дням' });
    await visible(chart);

    // Every cabin has its row, and each night shows what holds it.
    const nameOf = (c: { name: string }) => chart.locator(`a.occupancy__name[title="Календарь домика «${c.name}»"]`);
    for (const c of occupancy.cabins) await visible(nameOf(c));
    for (const { cabin, r } of [booking, request, block, feed]) {
      const bar = chart.locator(`.occupancy__range-bar--${r!.kind}`).filter({ hasText: r!.label || /./ });
      expect(await bar.count(), `${r!.kind} of «${cabin!.name}»`).toBeGreaterThan(0);
      expect(await bar.first().getAttribute('aria-label')).toContain(`«${cabin!.name}»`);
    }
    expect(await chart.locator('.occupancy__range-bar--booking').first().innerText()).toBe(booking!.r.label);
    expect(await chart.locator('.occupancy__range-bar--feed').first().innerText()).toBe(feed!.r.label);
    // The legend says which colour is which.
    const legend = page.getByRole('list', { name: 'Обозначения' });
    for (const word of ['Бронирование', 'Новая заявка', 'Закрыто вручную', 'Другая площадка', 'Свободно'])
      await visible(legend.getByText(word));

    // Each month's name stays inside its own columns: a month shown for a day or two (the chart
    // opened on its last days) had its name drawn over the next one's.
    const spills = await chart.locator('.occupancy__month').evaluateAll((cells) =>
      cells.flatMap((cell) => {
        const name = cell.querySelector('span')!.getBoundingClientRect();
        const own = cell.getBoundingClientRect();
        return name.right > own.right + 0.5 ? [`${cell.textContent}: ${name.right} > ${own.right}`] : [];
      }),
    );
    expect(spills).toEqual([]);

    // A thumb can hit every night, name and bar; the page itself never scrolls sideways.
    expect(
      await smallTargets(
        page,
        '.occupancy__free, .occupancy__name, a.occupancy__range-bar, button.occupancy__range-bar',
      ),
    ).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // Scrolled to the month's end, the names stay where they were, on top of the nights.
    const name = chart.locator('.occupancy__name').first();
    const before = (await name.boundingBox())!;
    await chart.evaluate((el) => (el.scrollLeft = el.scrollWidth));
    expect(await chart.evaluate((el) => el.scrollLeft)).toBeGreaterThan(600);
    const after = (await name.boundingBox())!;
    expect(after.x).toBe(before.x);
    expect(
      await name.evaluate((el) => {
        const box = el.getBoundingClientRect();
        return (
          document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2)?.closest('.occupancy__name') === el
        );
      }),
    ).toBe(true);

    // Two taps on free nights of a cabin with nothing in the window, then the note: they close.
    const quiet = occupancy.cabins.find((c) => c.active && c.ranges.length === 0)!;
    const [first, last] = [addDays(today, 7), addDays(today, 8)];
    const night = (date: string) =>
      chart.locator(`.occupancy__free[data-date="${date}"][aria-label^="«${quiet.name}»"]`);
    await night(first).click();
    expect(await night(first).getAttribute('aria-pressed')).toBe('true');
    await visible(page.getByText(/теперь нажмите последнюю ночь/));
    await night(last).click();
    const dialog = page.getByRole('dialog', { name: 'Закрыть даты?' });
    await visible(dialog);
    await dialog.getByLabel('Заметка (видите только вы)').fill('Ремонт бани');
    await dialog.getByRole('button', { name: 'Закрыть даты' }).click();
    await visible(notice(page, `Закрыто: «${quiet.name}»`));
    const closed = chart.locator('.occupancy__range-bar--block').filter({ hasText: 'Ремонт бани' });
    await visible(closed);
    expect(await closed.getAttribute('aria-label')).toContain(`«${quiet.name}»`);
    const cal = await bodyOf(
      await api.client.admin.cabins[':id'].calendar.$get({ param: { id: String(quiet.id) } }),
      200,
    );
    const made = cal.blocks.find((b) => b.note === 'Ремонт бани')!;
    blocks.push(made.id);
    expect([made.start, made.end]).toEqual([first, addDays(last, 1)]);

    // The request opens in «Заявки», brought into view and marked.
    await chart.locator('.occupancy__range-bar--request').first().click();
    await visible(page.getByRole('heading', { level: 2, name: 'Заявки' }));
    const card = page.locator('.booking-item--focused');
    await visible(card);
    expect(await card.locator('h3').innerText()).toContain(`№${request!.r.bookingId}`);
    // Scrolled to in the frame after the list shows (the demo's newer stays may list it below the fold until then).
    await expect
      .poll(
        () =>
          card.evaluate((el) => {
            const box = el.getBoundingClientRect();
            return box.bottom > 0 && box.top < window.innerHeight;
          }),
        // The list reads the bookings first: on two busy cores that took more than the default second.
        { timeout: 10_000 },
      )
      .toBe(true);
    // «Назад» returns to the chart; a cabin's name opens its own calendar.
    await page.goBack();
    await visible(chart);
    await nameOf(quiet).click();
    await visible(page.getByRole('heading', { name: 'Занятые даты' }));
    expect(await page.getByLabel('Домик', { exact: true }).inputValue()).toBe(String(quiet.id));
    await api.logout();
  });

  it('should offer a ready message to the guest in the channel they chose, with the stay, the total and, once confirmed, the check-in time and address', async () => {
    const api = await adminApi(baseURL);
    const list = (await api.get('/admin/bookings')).json as Booking[];
    const settings = (await api.get('/admin/settings')).json as GuestMessagePlace;
    await api.logout();
    // The demo's confirmed stay (the guest chose WhatsApp) and its request (a call).
    const confirmed = list.find((b) => b.status === 'confirmed' && b.channel === 'whatsapp' && b.phone)!;
    const waiting = list.find((b) => b.status === 'new' && b.channel === 'phone' && b.phone)!;

    const page = await openPage('/admin#bookings', 'phone');
    await phone(page);
    await signIn(page);
    // Exact: «№1» would also name the replies of requests №10–19.
    const reply = (id: number) => page.getByRole('region', { name: `Ответить гостю по заявке №${id}`, exact: true });
    await visible(reply(confirmed.id));

    const ways = reply(confirmed.id).getByRole('link');
    expect(await ways.first().textContent()).toMatch(/^\s*WhatsApp\s*выбрал гость\s*$/);
    const wa = new URL((await ways.first().getAttribute('href'))!);
    expect(wa.origin + wa.pathname).toBe(`https://wa.me/${confirmed.phone.replace(/\D/g, '').replace(/^8/, '7')}`);
    const text = wa.searchParams.get('text')!;
    // Once confirmed: the number, the stay, the total, the check-in time and the guest's page.
    expect(text).toBe(guestReplyText(confirmed, settings, baseURL));
    expect(text).toContain(`№${confirmed.id}`);
    expect(text).toContain(`Заезд с ${settings.checkInTime}`);
    expect(text).toContain(`${baseURL}/b/${confirmed.guestToken}`);
    // SMS carries the same text; Telegram and a call are there too.
    const sms = (await reply(confirmed.id).getByRole('link', { name: /SMS/ }).getAttribute('href'))!;
    expect(sms.startsWith('sms:+7')).toBe(true);
    expect(decodeURIComponent(sms.split('?body=')[1]!)).toBe(text);
    expect(
      await reply(confirmed.id)
        .getByRole('link', { name: /Telegram/ })
        .getAttribute('href'),
    ).toMatch(/^https:\/\/t\.me\/\+7\d{10}$/);
    expect(
      await reply(confirmed.id)
        .getByRole('link', { name: /Позвонить/ })
        .getAttribute('href'),
    ).toMatch(/^tel:\+7\d{10}$/);

    // A request not yet confirmed: the guest asked for a call, and the message promises nothing.
    const first = reply(waiting.id).getByRole('link').first();
    expect(await first.textContent()).toMatch(/^\s*Позвонить\s*выбрал гость\s*$/);
    const smsWaiting = decodeURIComponent(
      (await reply(waiting.id).getByRole('link', { name: /SMS/ }).getAttribute('href'))!.split('?body=')[1]!,
    );
    expect(smsWaiting).toContain(`Получили вашу заявку №${waiting.id}`);
    expect(smsWaiting).not.toContain('Заезд с');
    expect(await smallTargets(page, '.reply__way')).toEqual([]);
  });
});
