import { env } from 'cloudflare:test';
import type { InferResponseType } from 'hono/client';
import { readSheet } from 'read-excel-file/universal';
import { beforeEach, describe, expect, it } from 'vitest';
import { MSG } from '../../schema/messages.ts';
import type { PriceLine } from '../../schema/payment-options.ts';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { storeImport } from '../../worker/queries/calendar.ts';
import { replaceChannelStays } from '../../worker/queries/channels.ts';
import { reportSummary } from '../../worker/queries/reports.ts';
import { type Api, expectError, jsonOf, login, resetDataWithAdmin, seedCabin, seedUser, send } from './helpers.ts';
import { countingDb } from './stays.ts';

// The owner's numbers (docs/api.md «Reports»), on both runtimes: «Сводка»,
// the tourist-tax report and the accountant's files, from one set of stays seeded straight into
// the database (past dates, which no visitor could book any more): our bookings across a month
// boundary, a cancelled one with a partial refund, lines stored before lines had kinds, an Avito
// stay and imported nights.

beforeEach(resetDataWithAdmin);

const PERIOD = '?from=2025-06-01&to=2025-07-31';
const nights = (n: number, price: number): PriceLine => ({
  kind: 'nights',
  label: `${price} ₽ × ${n}`,
  amount: n * price,
});
const tax = (amount: number): PriceLine => ({ kind: 'tax', label: 'Туристический налог 2 %', amount });

type Seeded = { a: number; b: number; c: number; ids: Record<string, number> };

async function insertBooking(
  cabinId: number,
  checkIn: string,
  checkOut: string,
  status: string,
  lines: unknown[],
  createdAt: string,
  name = 'Анна Петрова',
) {
  const total = (lines as { amount: number }[]).reduce((s, l) => s + l.amount, 0);
  const n = (Date.parse(checkOut) - Date.parse(checkIn)) / 86_400_000;
  const row = await env.DB.prepare(
    `INSERT INTO bookings (cabin_id, check_in, check_out, nights, guests, total, name, phone, email, channel, status, lines, created_at, updated_at)
     VALUES (?, ?, ?, ?, 2, ?, ?, '+7 928 555-12-34', 'anna@example.ru', 'whatsapp', ?, ?, ?, ?) RETURNING id`,
  )
    .bind(cabinId, checkIn, checkOut, n, total, name, status, JSON.stringify(lines), createdAt, createdAt)
    .first<{ id: number }>();
  return row!.id;
}

async function insertPayment(
  id: string,
  bookingId: number,
  kopecks: number,
  status: string,
  refund?: { id: string; kopecks: number },
) {
  await env.DB.prepare(
    `INSERT INTO payments (id, booking_id, amount, status, kind, refund_id, refund_status, refund_amount, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'prepayment', ?, ?, ?, '2025-05-30T09:00:00.000Z', '2025-05-30T09:00:00.000Z')`,
  )
    .bind(id, bookingId, kopecks, status, refund?.id ?? null, refund ? 'succeeded' : null, refund?.kopecks ?? null)
    .run();
}

async function seed(): Promise<Seeded> {
  const a = (await seedCabin({ name: 'Домик у моря' })).id;
  const b = (await seedCabin({ name: 'Лесной домик' })).id;
  const c = (await seedCabin({ name: 'Старый домик', active: false })).id;
  const ids = {
    // Arrives before the period: one of its three nights (1 June) is in it, none of its money.
    early: await insertBooking(
      a,
      '2025-05-30',
      '2025-06-02',
      'confirmed',
      [nights(3, 5000), tax(300)],
      '2025-05-01T09:00:00.000Z',
    ),
    // Across the month boundary: two June nights, one in July; a discount the tax is charged after.
    cross: await insertBooking(
      a,
      '2025-06-29',
      '2025-07-02',
      'confirmed',
      [
        nights(3, 5000),
        { kind: 'discount', label: 'Скидка 3,3 %', amount: -500 },
        { kind: 'fee', label: 'Уборка', amount: 1500 },
        tax(290),
      ],
      '2025-05-30T09:00:00.000Z',
    ),
    // Asked for at 00:30 on 2 July in Moscow (21:30 UTC the day before): 8 days ahead, not 9.
    july: await insertBooking(
      a,
      '2025-07-10',
      '2025-07-14',
      'confirmed',
      [nights(4, 5000), tax(400)],
      '2025-07-01T21:30:00.000Z',
    ),
    // Lines stored before they had kinds: told apart by their label.
    old: await insertBooking(
      b,
      '2025-06-05',
      '2025-06-07',
      'confirmed',
      [
        { label: '4 000 ₽ × 2 ночи', amount: 8000 },
        { label: 'Уборка', amount: 1000 },
        { label: 'Туристический налог 2 %', amount: 200 },
      ],
      '2025-06-01T10:00:00.000Z',
    ),
    cancelled: await insertBooking(
      b,
      '2025-06-20',
      '2025-06-23',
      'cancelled',
      [nights(3, 4000), tax(240)],
      '2025-06-02T10:00:00.000Z',
      '=СУММ(1;2)',
    ),
    declined: await insertBooking(
      a,
      '2025-06-15',
      '2025-06-16',
      'declined',
      [nights(1, 5000)],
      '2025-06-03T10:00:00.000Z',
    ),
    lastYear: await insertBooking(
      b,
      '2024-06-10',
      '2024-06-13',
      'confirmed',
      [nights(3, 3000)],
      '2024-05-01T10:00:00.000Z',
    ),
  };
  await insertPayment('pay-cross-pre', ids.cross, 500_000, 'succeeded');
  await insertPayment('pay-cross-rest', ids.cross, 1_129_000, 'succeeded');
  await insertPayment('pay-july', ids.july, 2_040_000, 'succeeded');
  await insertPayment('pay-july-abandoned', ids.july, 2_040_000, 'canceled');
  await insertPayment('pay-cancelled', ids.cancelled, 300_000, 'succeeded', {
    id: 'refund-cancelled',
    kopecks: 150_000,
  });
  await insertPayment('pay-early', ids.early, 1_530_000, 'succeeded');
  await env.DB.prepare(
    `INSERT INTO channel_stays (cabin_id, channel, external_id, start, "end", guests, price, status, guest_name, updated_at)
     VALUES (?, 'avito', 'av-1', '2025-07-20', '2025-07-25', 2, 25000, 'active', 'Гость Авито', '2025-07-01T00:00:00.000Z')`,
  )
    .bind(b)
    .run();
  await feed(b, '2025-07-28', '2025-08-02');
  await feed(c, '2025-06-10', '2025-06-12');
  return { a, b, c, ids };
}

async function feed(cabinId: number, start: string, end: string) {
  const row = await env.DB.prepare(
    "INSERT INTO calendar_feeds (cabin_id, name, url) VALUES (?, 'Суточно', 'https://sutochno.invalid/cal.ics') RETURNING id",
  )
    .bind(cabinId)
    .first<{ id: number }>();
  await env.DB.prepare('INSERT INTO feed_events (feed_id, cabin_id, uid, start, "end") VALUES (?, ?, ?, ?, ?)')
    .bind(row!.id, cabinId, `${start}@x`, start, end)
    .run();
}

// What the routes answer, as the typed client knows them.
type Summary = InferResponseType<Api['admin']['reports']['summary']['$get'], 200>;
type TouristTax = InferResponseType<Api['admin']['reports']['tourist-tax']['$get'], 200>;
type OwnerBookings = InferResponseType<Api['admin']['bookings']['$get'], 200>;

/** The answer's JSON, once it is a 200. */
const json = <T>(res: Response) => jsonOf<T>(res, 200);

describe('GET /api/admin/reports/summary: «Сводка»', () => {
  it('should count occupancy, revenue, the price of a night, channels, lead time and cancellations as «Заявки» shows the same bookings', async () => {
    const { a, b, c } = await seed();
    const cookie = await login();
    const s = await json<Summary>(await send('GET', `/api/admin/reports/summary${PERIOD}`, { cookie }));

    // Two active cabins × 61 nights; sold: 8 in «Домик у моря», 11 in «Лесной домик» (the inactive one's 2 sold too, outside occupancy).
    expect(s).toMatchObject({
      from: '2025-06-01',
      to: '2025-07-31',
      cabins: 2,
      days: 61,
      nightsAvailable: 122,
      nightsSold: 21,
      occupancy: 0.1557,
    });
    expect(s.nightsByChannel).toEqual([
      { channel: 'site', name: 'Сайт', nights: 10 },
      { channel: 'avito', name: 'Авито', nights: 5 },
      { channel: 'feed', name: 'Суточно', nights: 6 },
    ]);
    // Confirmed arrivals: 16 290 + 20 400 + 9 200; paid over every succeeded payment, the refund taken off.
    expect(s.revenue).toEqual({ expected: 45_890, paid: 38_190, refunded: 1500 });
    // The confirmed arrivals' totals over their nights: 45 890 ₽ / 9.
    expect(s.adr).toBe(5099);
    expect(s.leadTimeDays).toBe(8);
    expect(s.cancellations).toEqual({ count: 1, share: 0.25 });
    expect(s.bookings).toBe(3);
    expect(s.byCabin).toEqual([
      {
        cabinId: a,
        name: 'Домик у моря',
        active: true,
        nights: 8,
        available: 61,
        occupancy: 0.1311,
        bookings: 2,
        revenue: 36_690,
        paid: 36_690,
      },
      {
        cabinId: b,
        name: 'Лесной домик',
        active: true,
        nights: 11,
        available: 61,
        occupancy: 0.1803,
        bookings: 1,
        revenue: 9200,
        paid: 1500,
      },
      {
        cabinId: c,
        name: 'Старый домик',
        active: false,
        nights: 2,
        available: 0,
        occupancy: null,
        bookings: 0,
        revenue: 0,
        paid: 0,
      },
    ]);
    expect(s.byMonth).toEqual([
      { month: '2025-06', nights: 5, available: 60, occupancy: 0.0833, revenue: 25_490, paid: 17_790 },
      { month: '2025-07', nights: 14, available: 62, occupancy: 0.2258, revenue: 20_400, paid: 20_400 },
    ]);
    expect(s.lastYear).toMatchObject({
      from: '2024-06-01',
      to: '2024-07-31',
      nightsSold: 3,
      occupancy: 0.0246,
      revenue: { expected: 9000, paid: 0, refunded: 0 },
      adr: 3000,
      leadTimeDays: 40,
      cancellations: { count: 0, share: 0 },
      nightsByChannel: [{ channel: 'site', name: 'Сайт', nights: 3 }],
    });

    // «Заявки» of the same bookings: the same money, to the kopeck.
    const list = await json<OwnerBookings>(await send('GET', '/api/admin/bookings', { cookie }));
    const inPeriod = list.filter((x) => x.checkIn >= '2025-06-01' && x.checkIn <= '2025-07-31');
    expect(inPeriod.reduce((sum, x) => sum + x.paid, 0)).toBe(s.revenue.paid * 100);
    expect(inPeriod.reduce((sum, x) => sum + x.refunded, 0)).toBe(s.revenue.refunded * 100);

    // A fixed number of grouped queries (the cabins, then two a period: nights, arrivals), however many bookings.
    const counted = countingDb();
    await reportSummary(counted.env, { from: '2025-06-01', to: '2025-07-31' });
    expect(counted.queries).toBe(5);
  });

  it('should count a stay entered after its guest arrived as booked on the day of arrival, not less than 0 days ahead', async () => {
    const { id: cabinId } = await seedCabin({ name: 'Домик у моря' });
    const stay = (checkIn: string, checkOut: string, createdAt: string) =>
      insertBooking(cabinId, checkIn, checkOut, 'confirmed', [nights(1, 5000)], createdAt);
    // Booked 3 days ahead; on the day itself; and two the owner entered 2 days after the guests came.
    await stay('2025-06-10', '2025-06-11', '2025-06-07T09:00:00.000Z');
    await stay('2025-06-20', '2025-06-21', '2025-06-20T08:00:00.000Z');
    await stay('2025-06-14', '2025-06-15', '2025-06-16T10:00:00.000Z');
    await stay('2025-06-25', '2025-06-26', '2025-06-27T08:00:00.000Z');
    // 3, 0, 0 and 0 days: the median is 0 (it read -1 days, the mean of -2 and 0).
    expect((await reportSummary(env, { from: '2025-06-01', to: '2025-06-30' })).leadTimeDays).toBe(0);
  });

  it('should keep counting the nights of stays a calendar or Avito stopped listing once they were over, and free only the nights to come', async () => {
    const { id: cabinId } = await seedCabin({ name: 'Домик у моря' });
    const row = await env.DB.prepare(
      "INSERT INTO calendar_feeds (cabin_id, name, url) VALUES (?, 'Суточно', 'https://sutochno.invalid/cal.ics') RETURNING id",
    )
      .bind(cabinId)
      .first<{ id: number }>();
    const feed = { id: row!.id, cabinId };
    const soon = { start: addDays(todayInMoscow(), 10), end: addDays(todayInMoscow(), 12) };
    const june = { uid: 'june@sutochno', start: '2025-06-10', end: '2025-06-13' };
    const avitoStay = (externalId: string, start: string, end: string) => ({
      externalId,
      start,
      end,
      guests: 2,
      price: 20_000,
      status: 'active',
      guestName: 'Гость Авито',
    });
    const channels = async () => (await reportSummary(env, { from: '2025-06-01', to: '2025-07-31' })).nightsByChannel;
    const stored = async (table: 'feed_events' | 'channel_stays') =>
      (await env.DB.prepare(`SELECT start, "end" FROM ${table} WHERE cabin_id = ? ORDER BY start`).bind(cabinId).all())
        .results;

    await storeImport(env, feed, [june, { uid: 'soon@sutochno', ...soon }]);
    await replaceChannelStays(env, cabinId, 'avito', [
      avitoStay('av-july', '2025-07-01', '2025-07-05'),
      avitoStay('av-soon', soon.start, soon.end),
    ]);
    const before = await channels();
    expect(before).toEqual([
      { channel: 'avito', name: 'Авито', nights: 4 },
      { channel: 'feed', name: 'Суточно', nights: 3 },
    ]);

    // Both answer with nothing now (the stays over are no longer listed; the one to come was cancelled).
    await storeImport(env, feed, []);
    await replaceChannelStays(env, cabinId, 'avito', []);
    expect(await channels()).toEqual(before);
    expect(await stored('feed_events')).toEqual([{ start: june.start, end: june.end }]);
    expect(await stored('channel_stays')).toEqual([{ start: '2025-07-01', end: '2025-07-05' }]);

    // A calendar that still lists the stay over does not count it twice.
    await storeImport(env, feed, [june]);
    expect(await channels()).toEqual(before);
  });

  it('should refuse a period past 3 years, an end before the start and a missing date with a Russian 400, to the owner and a manager alike', async () => {
    const cookie = await login();
    await expectError(
      await send('GET', '/api/admin/reports/summary?from=2025-01-01&to=2028-01-01', { cookie }),
      400,
      MSG.reportPeriodTooLong,
    );
    await expectError(
      await send('GET', '/api/admin/reports/tourist-tax?from=2025-07-01&to=2025-06-30', { cookie }),
      400,
      MSG.datesOrder,
    );
    await expectError(
      await send('GET', '/api/admin/reports/bookings.csv?from=2025-07-01', { cookie }),
      400,
      MSG.reportPeriodRequired,
    );
    await expectError(
      await send('GET', '/api/admin/reports/bookings.xlsx?from=2025-02-29&to=2025-03-01', { cookie }),
      400,
      MSG.dateInvalid,
    );
    // Exactly 3 years is allowed; a single day too.
    expect((await send('GET', '/api/admin/reports/summary?from=2025-01-01&to=2027-12-31', { cookie })).status).toBe(
      200,
    );
    expect((await send('GET', '/api/admin/reports/summary?from=2025-06-01&to=2025-06-01', { cookie })).status).toBe(
      200,
    );
  });
});

describe('GET /api/admin/reports/tourist-tax', () => {
  it('should spread each tax line over the months of its nights in whole roubles, by cabin, month and quarter', async () => {
    const { a, b } = await seed();
    const cookie = await login();
    const r = await json<TouristTax>(await send('GET', `/api/admin/reports/tourist-tax${PERIOD}`, { cookie }));
    // June: the early stay's last night (100 of 300), two of the crossing stay's three (193 of 290), the old-style stay (200).
    expect(r.months).toEqual([
      {
        month: '2025-06',
        nights: 5,
        taxable: 22_666,
        tax: 493,
        cabins: [
          { cabinId: a, name: 'Домик у моря', nights: 3, taxable: 14_666, tax: 293 },
          { cabinId: b, name: 'Лесной домик', nights: 2, taxable: 8000, tax: 200 },
        ],
      },
      {
        month: '2025-07',
        nights: 5,
        taxable: 24_834,
        tax: 497,
        cabins: [{ cabinId: a, name: 'Домик у моря', nights: 5, taxable: 24_834, tax: 497 }],
      },
    ]);
    expect(r.quarters.map((q) => [q.quarter, q.label, q.tax])).toEqual([
      ['2025-Q2', '2 кв. 2025', 493],
      ['2025-Q3', '3 кв. 2025', 497],
    ]);
    expect(r.total).toEqual({ nights: 10, taxable: 47_500, tax: 990 });

    // Over a period that holds whole stays, the total is the sum of their tax lines: 300 + 290 + 400 + 200.
    const year = await json<TouristTax>(
      await send('GET', '/api/admin/reports/tourist-tax?from=2025-01-01&to=2025-12-31', { cookie }),
    );
    expect(year.total.tax).toBe(1190);
    expect(year.months).toHaveLength(12);
    expect(year.quarters.map((q) => q.tax)).toEqual([0, 693, 497, 0]);
  });
});

describe('GET /api/admin/reports/bookings.csv|.xlsx: the accountant’s files', () => {
  it('should give the period’s bookings as CSV for Excel in Russian and as XLSX, with ЮKassa’s ids, to the owner only', async () => {
    const { ids } = await seed();
    // The visit one booking came from, as the booking card sent it.
    await env.DB.prepare('UPDATE bookings SET source = ? WHERE id = ?')
      .bind(JSON.stringify({ utmSource: 'vk', utmMedium: 'cpc', referrer: 'vk.com' }), ids.cross)
      .run();
    const cookie = await login();
    const csvRes = await send('GET', `/api/admin/reports/bookings.csv${PERIOD}`, { cookie });
    expect(csvRes.status).toBe(200);
    expect(csvRes.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csvRes.headers.get('content-disposition')).toBe('attachment; filename="bookings-2025-06-01-2025-07-31.csv"');
    const bytes = new Uint8Array(await csvRes.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes.slice(3)).split('\r\n');
    expect(lines[0]).toBe(
      '№;Статус;Домик;Заезд;Выезд;Ночей;Гостей;Сумма, ₽;Туристический налог, ₽;Оплачено, ₽;Возвращено, ₽;Платежи ЮKassa;Возвраты ЮKassa;Канал;Откуда;Создана;Гость;Телефон;E-mail',
    );
    // Arrivals in the period, any status, by arrival; the empty line after the last CRLF.
    expect(lines.slice(1, -1).map((l) => Number(l.split(';')[0]))).toEqual([
      ids.old,
      ids.declined,
      ids.cancelled,
      ids.cross,
      ids.july,
    ]);
    expect(lines.at(-1)).toBe('');
    const cross = lines.find((l) => l.startsWith(`${ids.cross};`))!;
    expect(cross).toMatch(/^\d+;Подтверждена;Домик у моря;2025-06-29;2025-07-02;3;2;16290;290;16290;0;/);
    expect(cross).toContain('pay-cross-pre');
    expect(cross).toContain('pay-cross-rest');
    expect(cross).toContain(";WhatsApp;vk · cpc;2025-05-30 12:00;Анна Петрова;'+7 928 555-12-34;anna@example.ru");
    // Kopecks with a decimal comma; a guest's «formula» is text behind an apostrophe, quoted for its «;».
    expect(lines.find((l) => l.startsWith(`${ids.cancelled};`))).toMatch(
      /;12240;240;1500;1500;pay-cancelled;refund-cancelled;WhatsApp;;2025-06-02 13:00;"'=СУММ\(1;2\)";/,
    );
    expect(lines.find((l) => l.startsWith(`${ids.july};`))).not.toContain('pay-july-abandoned');

    const xlsxRes = await send('GET', `/api/admin/reports/bookings.xlsx${PERIOD}`, { cookie });
    expect(xlsxRes.status).toBe(200);
    expect(xlsxRes.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(xlsxRes.headers.get('content-disposition')).toBe(
      'attachment; filename="bookings-2025-06-01-2025-07-31.xlsx"',
    );
    const rows = await readSheet(await xlsxRes.arrayBuffer());
    expect(rows[0]).toEqual(lines[0]!.split(';'));
    expect(rows.slice(1).map((r) => r[0])).toEqual([ids.old, ids.declined, ids.cancelled, ids.cross, ids.july]);
    const cancelledRow = rows.find((r) => r[0] === ids.cancelled)!;
    expect(cancelledRow.slice(1, 13)).toEqual([
      'Отменена',
      'Лесной домик',
      '2025-06-20',
      '2025-06-23',
      3,
      2,
      12_240,
      240,
      1500,
      1500,
      'pay-cancelled',
      'refund-cancelled',
    ]);
    // In a spreadsheet's own cell a formula-like name is only text: it stays as typed.
    expect(cancelledRow[16]).toBe('=СУММ(1;2)');

    // A manager reads the figures but not the guests' names and phones.
    await seedUser('manager', 'manager-password-1');
    const manager = await login({ username: 'manager', password: 'manager-password-1' });
    await expectError(
      await send('GET', `/api/admin/reports/bookings.csv${PERIOD}`, { cookie: manager }),
      403,
      MSG.forbidden,
    );
    await expectError(
      await send('GET', `/api/admin/reports/bookings.xlsx${PERIOD}`, { cookie: manager }),
      403,
      MSG.forbidden,
    );
    expect((await send('GET', `/api/admin/reports/summary${PERIOD}`, { cookie: manager })).status).toBe(200);
    expect((await send('GET', `/api/admin/reports/tourist-tax${PERIOD}`, { cookie: manager })).status).toBe(200);
  });
});
