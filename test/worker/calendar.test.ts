import type { InferResponseType } from 'hono/client';
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import { parseFeed } from '../../worker/calendar/ical.ts';
import { getContentVersion } from '../../worker/queries/site-state.ts';
import {
  expectError,
  expectNoChange,
  jsonRequest,
  login,
  resetDataWithAdmin,
  seedCabin,
  send,
  type Api,
  answerOf,
  client,
  putSeasons,
} from './helpers.ts';

const day = (n: number) => addDays(todayInMoscow(), n);

beforeEach(resetDataWithAdmin);

type Availability = InferResponseType<Api['cabins'][':id']['availability']['$get'], 200>;

async function calendarOf(cookie: string, cabinId: number) {
  const res = await client({ cookie }).api.admin.cabins[':id'].calendar.$get({ param: { id: String(cabinId) } });
  return answerOf(res, 200);
}

describe('the visitor calendar: GET /api/cabins/:id/availability', () => {
  it('should give busy nights (merged, without names or sources), the seasons, the base price and minimum stay', async () => {
    const cabin = await seedCabin({ pricePerNight: 5000 });
    const cookie = await login();
    expect(
      (
        await putSeasons(cookie, cabin.id, {
          seasons: [{ start: day(30), end: day(60), pricePerNight: 8000, minNights: 3 }],
          minNights: 2,
        })
      ).status,
    ).toBe(200);
    for (const [start, end, note] of [
      [day(5), day(8), 'Звонок Ивана'],
      [day(8), day(10), 'Ремонт'],
      [day(20), day(21), ''],
    ] as const) {
      expect(
        (await jsonRequest('POST', `/api/admin/cabins/${cabin.id}/blocks`, { start, end, note }, { cookie })).status,
      ).toBe(201);
    }
    const res = await send('GET', `/api/cabins/${cabin.id}/availability`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    const text = await res.text();
    expect(text).not.toContain('Ивана');
    expect(text).not.toContain('Ремонт');
    const a = JSON.parse(text) as Availability;
    expect(a.from).toBe(todayInMoscow());
    expect(a.busy).toEqual([
      { start: day(5), end: day(10) },
      { start: day(20), end: day(21) },
    ]);
    expect(a.seasons).toEqual([
      {
        start: day(30),
        end: day(60),
        pricePerNight: 8000,
        minNights: 3,
        weekendPricePerNight: null,
        // No weekday closed, no longest stay: the season was saved without a rule of days.
        closedToArrival: [],
        closedToDeparture: [],
        maxNights: null,
      },
    ]);
    expect(a.pricePerNight).toBe(5000);
    expect(a.minNights).toBe(2);
  });

  it('should answer 404 for a missing or inactive cabin', async () => {
    const hidden = await seedCabin({ active: false });
    await expectError(await send('GET', `/api/cabins/${hidden.id}/availability`), 404, MSG.cabinNotFound);
    await expectError(await send('GET', '/api/cabins/987654/availability'), 404, MSG.cabinNotFound);
  });
});

describe('price ranges for the pages: GET /api/prices', () => {
  it('should give each active cabin its lowest and highest price over the seasons ahead, past seasons left out', async () => {
    const cabin = await seedCabin({ pricePerNight: 6000 });
    const plain = await seedCabin({ pricePerNight: 4000 });
    const hidden = await seedCabin({ active: false });
    const cookie = await login();
    const seasons = [
      { start: day(10), end: day(20), pricePerNight: 4500, minNights: 1 },
      { start: day(40), end: day(70), pricePerNight: 9000, minNights: 3 },
    ];
    expect((await jsonRequest('PUT', `/api/admin/cabins/${cabin.id}/seasons`, { seasons }, { cookie })).status).toBe(
      200,
    );
    const { prices } = await answerOf(await client().api.prices.$get(), 200);
    expect(prices.find((p) => p.cabinId === cabin.id)).toEqual({ cabinId: cabin.id, min: 4500, max: 9000 });
    expect(prices.find((p) => p.cabinId === plain.id)).toEqual({ cabinId: plain.id, min: 4000, max: 4000 });
    expect(prices.some((p) => p.cabinId === hidden.id)).toBe(false);
  });

  it('should count weekend prices and single dates ahead, so «от N ₽» never promises less than a night costs nor hides a cheaper one', async () => {
    const cabin = await seedCabin({ pricePerNight: 6000, weekendPricePerNight: 8000 });
    const cookie = await login();
    const seasons = [{ start: day(10), end: day(20), pricePerNight: 5000, minNights: 1, weekendPricePerNight: 7000 }];
    expect((await jsonRequest('PUT', `/api/admin/cabins/${cabin.id}/seasons`, { seasons }, { cookie })).status).toBe(
      200,
    );
    expect(
      (
        await jsonRequest(
          'PUT',
          `/api/admin/cabins/${cabin.id}/date-prices`,
          {
            prices: [
              { date: day(30), price: 12000 },
              { date: day(31), price: 3900 },
            ],
          },
          { cookie },
        )
      ).status,
    ).toBe(200);
    const { prices } = await answerOf(await client().api.prices.$get(), 200);
    expect(prices.find((p) => p.cabinId === cabin.id)).toEqual({ cabinId: cabin.id, min: 3900, max: 12000 });
  });
});

describe('the owner calendar', () => {
  it('should leave seasons that are over out of the calendar, so the list saves back as it was loaded', async () => {
    const cabin = await seedCabin();
    const cookie = await login();
    expect(
      (
        await putSeasons(cookie, cabin.id, {
          seasons: [{ start: day(10), end: day(20), pricePerNight: 7000, minNights: 2 }],
        })
      ).status,
    ).toBe(200);
    // A season that ended yesterday, as time leaves one behind.
    await env.DB.prepare(
      'INSERT INTO seasons (cabin_id, start, "end", price_per_night, min_nights) VALUES (?, ?, ?, 5000, 1)',
    )
      .bind(cabin.id, day(-30), day(0))
      .run();
    const cal = await calendarOf(cookie, cabin.id);
    expect(cal.seasons.map((s) => s.start)).toEqual([day(10)]);
    // Sent back exactly as loaded, each row with its id and cabinId.
    expect(Object.keys(cal.seasons[0]!)).toEqual(expect.arrayContaining(['id', 'cabinId']));
    expect((await putSeasons(cookie, cabin.id, { seasons: cal.seasons, minNights: cal.minNights })).status).toBe(200);
    const again = (await (
      await send('GET', `/api/admin/cabins/${cabin.id}/calendar`, { cookie })
    ).json()) as typeof cal;
    expect(
      again.seasons.map(({ start, end, pricePerNight, minNights }) => ({ start, end, pricePerNight, minNights })),
    ).toEqual([{ start: day(10), end: day(20), pricePerNight: 7000, minNights: 2 }]);
  });

  it("should keep a season's rows to its own cabin whatever cabinId the body carries", async () => {
    const [a, b] = [await seedCabin(), await seedCabin()];
    const cookie = await login();
    const season = { id: 999, cabinId: b.id, start: day(10), end: day(20), pricePerNight: 7000, minNights: 2 };
    expect(
      (await jsonRequest('PUT', `/api/admin/cabins/${a.id}/seasons`, { seasons: [season] }, { cookie })).status,
    ).toBe(200);
    expect((await calendarOf(cookie, a.id)).seasons).toHaveLength(1);
    expect((await calendarOf(cookie, b.id)).seasons).toHaveLength(0);
  });

  it('should show every busy range with its source and let the owner remove a block', async () => {
    const cabin = await seedCabin();
    const cookie = await login();
    const block = await answerOf(
      await client({ cookie }).api.admin.cabins[':id'].blocks.$post({
        param: { id: String(cabin.id) },
        json: { start: day(3), end: day(6), note: 'Бронь по телефону' },
      }),
      201,
    );
    expect((await calendarOf(cookie, cabin.id)).busy).toEqual([
      {
        start: day(3),
        end: day(6),
        source: 'block',
        id: block.id,
        label: 'Бронь по телефону',
        key: `block-${block.id}`,
      },
    ]);
    expect((await send('DELETE', `/api/admin/blocks/${block.id}`, { cookie })).status).toBe(200);
    expect((await calendarOf(cookie, cabin.id)).busy).toEqual([]);
    await expectError(await send('DELETE', `/api/admin/blocks/${block.id}`, { cookie }), 404, MSG.blockNotFound);
  });

  it('should publish the site after a season change (prices show), and not after a block (read live)', async () => {
    const cabin = await seedCabin();
    const cookie = await login();
    const v0 = await getContentVersion(env);
    expect(
      (await jsonRequest('POST', `/api/admin/cabins/${cabin.id}/blocks`, { start: day(3), end: day(6) }, { cookie }))
        .status,
    ).toBe(201);
    await new Promise((r) => setTimeout(r, 50));
    expect(await getContentVersion(env)).toBe(v0);
    expect(
      (await putSeasons(cookie, cabin.id, { seasons: [{ start: day(1), end: day(9), pricePerNight: 3000 }] })).status,
    ).toBe(200);
    for (let i = 0; i < 40 && (await getContentVersion(env)) === v0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await getContentVersion(env)).toBe(v0 + 1);
  });

  it.each([
    ['reversed dates', { start: day(10), end: day(5) }, MSG.dateRangeInvalid],
    ['equal dates', { start: day(10), end: day(10) }, MSG.dateRangeInvalid],
    ['dates in the past', { start: day(-10), end: day(-3) }, MSG.datePast],
    ['dates more than 18 months ahead', { start: day(600), end: day(603) }, MSG.dateTooFar],
    ['a date that does not exist', { start: '2027-02-29', end: '2027-03-02' }, MSG.dateInvalid],
    ['a date with a time', { start: `${day(3)}T00:00:00Z`, end: day(5) }, MSG.dateInvalid],
  ])('should refuse a block with %s (400) and change nothing', async (_, body, message) => {
    const cabin = await seedCabin();
    const cookie = await login();
    // The owner's form is told which field is wrong.
    const field = message === MSG.dateRangeInvalid || message === MSG.datePast ? 'Окончание' : 'Начало';
    await expectNoChange(async () =>
      expectError(
        await jsonRequest('POST', `/api/admin/cabins/${cabin.id}/blocks`, body, { cookie }),
        400,
        `${field}: ${message}`,
      ),
    );
  });

  it.each([
    [
      'overlapping seasons',
      [
        { start: day(10), end: day(20), pricePerNight: 5000 },
        { start: day(19), end: day(30), pricePerNight: 6000 },
      ],
      MSG.seasonsOverlap,
    ],
    ['a negative price', [{ start: day(10), end: day(20), pricePerNight: -1 }], MSG.seasonPriceInvalid],
    [
      'a minimum stay of 0 nights',
      [{ start: day(10), end: day(20), pricePerNight: 5000, minNights: 0 }],
      MSG.minNightsInvalid,
    ],
    ['reversed dates', [{ start: day(20), end: day(10), pricePerNight: 5000 }], MSG.dateRangeInvalid],
  ])('should refuse %s (400) and keep the seasons as they were', async (_, seasons, message) => {
    const cabin = await seedCabin();
    const cookie = await login();
    expect(
      (await putSeasons(cookie, cabin.id, { seasons: [{ start: day(1), end: day(5), pricePerNight: 4000 }] })).status,
    ).toBe(200);
    const field = (
      {
        [MSG.seasonPriceInvalid]: 'Сезон 1, цена за ночь',
        [MSG.minNightsInvalid]: 'Сезон 1, минимальный срок',
        [MSG.dateRangeInvalid]: 'Сезон 1, окончание',
      } as Record<string, string>
    )[message];
    // Which season and field is wrong; the overlap message names the seasons itself.
    await expectNoChange(async () =>
      expectError(
        await jsonRequest('PUT', `/api/admin/cabins/${cabin.id}/seasons`, { seasons }, { cookie }),
        400,
        field ? `${field}: ${message}` : message,
      ),
    );
  });

  it('should allow seasons that touch (one ends the day the next begins)', async () => {
    const cabin = await seedCabin();
    const cookie = await login();
    const seasons = [
      { start: day(10), end: day(20), pricePerNight: 5000 },
      { start: day(20), end: day(30), pricePerNight: 6000 },
    ];
    expect((await jsonRequest('PUT', `/api/admin/cabins/${cabin.id}/seasons`, { seasons }, { cookie })).status).toBe(
      200,
    );
  });

  it.each([
    ['a file: address', 'file:///etc/passwd', MSG.feedUrlInvalid],
    ['an ftp address', 'ftp://example.ru/cal.ics', MSG.feedUrlInvalid],
    ['a javascript: address', 'javascript:alert(1)', MSG.feedUrlInvalid],
    ['a private network address', 'http://192.168.1.10/cal.ics', MSG.feedUrlInternal],
    ['a link-local address (cloud metadata)', 'http://169.254.169.254/latest/meta-data', MSG.feedUrlInternal],
    ['an IPv6 unique local address', 'http://[fd00::1]/cal.ics', MSG.feedUrlInternal],
    ['a single-label host', 'http://intranet/cal.ics', MSG.feedUrlInternal],
  ])('should refuse a feed with %s (400) and change nothing', async (_, url, message) => {
    const cabin = await seedCabin();
    const cookie = await login();
    await expectNoChange(async () =>
      expectError(
        await jsonRequest(
          'PUT',
          `/api/admin/cabins/${cabin.id}/feeds`,
          { feeds: [{ name: 'Авито', url }] },
          { cookie },
        ),
        400,
        `Календарь 1, адрес: ${message}`,
      ),
    );
  });

  it("should keep a feed's last good import and show its error in Russian when a sync fails", async () => {
    const cabin = await seedCabin();
    const cookie = await login();
    // A feed saved while it worked, with its import; now its address answers nothing.
    const feed = await env.DB.prepare(
      "INSERT INTO calendar_feeds (cabin_id, name, url, event_count, last_success_at) VALUES (?, 'Суточно', 'https://sutochno.invalid/cal.ics', 1, '2026-01-01T00:00:00.000Z') RETURNING id",
    )
      .bind(cabin.id)
      .first<{ id: number }>();
    await env.DB.prepare(
      "INSERT INTO feed_events (feed_id, cabin_id, uid, start, end) VALUES (?, ?, 'x@sutochno', ?, ?)",
    )
      .bind(feed!.id, cabin.id, day(40), day(44))
      .run();
    const { results } = await answerOf(await client({ cookie }).api.admin['calendar-sync'].$post(), 200);
    expect(results).toHaveLength(1);
    expect(results[0]!.ok).toBe(false);
    expect(results[0]!.error).toMatch(/^(Не удалось загрузить календарь|Сервер календаря не ответил)/);
    const cal = await calendarOf(cookie, cabin.id);
    expect(cal.feeds[0]!.lastError).toBe(results[0]!.error);
    expect(cal.feeds[0]!.eventCount).toBe(1);
    expect(cal.busy).toEqual([
      {
        start: day(40),
        end: day(44),
        source: 'feed',
        id: expect.any(Number),
        label: 'Суточно',
        key: `feed-${feed!.id}-x@sutochno`,
        feedId: feed!.id,
      },
    ]);
  });
});

describe('the iCal export: GET /api/ical/{token}.ics', () => {
  it("should give the owner's busy nights as RFC 5545 all-day events without guest data, and round-trip through the import", async () => {
    const cabin = await seedCabin();
    const cookie = await login();
    await jsonRequest(
      'POST',
      `/api/admin/cabins/${cabin.id}/blocks`,
      { start: day(3), end: day(6), note: 'Иванов +7 900 000-00-00' },
      { cookie },
    );
    await jsonRequest('POST', `/api/admin/cabins/${cabin.id}/blocks`, { start: day(6), end: day(7) }, { cookie });
    // An imported event must not be exported back (platforms would echo each other).
    const feed = await env.DB.prepare(
      "INSERT INTO calendar_feeds (cabin_id, name, url) VALUES (?, 'Авито', 'https://avito.invalid/a.ics') RETURNING id",
    )
      .bind(cabin.id)
      .first<{ id: number }>();
    await env.DB.prepare("INSERT INTO feed_events (feed_id, cabin_id, uid, start, end) VALUES (?, ?, 'a@avito', ?, ?)")
      .bind(feed!.id, cabin.id, day(50), day(52))
      .run();

    const { exportUrl } = await calendarOf(cookie, cabin.id);
    const path = new URL(exportUrl).pathname;
    expect(path).toMatch(/^\/api\/ical\/[a-f0-9]{48}\.ics$/);
    const res = await send('GET', path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const ics = await res.text();
    expect(ics.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(ics).toContain('VERSION:2.0');
    expect(ics).toContain('PRODID:');
    expect(ics).toContain(`DTSTART;VALUE=DATE:${day(3).replaceAll('-', '')}`);
    expect(ics).toContain(`DTEND;VALUE=DATE:${day(6).replaceAll('-', '')}`);
    expect(ics).toContain('SUMMARY:Занято');
    expect(ics).not.toContain('Иванов');
    expect(ics).not.toContain('a@avito');
    expect(ics.split('\r\n').every((line) => new TextEncoder().encode(line).length <= 150)).toBe(true);
    const uids = [...ics.matchAll(/^UID:(.+)$/gm)].map((m) => m[1]);
    expect(uids).toHaveLength(2);
    // The same address gives the same UIDs (platforms update, not duplicate, events).
    expect([...(await (await send('GET', path)).text()).matchAll(/^UID:(.+)$/gm)].map((m) => m[1])).toEqual(uids);
    expect(parseFeed(ics, todayInMoscow(), day(365)).map(({ start, end }) => ({ start, end }))).toEqual([
      { start: day(3), end: day(6) },
      { start: day(6), end: day(7) },
    ]);

    const head = await send('HEAD', path);
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
  });

  it('should replace the secret address on request, the old one then answering 404', async () => {
    const cabin = await seedCabin();
    const cookie = await login();
    const before = new URL((await calendarOf(cookie, cabin.id)).exportUrl).pathname;
    const renewed = await answerOf(
      await client({ cookie }).api.admin.cabins[':id']['ical-token'].$post({ param: { id: String(cabin.id) } }),
      200,
    );
    const after = new URL(renewed.exportUrl).pathname;
    expect(after).not.toBe(before);
    await expectError(await send('GET', before), 404);
    expect((await send('GET', after)).status).toBe(200);
    await expectError(await send('GET', '/api/ical/not-a-token.ics'), 404);
  });
});

describe('calendar admin routes need a session', () => {
  it.each([
    ['GET', '/api/admin/cabins/1/calendar'],
    ['PUT', '/api/admin/cabins/1/seasons'],
    ['POST', '/api/admin/cabins/1/blocks'],
    ['DELETE', '/api/admin/blocks/1'],
    ['PUT', '/api/admin/cabins/1/feeds'],
    ['POST', '/api/admin/calendar-sync'],
    ['POST', '/api/admin/cabins/1/ical-token'],
  ])('should answer %s %s with 401 when signed out', async (method, path) => {
    await expectNoChange(async () =>
      expectError(await (method === 'GET' ? send(method, path) : jsonRequest(method, path, {})), 401, MSG.unauthorized),
    );
  });
});
