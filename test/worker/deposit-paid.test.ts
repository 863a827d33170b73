import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { DEPOSIT_MSG } from '../../schema/deposits.ts';
import { GUEST_PAGE_MARKER } from '../../schema/guest-page.ts';
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
import { SHOP, yk } from './yookassa-shop.ts';

// A deposit paid and refunded after departure, where a hold cannot be used (docs/api.md
// «Deposits»), on both runtimes, against the ЮKassa stand-in: a stay too long for ЮKassa's 7-day
// hold, or a shop without holds, gets the owner's choice (no deposit, or one paid); the guest's
// page says which before paying; after departure «Вернуть залог» refunds it all, «Удержать …» all
// but the part kept, and the schedule refunds an undecided one 2 days after departure. Of the
// owner's buttons, the schedule and ЮKassa's notifications racing, exactly one refund is asked.

const call = callWith(SHOP);
const day = (n: number) => addDays(todayInMoscow(), n);
const DAY_MS = 86_400_000;

beforeEach(resetDataWithAdmin);
afterEach(() => vi.useRealTimers());

type GuestDeposit = {
  mode: string;
  state: string;
  amount: number;
  canPay: boolean;
  kept: number | null;
  reason: string | null;
  error: string | null;
  releaseOn: string | null;
};
type Row = {
  mode: string;
  status: string;
  decision: string | null;
  decided_by: string | null;
  kept_amount: number | null;
  reason: string | null;
  refund_id: string | null;
  refund_status: string | null;
  error: string | null;
};

const depositSettings = (cookie: string, deposit: { shopHolds: boolean; withoutHold: 'none' | 'paid' }) =>
  call('PUT', '/api/settings', { cookie, body: { deposit: { askDaysBefore: 1, ...deposit } } }).then((r) =>
    jsonOf(r, 200),
  );

/** A confirmed stay in a cabin with a deposit of `deposit` roubles; its page's token. */
async function stay(cookie: string, deposit: number, checkIn: string, checkOut: string) {
  const cabin = await seedCabin({ pricePerNight: 5000, deposit });
  const booked = await jsonOf<Booked>(
    await call('POST', '/api/bookings', { body: validBooking(cabin.id, { checkIn, checkOut }) }),
    201,
  );
  await jsonOf(await call('PUT', `/api/admin/bookings/${booked.id}`, { cookie, body: { status: 'confirmed' } }), 200);
  return { id: booked.id, token: booked.guestUrl.slice(3), url: booked.guestUrl };
}

const guestPage = async (token: string) =>
  await jsonOf<{ deposit?: GuestDeposit; paid: number }>(await call('GET', `/api/guest/${token}`), 200);

/** The page's HTML as the server fills it (a shell of its own: the node-api project has no built site). */
async function guestHtml(url: string) {
  const shell = `<!doctype html><main>${GUEST_PAGE_MARKER}</main>`;
  const assets = { fetch: async () => new Response(shell) } as unknown as Fetcher;
  const res = await call('GET', url, { bindings: { ...SHOP, ASSETS: assets } });
  expect(res.status).toBe(200);
  return (await res.text()).replace(/\u00a0/g, ' ');
}

/** The guest taps «Оплатить залог» and pays on ЮKassa's page: the deposit is charged. Its ЮKassa id. */
async function pay(token: string) {
  const { confirmationUrl } = await jsonOf<{ confirmationUrl: string }>(
    await call('POST', `/api/guest/${token}/deposit`, { body: {} }),
    200,
  );
  const id = confirmationUrl.split('/pay/')[1]!;
  expect((await fetch(`${yk.base}/_payments/${id}/succeed`, { method: 'POST' })).status).toBe(200);
  // Back on their page, the payment is read back from ЮKassa.
  await guestPage(token);
  return id;
}

const row = (id: string) =>
  env.DB.prepare(
    'SELECT mode, status, decision, decided_by, kept_amount, reason, refund_id, refund_status, error FROM deposits WHERE id = ?',
  )
    .bind(id)
    .first<Row>();
/** The refund requests the stand-in received for this payment, made or not. */
const refundCalls = async (paymentId: string) =>
  (await readLog(yk.base)).calls.filter((c) => c.path === '/refunds' && c.paymentId === paymentId);
const refundsMade = async (paymentId: string) =>
  (await readLog(yk.base)).refunds.filter((r) => r.payment_id === paymentId);
const notice = (event: string, object: { id: string; payment_id?: string }) =>
  call('POST', '/api/payments/yookassa', { body: { type: 'notification', event, object } });

const keep = (cookie: string, id: number, body: unknown) =>
  call('POST', `/api/admin/bookings/${id}/deposit/keep`, { cookie, body });
const release = (cookie: string, id: number) => call('POST', `/api/admin/bookings/${id}/deposit/release`, { cookie });
const schedule = () =>
  runSchedule({ ...env, ...SHOP } as unknown as Bindings, { push: false, pull: false, upkeep: true });
const failRefunds = (paymentId: string, fail: boolean) =>
  fetch(`${yk.base}/_fail-refunds`, { method: 'POST', body: JSON.stringify({ paymentId, fail }) });

describe('a deposit paid and refunded after departure, where a hold cannot be used', () => {
  it('should ask a 10-night stay nothing by default, and a paid deposit the card announces when the owner chooses one', async () => {
    const cookie = await login();
    const long = await stay(cookie, 5000, day(1), day(11));
    // Today's behaviour by default: too long for a hold, no deposit at all.
    expect((await guestPage(long.token)).deposit).toBeUndefined();
    await expectError(await call('POST', `/api/guest/${long.token}/deposit`, { body: {} }), 409, DEPOSIT_MSG.none);
    expect(await guestHtml(long.url)).not.toContain('Залог');

    await depositSettings(cookie, { shopHolds: true, withoutHold: 'paid' });
    expect((await guestPage(long.token)).deposit).toMatchObject({
      mode: 'paid',
      state: 'asked',
      amount: 5000,
      canPay: true,
    });
    // Told before paying: charged, and given back after departure.
    const html = await guestHtml(long.url);
    expect(html).toContain('Залог 5 000 ₽ списывается с карты и возвращается после выезда, в течение 2 дней.');
    expect(html).toContain('Оплатить залог 5 000 ₽');
    expect(html).not.toContain('не списывается');
    // A short stay still gets a hold, as before.
    const short = await stay(cookie, 3000, day(1), day(3));
    expect((await guestPage(short.token)).deposit).toMatchObject({ mode: 'hold', state: 'asked' });

    const paymentId = await pay(long.token);
    const log = await readLog(yk.base);
    // A normal payment, captured at once, with its 54-ФЗ receipt.
    expect(log.payments.find((p) => p.id === paymentId)).toMatchObject({
      capture: true,
      status: 'succeeded',
      amount: { value: '5000.00' },
    });
    expect(log.receipts.find((r) => r.kind === 'payment' && r.paymentId === paymentId)?.receipt).toMatchObject({
      items: [expect.objectContaining({ amount: { value: '5000.00', currency: 'RUB' } })],
    });
    await jsonOf(await notice('payment.succeeded', { id: paymentId }), 200);
    const paid = await guestPage(long.token);
    expect(paid.deposit).toMatchObject({
      mode: 'paid',
      state: 'held',
      amount: 5000,
      canPay: false,
      releaseOn: day(13),
    });
    // Not a payment of the stay: nothing counts it as paid.
    expect(paid.paid).toBe(0);
    expect(await guestHtml(long.url)).toContain(
      `Залог 5 000 ₽ оплачен. Он вернётся на карту после выезда, не позже ${day(13).split('-').reverse().slice(0, 2).join('.')}.`,
    );
    await expectError(
      await call('POST', `/api/guest/${long.token}/deposit`, { body: {} }),
      409,
      DEPOSIT_MSG.alreadyHeld,
    );
    // The panel shows it undecided, with the owner's two buttons; a booking with it is never deleted.
    const list = await jsonOf<{ id: number; deposit: GuestDeposit | null }[]>(
      await call('GET', '/api/admin/bookings', { cookie }),
      200,
    );
    expect(list.find((b) => b.id === long.id)?.deposit).toMatchObject({ mode: 'paid', state: 'held', amount: 5000 });
    expect((await call('DELETE', `/api/admin/bookings/${long.id}`, { cookie })).status).toBe(409);
    expect(await row(paymentId)).toMatchObject({ mode: 'paid', status: 'succeeded', decision: null, refund_id: null });
  });

  it('should make even a short stay a paid deposit in a shop without holds, and none where the owner chose none', async () => {
    const cookie = await login();
    await depositSettings(cookie, { shopHolds: false, withoutHold: 'none' });
    const none = await stay(cookie, 2000, day(1), day(3));
    expect((await guestPage(none.token)).deposit).toBeUndefined();

    await depositSettings(cookie, { shopHolds: false, withoutHold: 'paid' });
    const short = await stay(cookie, 2000, day(1), day(3));
    expect((await guestPage(short.token)).deposit).toMatchObject({ mode: 'paid', state: 'asked', canPay: true });
    const paymentId = await pay(short.token);
    expect((await readLog(yk.base)).payments.find((p) => p.id === paymentId)).toMatchObject({
      capture: true,
      status: 'succeeded',
    });
    expect((await guestPage(short.token)).deposit).toMatchObject({ mode: 'paid', state: 'held' });
    // Bad settings are refused in Russian, and change nothing.
    await expectError(
      await call('PUT', '/api/settings', {
        cookie,
        body: { deposit: { askDaysBefore: 1, shopHolds: false, withoutHold: 'sometimes' } },
      }),
      400,
      DEPOSIT_MSG.withoutHoldInvalid,
    );
    const saved = await jsonOf<{ deposit: unknown }>(await call('GET', '/api/admin/settings', { cookie }), 200);
    expect(saved.deposit).toEqual({ askDaysBefore: 1, shopHolds: false, withoutHold: 'paid' });
  });

  it('should refund it all on «Вернуть залог», once, with its receipt, and the guest reads it came back', async () => {
    const cookie = await login();
    await depositSettings(cookie, { shopHolds: true, withoutHold: 'paid' });
    const { id, token } = await stay(cookie, 5000, day(1), day(11));
    const paymentId = await pay(token);

    const answer = await jsonOf<{ deposit: GuestDeposit }>(await release(cookie, id), 200);
    expect(answer.deposit).toMatchObject({ mode: 'paid', state: 'released', amount: 5000, error: null });
    const made = await refundsMade(paymentId);
    expect(made.map((r) => r.amount.value)).toEqual(['5000.00']);
    const receipt = (await readLog(yk.base)).receipts.find((r) => r.kind === 'refund' && r.paymentId === paymentId);
    expect(receipt?.receipt).toMatchObject({
      items: [expect.objectContaining({ amount: { value: '5000.00', currency: 'RUB' } })],
    });
    expect(await row(paymentId)).toMatchObject({
      decision: 'release',
      decided_by: 'owner',
      refund_id: made[0]!.id,
      refund_status: 'succeeded',
    });
    // ЮKassa's notice of that refund changes nothing more; the other button and a second tap are refused.
    await jsonOf(await notice('refund.succeeded', { id: made[0]!.id, payment_id: paymentId }), 200);
    await expectError(await release(cookie, id), 409, DEPOSIT_MSG.decided);
    await expectError(await keep(cookie, id, { amount: 100, reason: 'Ключ' }), 409, DEPOSIT_MSG.decided);
    expect(await refundCalls(paymentId)).toHaveLength(1);
    const page = await guestPage(token);
    expect(page.deposit).toMatchObject({ state: 'released' });
    expect(page.paid).toBe(0);
  });

  it('should refund all but 1 500 ₽ kept with the reason the guest reads, and nothing when all of it is kept', async () => {
    const cookie = await login();
    await depositSettings(cookie, { shopHolds: true, withoutHold: 'paid' });
    const { id, token } = await stay(cookie, 5000, day(1), day(11));
    const paymentId = await pay(token);
    await expectError(await keep(cookie, id, { amount: 5001, reason: 'Разбита кружка' }), 400);
    expect(await refundCalls(paymentId)).toEqual([]);

    const kept = await jsonOf<{ deposit: GuestDeposit }>(
      await keep(cookie, id, { amount: 1500, reason: 'Разбита кружка' }),
      200,
    );
    expect(kept.deposit).toMatchObject({ mode: 'paid', state: 'kept', kept: 1500, reason: 'Разбита кружка' });
    expect((await refundsMade(paymentId)).map((r) => r.amount.value)).toEqual(['3500.00']);
    expect(await guestHtml(`/b/${token}`)).toContain(
      'Из залога удержано 1 500 ₽: Разбита кружка. Остальное вернулось на карту.',
    );
    expect(await row(paymentId)).toMatchObject({ decision: 'keep', kept_amount: 150000, refund_status: 'succeeded' });

    // All of it kept: nothing goes back, no refund is asked, the reason is recorded for the guest.
    const other = await stay(cookie, 2000, day(1), day(11));
    const otherId = await pay(other.token);
    const all = await jsonOf<{ deposit: GuestDeposit }>(
      await keep(cookie, other.id, { amount: 2000, reason: 'Сломана дверь' }),
      200,
    );
    expect(all.deposit).toMatchObject({ state: 'kept', kept: 2000, reason: 'Сломана дверь', error: null });
    await schedule();
    expect(await refundCalls(otherId)).toEqual([]);
    expect(await row(otherId)).toMatchObject({ decision: 'keep', kept_amount: 200000, refund_id: null });
    expect(await guestHtml(`/b/${other.token}`)).toContain('Залог 2 000 ₽ удержан: Сломана дверь.');
  });

  it('should refund an undecided one by itself two days after departure, and not before', async () => {
    const cookie = await login();
    await depositSettings(cookie, { shopHolds: true, withoutHold: 'paid' });
    const { id, token } = await stay(cookie, 4000, day(1), day(11));
    const paymentId = await pay(token);
    await schedule();
    expect(await refundCalls(paymentId)).toEqual([]);
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    // The day after departure: still not.
    vi.setSystemTime(start + 11 * DAY_MS);
    await schedule();
    expect(await refundCalls(paymentId)).toEqual([]);
    vi.setSystemTime(start + 13 * DAY_MS);
    // «Сегодня» keeps showing it, whatever its dates, while it waits for a decision.
    const owner = await login();
    const listed = async () =>
      (
        await jsonOf<{ deposits: { bookingId: number; mode: string; state: string }[] }>(
          await call('GET', '/api/admin/today', { cookie: owner }),
          200,
        )
      ).deposits.filter((d) => d.bookingId === id);
    expect(await listed()).toEqual([expect.objectContaining({ mode: 'paid', state: 'held' })]);
    await schedule();
    await schedule();
    expect(await listed()).toEqual([]);
    expect((await refundsMade(paymentId)).map((r) => r.amount.value)).toEqual(['4000.00']);
    expect(await refundCalls(paymentId)).toHaveLength(1);
    expect(await row(paymentId)).toMatchObject({ decision: 'release', decided_by: 'auto', refund_status: 'succeeded' });
  });

  it('should show the owner a refund ЮKassa does not take, with its cause, and make it once when ЮKassa is back', async () => {
    const cookie = await login();
    await depositSettings(cookie, { shopHolds: true, withoutHold: 'paid' });
    const { id, token } = await stay(cookie, 3000, day(1), day(11));
    const paymentId = await pay(token);
    await failRefunds(paymentId, true);
    try {
      const answer = await jsonOf<{ deposit: GuestDeposit }>(
        await keep(cookie, id, { amount: 1000, reason: 'Пятно на диване' }),
        200,
      );
      expect(answer.deposit).toMatchObject({
        state: 'failed',
        error: 'ЮKassa не ответила; мы повторим запрос сами',
        kept: 1000,
      });
      // The decision stands: the other button is refused, the panel keeps showing the cause.
      await expectError(await release(cookie, id), 409, DEPOSIT_MSG.decided);
      const list = await jsonOf<{ id: number; deposit: GuestDeposit | null }[]>(
        await call('GET', '/api/admin/bookings', { cookie }),
        200,
      );
      expect(list.find((b) => b.id === id)?.deposit).toMatchObject({ state: 'failed', error: answer.deposit.error });
      await schedule();
      expect(await refundsMade(paymentId)).toEqual([]);
    } finally {
      await failRefunds(paymentId, false);
    }
    // ЮKassa is back: the next run makes the refund of the rest, under the key the first ask had.
    await schedule();
    await schedule();
    expect((await refundsMade(paymentId)).map((r) => r.amount.value)).toEqual(['2000.00']);
    const keys = new Set((await refundCalls(paymentId)).map((c) => c.key));
    expect(keys).toEqual(new Set([`deposit-${paymentId}-refund`]));
    expect(await row(paymentId)).toMatchObject({ refund_status: 'succeeded', error: null });
    expect((await guestPage(token)).deposit).toMatchObject({ state: 'kept', kept: 1000, error: null });
  });

  it('should ask exactly one refund when the owner’s buttons, the schedule and ЮKassa’s notifications race', async () => {
    const cookie = await login();
    await depositSettings(cookie, { shopHolds: true, withoutHold: 'paid' });
    const { id, token } = await stay(cookie, 6000, day(1), day(11));
    const paymentId = await pay(token);
    // Two days after departure: the schedule would refund it by itself too.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 14 * DAY_MS);
    const owner = await login();
    const results = await Promise.all([
      release(owner, id),
      keep(owner, id, { amount: 1000, reason: 'Пятно на диване' }),
      notice('payment.succeeded', { id: paymentId }),
      schedule(),
      release(owner, id),
      schedule(),
      notice('payment.succeeded', { id: paymentId }),
      keep(owner, id, { amount: 2000, reason: 'Сломан стул' }),
    ]);
    const answered = results.filter((r): r is Response => r instanceof Response);
    const buttons = [answered[0]!, answered[1]!, answered[3]!, answered[5]!];
    expect(answered[2]!.status).toBe(200);
    expect(answered[4]!.status).toBe(200);
    const won = buttons.filter((r) => r.status === 200);
    expect(won.length + buttons.filter((r) => r.status === 409).length).toBe(buttons.length);
    const after = await row(paymentId);
    expect(won.length).toBe(after?.decided_by === 'owner' ? 1 : 0);
    // The refund's own notice, and the schedule again, while it stands done.
    const made = await refundsMade(paymentId);
    await Promise.all([
      ...made.map((r) => notice('refund.succeeded', { id: r.id, payment_id: paymentId })),
      schedule(),
      release(owner, id),
    ]);
    // One decision, one refund request, one refund: of all of it, or of all but the part kept.
    expect(await refundCalls(paymentId)).toHaveLength(1);
    expect(made).toHaveLength(1);
    expect(await refundsMade(paymentId)).toHaveLength(1);
    const back = after?.decision === 'release' ? 600000 : 600000 - (after?.kept_amount ?? 0);
    expect(made[0]!.amount.value).toBe(`${back / 100}.00`);
    expect(await row(paymentId)).toMatchObject({ refund_id: made[0]!.id, refund_status: 'succeeded' });
  });
});
