import type { InferResponseType } from 'hono/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { formatLineAmount, formatPrice, formatStayDates } from '../../schema/format.ts';
import { GUEST_PAGE_DATA_ID, GUEST_PAGE_DAYS_AFTER_DEPARTURE, GUEST_PAGE_MARKER } from '../../schema/guest-page.ts';
import { MSG } from '../../schema/messages.ts';
import { formatKopecks } from '../../schema/payment-options.ts';
import type { Bindings } from '../../worker/env.ts';
import {
  type Api,
  type Booked,
  callWith,
  jsonOf,
  login,
  resetDataWithAdmin,
  seedCabin,
  validBooking,
} from './helpers.ts';
import { SHOP, yk } from './yookassa-shop.ts';
import { countingDb } from './stays.ts';

/**
 * GET /b/{token}, the guest's page, on both runtimes: the first HTML already holds the booking
 * (what a phone on a weak network shows before any script), the island's data beside it, and an
 * unknown or expired token gets the 404 page after the same reads. The node-api project has no
 * built site, so both runtimes are given a shell as small as the server's filling needs, and the
 * 404 page's heading and text as site/pages/404.astro marks them.
 */
const SHELL = `<!doctype html><title>Ваше бронирование</title><main><section class="container guest">${GUEST_PAGE_MARKER}</section></main><script type="module" src="/_astro/guest.js"></script>`;
const NOT_FOUND =
  '<!doctype html><title>Страница не найдена — Каспий</title><h1 data-nf-title>Страница не найдена</h1><p class="muted" data-nf-text>Похоже, ссылка устарела.</p>';
/** The site's files, and which of them the server read. */
function site() {
  const read: string[] = [];
  const fetch = async (input: URL | string | Request) => {
    const path = new URL(input instanceof Request ? input.url : input).pathname;
    read.push(path);
    if (path === '/shell/guest') return new Response(SHELL);
    if (path === '/404.html') return new Response(NOT_FOUND);
    return new Response('Not found', { status: 404 });
  };
  return { read, assets: { fetch } as unknown as Fetcher };
}

const call = callWith(SHOP);
const day = (n: number) => addDays(todayInMoscow(), n);
const flat = (s: string) => s.replace(/\s+/g, ' ');
/** The page's text as a reader sees it: tags gone, entities of the escaped texts read back. */
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };
const textOf = (html: string) =>
  flat(
    html
      .replace(/<script\b[\s\S]*?<\/script>/g, '')
      .replace(/<[^>]+>/g, ' ')
      .replace(/&(?:#(\d+)|(\w+));/g, (m, n, name) => (n ? String.fromCharCode(Number(n)) : (ENTITIES[name] ?? m))),
  );

async function openPage(path: string, bindings: Partial<Bindings> = {}) {
  const files = site();
  const res = await call('GET', path, { bindings: { ...SHOP, ...bindings, ASSETS: files.assets } });
  return { res, html: await res.text(), read: files.read };
}

beforeEach(resetDataWithAdmin);
afterEach(() => vi.useRealTimers());

describe("GET /b/{token}: the guest's page, whole in the first HTML", () => {
  it("should show the booking's number, status, every price line, what was paid and what is left, the way there and the terms before any script, with the island's data beside them", async () => {
    const cabin = await seedCabin({ pricePerNight: 5000, name: 'Домик у моря' });
    const cookie = await login();
    await jsonOf(
      await call('PUT', '/api/settings', {
        cookie,
        body: { bookingMode: 'prepayment', prepayment: { kind: 'percent', percent: 30 }, holdMinutes: 30 },
      }),
      200,
    );
    await jsonOf(
      await call('PUT', `/api/admin/cabins/${cabin.id}/instructions`, {
        cookie,
        body: { text: 'Ключ в сейфе у калитки, код 4512 </script><b>' },
      }),
      200,
    );
    const booked = await jsonOf<Booked>(
      await call('POST', '/api/bookings', { body: validBooking(cabin.id, { checkIn: day(30), checkOut: day(33) }) }),
      201,
    );
    const token = booked.guestUrl.slice(3);
    // Paid on ЮKassa's page, no notification yet: the page itself reads the payment back.
    const paymentId = booked.payment!.confirmationUrl.split('/pay/')[1]!;
    expect((await fetch(`${yk.base}/_payments/${paymentId}/succeed`, { method: 'POST' })).status).toBe(200);

    const { res, html } = await openPage(`/b/${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-robots-tag')).toContain('noindex');
    // No page gets the address with the token as its referrer: not another site (the map the guest
    // opens), nor the site's own pages, where a counter could read it.
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');

    const answer = await jsonOf<InferResponseType<Api['guest'][':token']['$get'], 200>>(
      await call('GET', `/api/guest/${token}`),
      200,
    );
    expect(answer).toMatchObject({ status: 'confirmed', paid: 450000, due: 1050000, canPay: true });
    const text = textOf(html);
    expect(text).toContain(`Бронирование №${booked.id}`);
    expect(text).toContain('Подтверждена');
    expect(text).toContain('Бронирование подтверждено');
    expect(text).toContain(flat(`«Домик у моря» : ${formatStayDates(day(30), day(33))}, 3 ночи, 2 гостя`));
    expect(answer.lines.length).toBeGreaterThan(0);
    for (const line of answer.lines) expect(text).toContain(flat(`${line.label} ${formatLineAmount(line.amount)}`));
    expect(text).toContain(flat(`Итого ${formatPrice(15000)}`));
    expect(text).toContain(flat(`Оплачено ${formatKopecks(450000)}`));
    expect(text).toContain(flat(`Осталось оплатить ${formatKopecks(1050000)}`));
    expect(text).toContain(flat(`Оплатить остаток ${formatKopecks(1050000)}`));
    expect(text).toContain('Адрес: Республика Дагестан, Каспийск, ул. Приморская, 12');
    expect(text).toContain('Ключ в сейфе у калитки, код 4512 </script><b>');
    expect(text).toContain('Отмена бесплатна не позднее чем за 7 дней до заезда');
    expect(html).toContain(`href="/api/guest/${token}/stay.ics"`);

    // The island's data: the API's answer, in a block no text can close early.
    const block = new RegExp(`<script type="application/json" id="${GUEST_PAGE_DATA_ID}">([\\s\\S]*?)</script>`).exec(
      html,
    );
    expect(block).not.toBeNull();
    expect(JSON.parse(block![1]!)).toEqual(answer);
    expect(html).not.toContain('код 4512 </script>');
    // Nothing on the page is loaded from another site.
    expect(html).not.toMatch(/\b(src|srcset)="(https?:)?\/\//);
  });

  it('should say a request waits for the owner and that the stay is cancelled, with what went back', async () => {
    const cabin = await seedCabin({ pricePerNight: 5000 });
    const booked = await jsonOf<Booked>(await call('POST', '/api/bookings', { body: validBooking(cabin.id) }), 201);
    const request = textOf((await openPage(booked.guestUrl)).html);
    expect(request).toContain('Заявка отправлена: ждёт подтверждения');
    expect(request).toContain(flat(`Осталось оплатить ${formatPrice(15000)}`));
    expect(request).toContain('Отменить бронирование');
    expect(request).not.toContain('Оплатить остаток');

    await jsonOf(await call('POST', `/api/guest/${booked.guestUrl.slice(3)}/cancel`, { body: {} }), 200);
    const cancelled = textOf((await openPage(booked.guestUrl)).html);
    expect(cancelled).toContain('Бронирование отменено. Денег к возврату нет.');
    expect(cancelled).not.toContain('Осталось оплатить');
    expect(cancelled).not.toContain('Отменить бронирование');
  });

  it('should answer the 404 page with no booking in it for a token it does not know or no longer serves, after the same reads as for one it does', async () => {
    const cabin = await seedCabin({ pricePerNight: 5000, name: 'Домик у моря' });
    const booked = await jsonOf<Booked>(
      await call('POST', '/api/bookings', { body: validBooking(cabin.id, { checkIn: day(5), checkOut: day(8) }) }),
      201,
    );
    const counted = countingDb();
    const known = await openPage(booked.guestUrl, counted.env);
    const knownTrips = counted.roundTrips;
    expect(known.res.status).toBe(200);

    const unknown = await openPage(`/b/${'0'.repeat(36)}`, counted.env);
    expect(counted.roundTrips - knownTrips, 'the reads of an unknown token').toBe(knownTrips);
    expect(unknown.read).toEqual(known.read);
    // Gone some weeks after departure: the same 404.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (9 + GUEST_PAGE_DAYS_AFTER_DEPARTURE) * 86_400_000);
    const expired = await openPage(booked.guestUrl);
    vi.useRealTimers();

    for (const { res, html } of [unknown, expired]) {
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-robots-tag')).toContain('noindex');
      expect(textOf(html)).toContain(
        `Бронирование не найдено ${MSG.guestPageNotFound}. Проверьте ссылку из письма или напишите нам.`,
      );
      for (const data of ['Домик у моря', `№${booked.id}`, GUEST_PAGE_DATA_ID, 'Стоимость и оплата'])
        expect(html).not.toContain(data);
    }
  });
});
