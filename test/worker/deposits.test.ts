import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { DEPOSIT_MSG } from '../../schema/deposits.ts';
import { formatPrice } from '../../schema/format.ts';
import { readLog } from '../../stand-ins/yookassa-api.ts';
import type { Bindings } from '../../worker/env.ts';
import { runSchedule } from '../../worker/scheduled.ts';
import {
  type Booked,
  callWith,
  expectError,
  jsonOf,
  login,
  resetDataWithAdmin,
  seedCabin,
  validBooking,
} from './helpers.ts';
import { ownShop, SHOP, standInControl, yk } from './yookassa-shop.ts';

// A deposit held on the guest's card (docs/api.md «Deposits»), on both runtimes, against the ЮKassa
// stand-in: the guest's page makes the hold (`capture: false`), the owner lets it go or keeps part of
// it (a capture with its receipt), and an undecided hold goes back by itself after departure. Of the
// owner's buttons and the schedule racing, exactly one decision reaches ЮKassa.

const call = callWith(SHOP);
const day = (n: number) => addDays(todayInMoscow(), n);
const DAY_MS = 86_400_000;

beforeEach(resetDataWithAdmin);
afterEach(() => vi.useRealTimers());

type GuestDeposit = { state: string; amount: number; canPay: boolean; kept: number | null; reason: string | null };

/** A confirmed stay in a cabin with a deposit of `deposit` roubles; its page's token. */
async function stay(cookie: string, deposit: number, checkIn: string, checkOut: string) {
  const cabin = await seedCabin({ pricePerNight: 5000, deposit });
  const booked = await jsonOf<Booked>(
    await call('POST', '/api/bookings', { body: validBooking(cabin.id, { checkIn, checkOut }) }),
    201,
  );
  await jsonOf(await call('PUT', `/api/admin/bookings/${booked.id}`, { cookie, body: { status: 'confirmed' } }), 200);
  return { id: booked.id, token: booked.guestUrl.slice(3) };
}

const guestDeposit = async (token: string) =>
  await jsonOf<{ deposit?: GuestDeposit; paid: number }>(await call('GET', `/api/guest/${token}`), 200);

/** The guest taps «Внести залог» and pays on ЮKassa's page: the hold stands. Its ЮKassa id. */
async function hold(token: string) {
  const { confirmationUrl } = await jsonOf<{ confirmationUrl: string }>(
    await call('POST', `/api/guest/${token}/deposit`, { body: {} }),
    200,
  );
  const id = confirmationUrl.split('/pay/')[1]!;
  expect((await fetch(`${yk.base}/_payments/${id}/succeed`, { method: 'POST' })).status).toBe(200);
  return id;
}

const keep = (cookie: string, id: number, body: unknown) =>
  call('POST', `/api/admin/bookings/${id}/deposit/keep`, { cookie, body });
const release = (cookie: string, id: number) => call('POST', `/api/admin/bookings/${id}/deposit/release`, { cookie });
const schedule = () =>
  runSchedule({ ...env, ...SHOP } as unknown as Bindings, { push: false, pull: false, upkeep: true });

describe('a deposit held on the guest’s card', () => {
  it('should hold it from the guest’s page, show it held, and let the owner keep 1 500 ₽ of it with a reason the guest reads', async () => {
    const cookie = await login();
    const { id, token } = await stay(cookie, 5000, day(1), day(3));
    const before = await guestDeposit(token);
    expect(before.deposit).toMatchObject({ state: 'asked', amount: 5000, canPay: true });

    const paymentId = await hold(token);
    const made = (await readLog(yk.base)).payments.find((p) => p.id === paymentId);
    expect(made).toMatchObject({ amount: { value: '5000.00' }, status: 'waiting_for_capture' });
    // ЮKassa's notification is read back, as for every payment: the hold stands.
    await jsonOf(
      await call('POST', '/api/payments/yookassa', {
        body: { type: 'notification', event: 'payment.waiting_for_capture', object: { id: paymentId } },
      }),
      200,
    );
    const held = await guestDeposit(token);
    expect(held.deposit).toMatchObject({ state: 'held', amount: 5000, canPay: false });
    // A deposit is not a payment of the stay: nothing counts as paid.
    expect(held.paid).toBe(0);
    await expectError(await call('POST', `/api/guest/${token}/deposit`, { body: {} }), 409, DEPOSIT_MSG.alreadyHeld);

    // More than the hold, or no reason: refused with the cause, nothing asked of ЮKassa.
    await expectError(
      await keep(cookie, id, { amount: 5001, reason: 'Разбита кружка' }),
      400,
      DEPOSIT_MSG.amountTooLarge.replace('{max}', formatPrice(5000)),
    );
    await expectError(await keep(cookie, id, { amount: 1500, reason: '  ' }), 400, DEPOSIT_MSG.reasonRequired);
    expect((await readLog(yk.base)).calls.filter((c) => c.path.includes(paymentId))).toEqual([]);

    const kept = await jsonOf<{ deposit: GuestDeposit }>(
      await keep(cookie, id, { amount: 1500, reason: 'Разбита кружка' }),
      200,
    );
    expect(kept.deposit).toMatchObject({ state: 'kept', kept: 1500, reason: 'Разбита кружка' });
    const log = await readLog(yk.base);
    expect(log.payments.find((p) => p.id === paymentId)).toMatchObject({
      status: 'succeeded',
      amount: { value: '1500.00' },
    });
    // The part kept has its 54-ФЗ receipt, naming why.
    const receipt = log.receipts.find((r) => r.kind === 'capture' && r.paymentId === paymentId)?.receipt as {
      items: { description: string; amount: { value: string } }[];
    };
    expect(receipt.items).toEqual([
      expect.objectContaining({
        description: 'Удержание из залога: Разбита кружка',
        amount: { value: '1500.00', currency: 'RUB' },
      }),
    ]);
    // Decided once: the other button is refused.
    await expectError(await release(cookie, id), 409, DEPOSIT_MSG.nothingHeld);
    const after = await guestDeposit(token);
    expect(after.deposit).toMatchObject({ state: 'kept', kept: 1500, reason: 'Разбита кружка' });
    expect(after.paid).toBe(0);
  });

  it('should let exactly one of «Вернуть залог», «Удержать …» and the schedule act when they race', async () => {
    const cookie = await login();
    const { id, token } = await stay(cookie, 3000, day(1), day(2));
    const paymentId = await hold(token);
    expect((await guestDeposit(token)).deposit?.state).toBe('held');
    // Two days after departure: the schedule would let it go by itself too.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 4 * DAY_MS);
    const owner = await login();
    const results = await Promise.all([
      release(owner, id),
      keep(owner, id, { amount: 1000, reason: 'Пятно на диване' }),
      release(owner, id),
      schedule(),
      schedule(),
      keep(owner, id, { amount: 2000, reason: 'Сломан стул' }),
    ]);
    const answered = results.filter((r): r is Response => r instanceof Response);
    const won = answered.filter((r) => r.status === 200);
    const lost = answered.filter((r) => r.status === 409);
    expect(won.length + lost.length).toBe(answered.length);
    const row = await env.DB.prepare('SELECT decision, decided_by, status FROM deposits WHERE id = ?')
      .bind(paymentId)
      .first<{ decision: string; decided_by: string; status: string }>();
    expect(row?.status).toBe(row?.decision === 'keep' ? 'succeeded' : 'canceled');
    expect(won.length).toBe(row?.decided_by === 'owner' ? 1 : 0);
    // ЮKassa was asked one thing only: one capture or one cancel, never both.
    const asked = (await readLog(yk.base)).calls.filter((c) => c.path.includes(paymentId));
    expect(new Set(asked.map((c) => c.path)).size).toBe(1);
    expect(new Set(asked.map((c) => c.key)).size).toBe(1);
  });

  it('should let an undecided hold go by itself two days after departure, and not before', async () => {
    const cookie = await login();
    const { token } = await stay(cookie, 2000, day(1), day(2));
    const paymentId = await hold(token);
    await schedule();
    expect((await guestDeposit(token)).deposit?.state).toBe('held');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 4 * DAY_MS);
    await schedule();
    await schedule();
    const row = await env.DB.prepare('SELECT status, decision, decided_by FROM deposits WHERE id = ?')
      .bind(paymentId)
      .first();
    expect(row).toEqual({ status: 'canceled', decision: 'release', decided_by: 'auto' });
    expect((await readLog(yk.base)).payments.find((p) => p.id === paymentId)?.status).toBe('canceled');
    expect((await readLog(yk.base)).calls.filter((c) => c.path.includes(paymentId))).toHaveLength(1);
  });

  it('should ask for it only from its day and for a stay a hold lasts, and tell the owner when the shop takes no holds', async () => {
    const cookie = await login();
    const early = await stay(cookie, 5000, day(10), day(12));
    expect((await guestDeposit(early.token)).deposit).toMatchObject({ state: 'asked', canPay: false });
    await expectError(
      await call('POST', `/api/guest/${early.token}/deposit`, { body: {} }),
      409,
      DEPOSIT_MSG.notYet.replace('{date}', day(9).split('-').reverse().join('.')),
    );
    // Arrival + stay + 2 days over ЮKassa's 7: no deposit is asked at all.
    const long = await stay(cookie, 5000, day(1), day(8));
    expect((await guestDeposit(long.token)).deposit).toBeUndefined();
    await expectError(await call('POST', `/api/guest/${long.token}/deposit`, { body: {} }), 409, DEPOSIT_MSG.none);
    // A shop without two-stage payments: the guest is told it is not their doing, nothing is kept.
    // It is a shop of this test's own: the stand-in is shared with the tests running beside it.
    const noHolds = await ownShop('no-holds');
    expect(await standInControl('/_holds', { shopId: noHolds.YOOKASSA_SHOP_ID, enabled: false })).toBe(200);
    const off = await stay(cookie, 4321, day(1), day(3));
    await expectError(
      await call('POST', `/api/guest/${off.token}/deposit`, { body: {}, bindings: noHolds }),
      502,
      DEPOSIT_MSG.guestHoldsOff,
    );
    expect((await env.DB.prepare('SELECT count(*) AS n FROM deposits').first<{ n: number }>())?.n).toBe(0);
  });

  it('should refuse a decision where nothing is held, and a booking with a deposit cannot be deleted', async () => {
    const cookie = await login();
    const { id, token } = await stay(cookie, 2500, day(1), day(3));
    await expectError(await release(cookie, id), 409, DEPOSIT_MSG.nothingHeld);
    await expectError(await keep(cookie, id, { amount: 100, reason: 'Ключ' }), 409, DEPOSIT_MSG.nothingHeld);
    await expectError(await release(cookie, 999_999), 404);
    await hold(token);
    expect((await call('DELETE', `/api/admin/bookings/${id}`, { cookie })).status).toBe(409);
  });
});
