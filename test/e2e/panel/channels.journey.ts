import type { InferResponseType } from 'hono/client';
import type { Locator } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { addDays, nightsBetween, todayInMoscow } from '../../../schema/dates.ts';
import { scheduledUrl } from '../../../scripts/lib/stack.ts';
import { formatGuests, formatNights, formatPrice, formatStayDates } from '../../../schema/format.ts';
import { addBookingAt, addChatAt, readPushed } from '../../../stand-ins/avito-api.ts';
import { type Api, bodyOf } from '../../typed-api.ts';
import { axeViolations } from '../axe.ts';
import { useBrowser } from '../browser.ts';
import { adminApi, checkPhoneLayout, gone, notice, openTab, signIn, visible } from '../admin/helpers.ts';

type ChannelsAnswer = InferResponseType<Api['admin']['channels']['$get'], 200>;
/** The stand-in's demo account (scripts/lib/stack.ts DEMO_AVITO). */
const DEMO = { clientId: 'demo-avito-client', clientSecret: 'demo-avito-secret', userId: 100500, item: 4000001 };
/** A listing of nobody's: Avito says so, and the cabin stays unlinked. */
const FOREIGN_ITEM = 3999999;
/** How long an answer that goes through Avito may take on a busy machine (the wait ends when it shows). */
const AVITO_PATIENCE_MS = 30_000;

/** Every control of «Площадки», on a phone. */
const TAB_CONTROLS = '.calendar-tab button, .calendar-tab input, .calendar-views a, .channel__more';

/** Text with every kind of space made one plain space. */
const plain = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, ' ');

async function control(avitoUrl: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${avitoUrl}/_control${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as unknown;
}

/** Waits for a text in a part of the page, and says what it showed instead. */
async function shows(where: Locator, text: string | RegExp, timeout = AVITO_PATIENCE_MS) {
  try {
    await visible(where.getByText(text), timeout);
  } catch (err) {
    const shown = await where.innerText().catch(() => '?');
    throw new Error(`no «${text}» within ${timeout / 1000} s; it shows «${plain(shown)}»`, { cause: err });
  }
}

describe('the owner keeps every channel in «Календарь» → «Площадки»', () => {
  const { baseURL, openPage } = useBrowser();
  const avitoUrl = inject('avitoUrl');
  const today = todayInMoscow();
  // A month ahead, clear of the demo's stays and of the other journeys' dates.
  const stay = { start: addDays(today, 45), end: addDays(today, 48) };
  const block = { start: addDays(today, 51), end: addDays(today, 53) };
  let cabin: ChannelsAnswer['cabins'][number] | undefined;
  let avitoBookingId: number | undefined;

  afterAll(async () => {
    // What the journey made goes, so the other journeys find the stack as it was.
    const api = await adminApi(baseURL);
    try {
      if (cabin) {
        await api.put(`/admin/cabins/${cabin.id}/channels`, { avitoItemId: null });
        const calendar = await api.client.admin.cabins[':id'].calendar.$get({ param: { id: String(cabin.id) } });
        const cal = await bodyOf(calendar, 200);
        for (const b of cal.blocks.filter((x) => x.note === 'Площадки: ремонт')) await api.del(`/admin/blocks/${b.id}`);
      }
      await api.del('/admin/channels/avito');
      if (avitoBookingId !== undefined)
        await control(avitoUrl, 'DELETE', `/items/${DEMO.item}/bookings/${avitoBookingId}`);
    } finally {
      await api.logout();
    }
  });

  it('should connect Avito, link a cabin, read an Avito booking into «Шахматка» and «Заявки» and send a block to Avito on a 360px phone', async () => {
    const api = await adminApi(baseURL);
    const before = await (await api.client.admin.channels.$get()).json();
    expect(before.avito.connected).toBe(false);
    cabin = before.cabins[0]!;
    const name = cabin.name;

    const page = await openPage('/admin#calendar', 'phone', { bypassCSP: true });
    await page.setViewportSize({ width: 360, height: 740 });
    await signIn(page);
    // «Площадки» is one tap beside «Шахматка».
    const views = page.getByRole('navigation', { name: 'Вид календаря' });
    await visible(page.getByRole('region', { name: 'Домики по дням' }));
    await views.getByRole('link', { name: 'Площадки' }).click();
    const account = page.getByRole('region', { name: 'Авито', exact: true });
    await visible(account);
    expect(await views.getByRole('link', { name: 'Площадки' }).getAttribute('aria-current')).toBe('page');
    expect(new URL(page.url()).hash).toBe('#calendar/channels');
    // Not connected yet: where the keys are, and the form.
    await shows(account, '«Для профессионалов» → «API»');
    const card = page.getByRole('article', { name, exact: true });
    await shows(card, 'Не связан: сначала подключите Авито выше.');
    await visible(card.getByRole('textbox', { name: `Наша ссылка для площадок «${name}»` }));
    expect(await card.getByRole('textbox', { name: `Наша ссылка для площадок «${name}»` }).inputValue()).toBe(
      cabin.exportUrl,
    );
    await checkPhoneLayout(page, TAB_CONTROLS);
    expect(await axeViolations(page)).toEqual([]);

    // A wrong secret: Avito's refusal beside the form, and what was typed stays.
    const secret = account.getByLabel('Client Secret', { exact: true });
    expect(await secret.getAttribute('type')).toBe('password');
    expect(await secret.getAttribute('autocomplete')).toBe('off');
    await account.getByLabel('Client ID', { exact: true }).fill(DEMO.clientId);
    await secret.fill('wrong-secret');
    await account.getByLabel('Номер профиля', { exact: true }).fill(String(DEMO.userId));
    await account.getByRole('button', { name: 'Подключить Авито' }).click();
    await shows(account.getByRole('alert'), 'Авито не приняло ключи: проверьте Client ID и Client Secret');
    expect(await account.getByLabel('Client ID', { exact: true }).inputValue()).toBe(DEMO.clientId);
    expect(await secret.inputValue()).toBe('wrong-secret');
    expect(await account.getByLabel('Номер профиля', { exact: true }).inputValue()).toBe(String(DEMO.userId));
    expect((await (await api.client.admin.channels.$get()).json()).avito.connected).toBe(false);

    // The right one: connected, the secret never shown but its last four characters.
    await secret.fill(DEMO.clientSecret);
    await account.getByRole('button', { name: 'Подключить Авито' }).click();
    await shows(account, `Подключено: профиль ${DEMO.userId}`);
    await shows(account, DEMO.clientId);
    await shows(account, `••••${DEMO.clientSecret.slice(-4)}`);
    expect(await page.locator('body').innerText()).not.toContain(DEMO.clientSecret);

    // A listing of someone else's: Avito's words in the cabin's card; the cabin stays unlinked.
    const item = card.getByLabel(`Номер объявления на Авито «${name}»`);
    await item.fill(String(FOREIGN_ITEM));
    await card.getByRole('button', { name: `Связать «${name}»` }).click();
    await shows(card.getByRole('alert'), `Авито не нашло объявление ${FOREIGN_ITEM} в этом аккаунте`);
    expect(await item.inputValue()).toBe(String(FOREIGN_ITEM));
    expect((await (await api.client.admin.channels.$get()).json()).cabins[0]!.avitoItemId).toBeNull();

    // The owner's own listing: linked, read and sent at once.
    await item.fill(String(DEMO.item));
    await card.getByRole('button', { name: `Связать «${name}»` }).click();
    await shows(card, `Объявление №${DEMO.item}`);
    await shows(card, /Брони прочитаны \d+ [а-я]+,? (в )?\d\d:\d\d \(мск\)/);
    await shows(card, /Даты и цены отправлены \d+ [а-я]+,? (в )?\d\d:\d\d \(мск\)/);
    await visible(notice(page, `Объявление №${DEMO.item} связано с «${name}»`));
    expect((await (await api.client.admin.channels.$get()).json()).cabins[0]!.avitoItemId).toBe(DEMO.item);

    // A guest books on Avito; «Синхронизировать сейчас» reads it.
    const booked = await addBookingAt(`${avitoUrl}/_control`, DEMO.item, {
      check_in: stay.start,
      check_out: stay.end,
      guest_count: 3,
      base_price: 15000,
      status: 'pending',
      contact: { name: 'Анна Петрова' },
    });
    avitoBookingId = booked.avito_booking_id;
    await page.getByRole('button', { name: 'Синхронизировать сейчас' }).click();
    const results = page.getByRole('list', { name: 'Итог синхронизации' });
    await visible(results, AVITO_PATIENCE_MS);
    const mine = results
      .getByRole('listitem')
      .filter({ hasText: `«${name}»` })
      .first();
    await shows(mine, 'Бронирований на Авито: 1');
    await shows(mine, /Авито: отправлено занятых периодов: \d+/);
    await shows(page.locator('.channels__results'), 'Двойных бронирований нет');
    await checkPhoneLayout(page, TAB_CONTROLS);
    expect(await axeViolations(page)).toEqual([]);
    const stays = await (await api.client.admin.channels.stays.$get()).json();
    expect(stays).toContainEqual(
      expect.objectContaining({
        cabinId: cabin.id,
        externalId: String(avitoBookingId),
        start: stay.start,
        end: stay.end,
        guests: 3,
        price: 15000,
        status: 'pending',
        guestName: 'Анна Петрова',
      }),
    );

    // «Шахматка»: an «Авито» bar on those nights, its guests and price in its name.
    await views.getByRole('link', { name: 'Шахматка' }).click();
    const chart = page.getByRole('region', { name: 'Домики по дням' });
    await visible(chart);
    // The stay is a month ahead: one tap forward shows it.
    await page.getByRole('button', { name: 'Месяц вперёд' }).click();
    await visible(chart.locator(`.occupancy__day[data-date="${stay.start}"]`));
    const bar = chart.locator('.occupancy__range-bar--channel').filter({ hasText: 'Авито' });
    await visible(bar);
    expect(await bar.count()).toBe(1);
    const label = plain((await bar.getAttribute('aria-label'))!);
    expect(label).toBe(
      plain(
        `«${name}»: С площадки: Авито, ${formatGuests(3)}, ${formatPrice(15000)}, ${formatStayDates(stay.start, stay.end)}`,
      ),
    );
    expect(label).not.toContain('Конфликт');
    // It covers exactly those nights.
    const first = (await chart.locator(`.occupancy__day[data-date="${stay.start}"]`).boundingBox())!;
    const last = (await chart.locator(`.occupancy__day[data-date="${addDays(stay.end, -1)}"]`).boundingBox())!;
    const box = (await bar.boundingBox())!;
    expect(Math.abs(box.x - first.x)).toBeLessThan(2);
    expect(Math.abs(box.x + box.width - (last.x + last.width))).toBeLessThan(2);
    await visible(page.getByRole('list', { name: 'Обозначения' }).getByText('Авито', { exact: true }));
    await visible(page.getByRole('list', { name: 'Обозначения' }).getByText('Конфликт: ночи заняты дважды'));

    // «Заявки» lists it among the bookings read from Avito.
    await openTab(page, 'Заявки');
    const fromAvito = page.getByRole('region', { name: 'Бронирования с Авито' });
    await visible(fromAvito);
    const row = fromAvito.getByRole('article', { name: `Авито · ${name}` });
    const text = plain(await row.innerText());
    for (const part of [
      formatStayDates(stay.start, stay.end),
      formatNights(nightsBetween(stay.start, stay.end)),
      formatGuests(3),
      formatPrice(15000),
      'не оплачено',
      'Анна Петрова',
      `№${avitoBookingId}`,
    ]) {
      expect(text).toContain(plain(part));
    }

    // Nights the owner closes in the panel reach Avito with the next sync.
    await page.evaluate((id) => (location.hash = `#calendar/${id}`), cabin.id);
    await visible(page.getByRole('heading', { name: 'Занятые даты' }));
    await page.getByLabel('Заезд (первая ночь)', { exact: true }).fill(block.start);
    await page.getByLabel('Выезд', { exact: true }).fill(block.end);
    await page.getByLabel('Заметка (видите только вы)', { exact: true }).fill('Площадки: ремонт');
    await page.getByRole('button', { name: 'Закрыть даты' }).click();
    await visible(page.getByRole('list', { name: 'Занятые даты' }).getByText('Закрыто вручную: Площадки: ремонт'));
    // The Avito booking shows there too, with where it came from.
    await visible(
      page
        .getByRole('list', { name: 'Занятые даты' })
        .getByText(`Бронирование на площадке: Авито, ${formatGuests(3)}, ${formatPrice(15000)}`),
    );
    await page.getByRole('button', { name: 'Все домики' }).click();
    await views.getByRole('link', { name: 'Площадки' }).click();
    await page.getByRole('button', { name: 'Синхронизировать сейчас' }).click();
    await shows(
      page
        .getByRole('list', { name: 'Итог синхронизации' })
        .getByRole('listitem')
        .filter({ hasText: `«${name}»` })
        .first(),
      /Авито: отправлено занятых периодов: \d+/,
    );
    const pushed = await readPushed(`${avitoUrl}/_control`, DEMO.item);
    expect(pushed.busy.last).toContainEqual(expect.objectContaining({ date_start: block.start, date_end: block.end }));
    // Avito's own booking is not sent back to it.
    expect(pushed.busy.last!.some((b) => b.date_start === stay.start)).toBe(false);

    // A guest writes in Avito's chat about the listing: the next minute's schedule brings the chat to
    // «Сообщения», with the cabin, and the owner answers it from there; the answer reaches Avito.
    const guestName = `Гость Авито ${crypto.randomUUID().slice(0, 4)}`;
    const chat = await addChatAt(`${avitoUrl}/_control`, { userId: DEMO.userId, itemId: DEMO.item, guestName });
    await control(avitoUrl, 'POST', `/chats/${chat.id}/messages`, { text: 'Здравствуйте! Свободно на выходные?' });
    await fetch(scheduledUrl(baseURL)).then((r) => r.body?.cancel());
    await openTab(page, 'Сообщения');
    const thread = page.locator('.threads__item', { hasText: guestName });
    await visible(thread, 15_000);
    await visible(thread.getByText('Авито', { exact: false }));
    await thread.click();
    await visible(page.getByText('Здравствуйте! Свободно на выходные?'));
    const answer = 'Добрый день! Да, свободно, бронируйте на Авито.';
    await page.getByLabel('Ответ гостю').fill(answer);
    await page.getByRole('button', { name: 'Отправить' }).click();
    await visible(page.locator('.chat__msg--out', { hasText: answer }).getByText('отправлено'), 20_000);
    expect(await axeViolations(page, '#admin-main')).toEqual([]);
    const onAvito = (await control(avitoUrl, 'GET', `/chats/${chat.id}`)) as { sent: { text: string }[] };
    expect(onAvito.sent.map((m) => m.text)).toContain(answer);
    // The other chats read meanwhile (the stand-in's demo one) are marked read: «Сообщения» is left
    // with no unread thread, as the other journeys expect it.
    for (const t of await (await api.client.admin.threads.$get({ query: { channel: 'avito', unread: '1' } })).json())
      await api.client.admin.threads[':id'].read.$post({ param: { id: String(t.id) } });
    await openTab(page, 'Календарь');
    await views.getByRole('link', { name: 'Площадки' }).click();

    // Unlinked, then disconnected, each after a confirmation; the listing number stays for later.
    await card.getByRole('button', { name: `Отвязать «${name}»` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Отвязать' }).click();
    await visible(notice(page, `Объявление Авито отвязано от «${name}»`));
    await shows(card, 'Не связан с объявлением.');
    expect((await (await api.client.admin.channels.stays.$get()).json()).some((s) => s.cabinId === cabin!.id)).toBe(
      false,
    );
    await account.getByRole('button', { name: 'Отключить' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Отключить Авито?' });
    await shows(dialog, 'Брони с Авито перестанут занимать даты на сайте, номера объявлений сохранятся.');
    await dialog.getByRole('button', { name: 'Отключить' }).click();
    await gone(dialog);
    await shows(account, 'Client Secret');
    await visible(account.getByRole('button', { name: 'Подключить Авито' }));
    expect((await (await api.client.admin.channels.$get()).json()).avito.connected).toBe(false);
    await api.logout();
    // Every answer that goes through Avito may take seconds on a busy machine.
  }, 150_000);
});
