import { env } from 'cloudflare:test';
import { readSheet } from 'read-excel-file/universal';
import { beforeEach, describe, expect, it } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import type { Bindings } from '../../worker/env.ts';
import { runSchedule } from '../../worker/scheduled.ts';
import {
  expectError,
  expectNoChange,
  jsonRequest,
  login,
  resetDataWithAdmin,
  seedCabin,
  seedUser,
  send,
  validBooking,
  type Booked,
  jsonOf,
  answerOf,
  client,
  putSeasons,
} from './helpers.ts';

// Records of money are kept for the tax office, on both runtimes: a booking with any payment
// (paid, pending, abandoned, refunded) is never deleted, by the owner or a manager; a cabin with
// bookings is only made inactive; the database refuses both even to SQL typed by hand; and the
// schedule's erasure of personal data leaves the money and ЮKassa's ids. Payments are written
// straight into the database as ЮKassa's re-read answers leave them.

beforeEach(resetDataWithAdmin);

const day = (n: number) => addDays(todayInMoscow(), n);

async function signIn() {
  await seedUser('menedzher', 'manager-pass-1');
  return { owner: await login(), manager: await login({ username: 'menedzher', password: 'manager-pass-1' }) };
}

/** A visitor's request for the cabin, moved to `status` as the owner or the payment would. */
async function booking(cabinId: number, status = 'new', overrides: Record<string, unknown> = {}): Promise<number> {
  const res = await jsonRequest('POST', '/api/bookings', validBooking(cabinId, overrides));
  const { id } = await jsonOf<Booked>(res, 201);
  await env.DB.prepare('UPDATE bookings SET status = ? WHERE id = ?').bind(status, id).run();
  return id;
}

type PaymentRow = {
  id: string;
  status: string;
  amount?: number;
  refundId?: string;
  refundStatus?: string;
  refundAmount?: number;
  refundReason?: string;
};
async function payment(bookingId: number, p: PaymentRow) {
  await env.DB.prepare(
    `INSERT INTO payments (id, booking_id, amount, status, refund_id, refund_status, refund_amount, refund_reason, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, '2026-05-01T09:00:00.000Z', '2026-05-01T09:00:00.000Z')`,
  )
    .bind(
      p.id,
      bookingId,
      p.amount ?? 750_000,
      p.status,
      p.refundId ?? null,
      p.refundStatus ?? null,
      p.refundAmount ?? null,
      p.refundReason ?? null,
    )
    .run();
}

const remove = (cookie: string, id: number) => send('DELETE', `/api/admin/bookings/${id}`, { cookie });
const bookingIds = async () =>
  (await env.DB.prepare('SELECT id FROM bookings ORDER BY id').all<{ id: number }>()).results.map((r) => r.id);
const paymentsOf = async (id: number) =>
  (await env.DB.prepare('SELECT id, amount, status FROM payments WHERE booking_id = ? ORDER BY id').bind(id).all())
    .results;

/** The accountant's file of the bookings arriving on `checkIn`, as CSV lines without the heading. */
async function csvLines(cookie: string, checkIn: string) {
  const res = await send('GET', `/api/admin/reports/bookings.csv?from=${checkIn}&to=${checkIn}`, { cookie });
  expect(res.status).toBe(200);
  return (await res.text())
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .slice(1, -1);
}
async function xlsxRows(cookie: string, checkIn: string) {
  const res = await send('GET', `/api/admin/reports/bookings.xlsx?from=${checkIn}&to=${checkIn}`, { cookie });
  expect(res.status).toBe(200);
  return (await readSheet(await res.arrayBuffer())).slice(1);
}

describe('a booking with a payment is kept: DELETE /api/admin/bookings/:id', () => {
  it.each([
    ['a confirmed booking with its 7 500 ₽ prepayment paid', 'confirmed', [{ id: 'pay-paid', status: 'succeeded' }]],
    [
      'a hold whose payment is still pending on ЮKassa’s page',
      'awaiting_payment',
      [{ id: 'pay-pending', status: 'pending' }],
    ],
    ['a hold the guest never paid (its payment cancelled)', 'expired', [{ id: 'pay-abandoned', status: 'canceled' }]],
    [
      'a cancelled booking whose prepayment went back',
      'cancelled',
      [
        {
          id: 'pay-refunded',
          status: 'succeeded',
          refundId: 'refund-1',
          refundStatus: 'succeeded',
          refundReason: 'owner',
        },
      ],
    ],
    [
      'a cancelled booking with a refund written down but not yet sent',
      'cancelled',
      [{ id: 'pay-to-refund', status: 'succeeded', refundAmount: 600_000, refundReason: 'guest' }],
    ],
    [
      'a booking paid in two parts',
      'confirmed',
      [
        { id: 'pay-pre', status: 'succeeded' },
        { id: 'pay-rest', status: 'succeeded', amount: 1_000_000 },
      ],
    ],
  ] as const)(
    'should refuse to delete %s, to the owner and a manager alike, saying to cancel it, and change nothing',
    async (_, status, rows) => {
      const cabin = await seedCabin();
      const id = await booking(cabin.id, status);
      for (const p of rows) await payment(id, p);
      const { owner, manager } = await signIn();
      await expectNoChange(async () => {
        await expectError(await remove(owner, id), 409, MSG.bookingHasPayments);
        await expectError(await remove(manager, id), 409, MSG.bookingHasPayments);
      });
      expect(await paymentsOf(id)).toHaveLength(rows.length);
    },
  );

  it('should still list a paid booking someone tried to delete in «Заявки» and in the accountant’s CSV and XLSX, with ЮKassa’s id', async () => {
    const cabin = await seedCabin({ name: 'Домик у моря' });
    const id = await booking(cabin.id, 'confirmed');
    await payment(id, { id: 'pay-7500', status: 'succeeded' });
    const { owner, manager } = await signIn();
    expect((await remove(manager, id)).status).toBe(409);
    expect((await remove(owner, id)).status).toBe(409);

    const list = await answerOf(await client({ cookie: owner }).api.admin.bookings.$get({ query: {} }), 200);
    expect(list).toEqual([expect.objectContaining({ id, status: 'confirmed', paid: 750_000 })]);
    expect(await paymentsOf(id)).toEqual([{ id: 'pay-7500', amount: 750_000, status: 'succeeded' }]);
    const [line] = await csvLines(owner, day(60));
    expect(line).toMatch(
      new RegExp(`^${id};Подтверждена;Домик у моря;${day(60)};${day(63)};3;2;13500;0;7500;0;pay-7500;;WhatsApp;`),
    );
    expect((await xlsxRows(owner, day(60))).map((r) => [r[0], r[9], r[11]])).toEqual([[id, 7500, 'pay-7500']]);
  });

  it('should still delete a request nobody paid for (a spam request), with the guest’s personal data', async () => {
    const cabin = await seedCabin();
    const spam = await booking(cabin.id);
    const paid = await booking(cabin.id, 'confirmed', { checkIn: day(70), checkOut: day(72) });
    await payment(paid, { id: 'pay-kept', status: 'succeeded' });
    const { owner, manager } = await signIn();
    expect((await remove(manager, spam)).status).toBe(200);
    expect(await bookingIds()).toEqual([paid]);
    await expectError(await remove(owner, spam), 404, MSG.bookingNotFound);
    const declined = await booking(cabin.id, 'declined');
    expect((await remove(owner, declined)).status).toBe(200);
    expect(await bookingIds()).toEqual([paid]);
  });
});

describe('a cabin with bookings is made inactive, not deleted: DELETE /api/cabins/:id', () => {
  it.each([
    ['an unpaid request', false],
    ['a paid booking', true],
  ])('should refuse to delete a cabin with %s, saying to make it inactive, and change nothing', async (_, paid) => {
    const cabin = await seedCabin();
    const id = await booking(cabin.id, paid ? 'confirmed' : 'declined');
    if (paid) await payment(id, { id: 'pay-cabin', status: 'succeeded' });
    const { owner, manager } = await signIn();
    expect(
      (
        await putSeasons(owner, cabin.id, {
          seasons: [{ start: day(10), end: day(20), pricePerNight: 8000, minNights: 2 }],
        })
      ).status,
    ).toBe(200);
    await expectNoChange(async () => {
      await expectError(await send('DELETE', `/api/cabins/${cabin.id}`, { cookie: owner }), 409, MSG.cabinHasBookings);
      await expectError(
        await send('DELETE', `/api/cabins/${cabin.id}`, { cookie: manager }),
        409,
        MSG.cabinHasBookings,
      );
    });
    // What the message says to do instead works.
    const res = await jsonRequest('PUT', `/api/cabins/${cabin.id}`, { active: false }, { cookie: owner });
    expect(res.status).toBe(200);
    expect(await bookingIds()).toEqual([id]);
  });

  it('should still delete a cabin with no bookings, one whose only request was deleted too', async () => {
    const cabin = await seedCabin();
    const id = await booking(cabin.id);
    const owner = await login();
    expect((await send('DELETE', `/api/admin/bookings/${id}`, { cookie: owner })).status).toBe(200);
    expect((await send('DELETE', `/api/cabins/${cabin.id}`, { cookie: owner })).status).toBe(200);
    await expectError(await send('DELETE', `/api/cabins/${cabin.id}`, { cookie: owner }), 404, MSG.cabinNotFound);
  });
});

describe('the database itself keeps them, whatever SQL asks', () => {
  it('should refuse to delete a paid booking (its payment’s foreign key) and a cabin with bookings (a trigger)', async () => {
    const cabin = await seedCabin();
    const id = await booking(cabin.id, 'confirmed');
    await payment(id, { id: 'pay-sql', status: 'succeeded' });
    const unpaidCabin = await seedCabin({ name: 'Лесной домик' });
    await booking(unpaidCabin.id, 'new');
    await expectNoChange(async () => {
      await expect(env.DB.prepare('DELETE FROM bookings WHERE id = ?').bind(id).run()).rejects.toThrow(/FOREIGN KEY/i);
      await expect(env.DB.prepare('DELETE FROM cabins WHERE id = ?').bind(cabin.id).run()).rejects.toThrow(
        /cabin has bookings/,
      );
      await expect(env.DB.prepare('DELETE FROM cabins WHERE id = ?').bind(unpaidCabin.id).run()).rejects.toThrow(
        /cabin has bookings/,
      );
    });
  });
});

describe('personal data past its retention (152-ФЗ), money kept', () => {
  it('should erase the guest’s name, phone and e-mail on schedule and keep the dates, the total, the payments and ЮKassa’s ids, still in the accountant’s file', async () => {
    const cabin = await seedCabin({ name: 'Домик у моря' });
    const id = await booking(cabin.id, 'cancelled');
    // A stay of four years ago, paid, then cancelled with part of the prepayment returned.
    const asked = new Date(Date.now() - 4 * 365 * 86_400_000).toISOString();
    await env.DB.prepare(
      "UPDATE bookings SET created_at = ?, check_in = '2022-07-01', check_out = '2022-07-04' WHERE id = ?",
    )
      .bind(asked, id)
      .run();
    await payment(id, {
      id: 'pay-old',
      status: 'succeeded',
      refundId: 'refund-old',
      refundStatus: 'succeeded',
      refundAmount: 300_000,
      refundReason: 'guest',
    });
    const owner = await login();

    await runSchedule(env as unknown as Bindings, { push: false, pull: false, upkeep: true });

    const row = await env.DB.prepare(
      'SELECT name, phone, email, comment, check_in, check_out, total, status FROM bookings WHERE id = ?',
    )
      .bind(id)
      .first();
    expect(row).toEqual({
      name: '',
      phone: '',
      email: '',
      comment: '',
      check_in: '2022-07-01',
      check_out: '2022-07-04',
      total: 13500,
      status: 'cancelled',
    });
    expect(
      await env.DB.prepare('SELECT id, amount, status, refund_id, refund_amount FROM payments WHERE booking_id = ?')
        .bind(id)
        .all()
        .then((r) => r.results),
    ).toEqual([
      { id: 'pay-old', amount: 750_000, status: 'succeeded', refund_id: 'refund-old', refund_amount: 300_000 },
    ]);
    const [line] = await csvLines(owner, '2022-07-01');
    expect(line).toMatch(
      new RegExp(
        `^${id};Отменена;Домик у моря;2022-07-01;2022-07-04;3;2;13500;0;4500;3000;pay-old;refund-old;WhatsApp;;[^;]+;;;$`,
      ),
    );
    // Erased once: a paid booking whose data is gone is still not deletable.
    await expectError(await remove(owner, id), 409, MSG.bookingHasPayments);
  });
});
