// What ЮKassa's answer about one of our payments does (docs/architecture.md «Transitions»): one
// batch whose every write is conditional on the payment still being in the status this caller read
// it in, with the payment's own move last. ЮKassa's notifications, the guest's page and the return
// from the payment page all read payments back at once; of any number of them only the batch that
// still finds the old status acts, and with it its messages are kept. What the booking becomes is
// decided inside that batch from the booking as it is then, never from a copy read before:
// - a prepayment paid while its hold stands and its nights are free confirms the booking;
// - paid after the hold ran out, after a cancellation, with the nights taken meanwhile, or for a
//   booking already paid: the whole payment is written down to go back (refund_reason 'late'),
//   the hold ends, and ЮKassa is asked for the refund after the batch;
// - a payment of the rest paid while the booking stands is kept; paid after it ended, it goes back;
// - a date change's difference paid while its hold stands, the booking as it was and the new nights
//   free moves the booking to the new nights and ends the hold in the same batch; otherwise it goes back
//   and the old dates stand;
// - cancelled on ЮKassa's page: the hold ends and its nights are free.
import { sql, type SQL } from 'drizzle-orm';
import { guestMail } from '../../schema/guest-mail.ts';
import {
  bookings,
  dateChanges,
  payments,
  tasks,
  type Booking,
  type DateChange,
  type Payment,
} from '../../schema/tables.ts';
import type { Bindings } from '../env.ts';
import { getDb } from '../lib/db.ts';
import { balancePaidNotice, guestChangeNotice, lateBalanceNotice } from '../guest/notices.ts';
import { messageOrigin } from '../notify/guest.ts';
import { holdExpiredNotice, lateRefundGuestMail, lateRefundNotice, paidNotice } from '../notify/notices.ts';
import { nightsBusy, nowIso, ownNightsBusy, setConfirmationMail } from '../queries/bookings.ts';
import { paymentsInOrder } from '../queries/guest.ts';
import { changeOfPayment } from '../queries/date-changes.ts';
import { getCabin } from '../queries/cabins.ts';
import { getSettings } from '../queries/settings.ts';
import { moneyOf } from '../payments/refunds.ts';
import type { Settings } from '../../schema/settings.ts';
import { telegramGuestText } from '../../schema/telegram.ts';
import { keepWhen, reachOf, sendKept, statementsOf, type KeptMessages, type Message, type Reach } from './messages.ts';
import { releasePromoWhen } from './promo.ts';

/** What the answer did: confirmed the booking, paid the rest, is to be refunded, ended the hold, or nothing (someone else acted, or nothing moved). */
export type Settled =
  | { outcome: 'confirmed'; booking: Booking; payment: Payment }
  | { outcome: 'paid'; booking: Booking; payment: Payment }
  | { outcome: 'refund'; booking: Booking; payment: Payment }
  | { outcome: 'expired'; booking: Booking; payment: Payment }
  | { outcome: 'moved'; payment: Payment }
  | { outcome: 'unchanged' };

/** The messages the batch kept, to be tried at once by the caller after its answer. */
export type SettleResult = { settled: Settled; send: () => Promise<void> };

const NOTHING: SettleResult = { settled: { outcome: 'unchanged' }, send: async () => {} };

type Context = {
  booking: Booking;
  cabinName: string;
  settings: Settings;
  reach: Reach;
  siteUrl?: string;
  origin?: string;
};

/** The payment is still in the status this caller read it in: the one condition every write of the batch carries. */
const stillAt = (p: Payment): SQL =>
  sql`exists (select 1 from payments p where p.id = ${p.id} and p.status = ${p.status})`;
const bookingIs = (id: number, status: string): SQL =>
  sql`exists (select 1 from bookings b where b.id = ${id} and b.status = ${status})`;
/** The booking waits for this payment, its hold stands and its nights are free: a payment now confirms it. */
const confirmable = (id: number, at: string): SQL =>
  sql`exists (select 1 from bookings b where b.id = ${id} and b.status = 'awaiting_payment' and b.hold_until > ${at}
    and not ${ownNightsBusy('b')})`;

function confirmationMessages(ctx: Context, p: Payment): Message[] {
  const { booking: b, cabinName, settings } = ctx;
  const out: Message[] = [{ to: 'owner', notice: paidNotice(b, cabinName, p.amount, ctx.siteUrl) }];
  // A guest without an e-mail may still have tied a Telegram chat: the row by mail is left out then.
  if (b.guestToken && settings.messages.confirmation.enabled && ctx.origin) {
    const stay = { ...b, guestToken: b.guestToken, cabinName };
    const words = guestMail('confirmation', settings.messages, stay, ctx.origin);
    const telegram = telegramGuestText('confirmation', stay, ctx.origin);
    out.push({ to: 'guest', bookingId: b.id, kind: 'confirmation', recipient: b.email, ...words, telegram });
  } else if (b.email && settings.messages.confirmation.enabled && !ctx.origin) {
    console.error(
      `The confirmation e-mail of booking ${b.id} was not sent: SITE_URL is not set, and its link needs the site's address`,
    );
  }
  return out;
}

/** The owner's and the guest's words when a payment goes back by itself; `status` is the booking's after the batch. */
function lateMessages(ctx: Context, p: Payment, status: string): Message[] {
  const { booking: b, cabinName, settings } = ctx;
  const kind = p.kind === 'balance' || p.kind === 'change' ? p.kind : 'prepayment';
  const owner =
    kind !== 'prepayment'
      ? lateBalanceNotice(b, cabinName, p.amount, ctx.siteUrl)
      : lateRefundNotice(b, cabinName, p.amount, ctx.siteUrl);
  const guest = lateRefundGuestMail({ ...b, status }, cabinName, p.amount, settings.siteName, kind);
  return [
    { to: 'owner', notice: owner },
    {
      to: 'guest',
      bookingId: b.id,
      kind: 'refund',
      event: p.id,
      recipient: b.email,
      ...guest,
      ...(ctx.origin && b.guestToken
        ? { telegram: telegramGuestText('refund', { ...b, guestToken: b.guestToken, cabinName }, ctx.origin) }
        : {}),
    },
  ];
}

/**
 * The payment moves to paid, from the status it was read in; unless `kept` holds (its booking got
 * it), the whole of it is written down to go back, as a late payment.
 */
const paidMove = (env: Bindings, p: Payment, kept: SQL, at: string) =>
  getDb(env)
    .update(payments)
    .set({
      status: 'succeeded',
      refundAmount: sql`case when ${kept} then ${payments.refundAmount} else coalesce(${payments.refundAmount}, ${payments.amount}) end`,
      refundReason: sql`case when ${kept} then ${payments.refundReason} else coalesce(${payments.refundReason}, 'late') end`,
      updatedAt: at,
    })
    .where(sql`payments.id = ${p.id} and payments.status = ${p.status}`)
    .returning();

/** A prepayment read back as paid. */
function paidPrepayment(env: Bindings, ctx: Context, p: Payment) {
  const db = getDb(env);
  const at = nowIso();
  const b = ctx.booking;
  const moves = stillAt(p);
  const ok = confirmable(b.id, at);
  const waiting = bookingIs(b.id, 'awaiting_payment');
  // The status the booking will have when the payment goes back: a hold ends, anything else stays.
  const lateStatus = b.status === 'awaiting_payment' ? 'expired' : b.status;
  const confirmMsgs = keepWhen(env, sql`${moves} and ${ok}`, confirmationMessages(ctx, p), ctx.reach);
  const lateMsgs = keepWhen(env, sql`${moves} and not ${ok}`, lateMessages(ctx, p, lateStatus), ctx.reach);
  const writes = [
    releasePromoWhen(env, b.id, sql`${moves} and not ${ok} and ${waiting}`),
    db
      .update(bookings)
      .set({ status: 'expired', promoClaimed: false, updatedAt: at })
      .where(sql`bookings.id = ${b.id} and bookings.status = 'awaiting_payment' and ${moves} and not ${ok}`)
      .returning(),
    // The payment moves last; whether it goes back is decided on the booking as it is in this batch.
    paidMove(env, p, ok, at),
    db
      .update(bookings)
      .set({ status: 'confirmed', holdUntil: null, updatedAt: at })
      .where(
        sql`bookings.id = ${b.id} and ${ok} and exists (select 1 from payments p where p.id = ${p.id} and p.status = 'succeeded' and p.refund_amount is null and p.refund_id is null)`,
      )
      .returning(),
  ] as const;
  return { writes, kept: [confirmMsgs, lateMsgs] as const };
}

/**
 * A date change's difference read back as paid: the change applies while its hold stands, the
 * booking is still the confirmed stay it moves from and the new nights are free (the booking's own
 * old ones aside). Then, in this one batch, the payment is kept, the change becomes applied and the
 * booking takes the new nights, so its nights are never both free nor both taken. Otherwise the
 * payment goes back as a late one and the old dates stand.
 */
function paidChange(env: Bindings, ctx: Context, p: Payment, c: DateChange, toCabinName: string) {
  const db = getDb(env);
  const at = nowIso();
  const b = ctx.booking;
  const moves = stillAt(p);
  const applies = sql`exists (select 1 from date_changes c join bookings b on b.id = c.booking_id
    where c.payment_id = ${p.id} and c.status = 'awaiting_payment' and c.hold_until > ${at}
      and b.status = 'confirmed' and b.cabin_id = c.from_cabin_id and b.check_in = c.from_check_in
      and b.check_out = c.from_check_out and b.arrived_at is null and b.departed_on is null
      and not ${nightsBusy(sql`c.to_cabin_id`, sql`c.to_check_in`, sql`c.to_check_out`, sql`c.booking_id`)})`;
  const kept = sql`exists (select 1 from payments k where k.id = ${p.id} and k.status = 'succeeded'
    and k.refund_amount is null and k.refund_id is null)`;
  const moved = {
    ...b,
    cabinId: c.toCabinId,
    checkIn: c.toCheckIn,
    checkOut: c.toCheckOut,
    nights: c.nights,
    total: c.toTotal,
  };
  const from = { cabinName: ctx.cabinName, checkIn: c.fromCheckIn, checkOut: c.fromCheckOut, total: c.fromTotal };
  const changedMsgs = keepWhen(
    env,
    sql`${moves} and ${applies}`,
    [{ to: 'owner', notice: guestChangeNotice(moved, from, toCabinName, { paid: p.amount, refund: 0 }, ctx.siteUrl) }],
    ctx.reach,
  );
  const lateMsgs = keepWhen(env, sql`${moves} and not ${applies}`, lateMessages(ctx, p, b.status), ctx.reach);
  const change = (column: string) =>
    sql`(select ${sql.raw(`c.${column}`)} from date_changes c where c.payment_id = ${p.id})`;
  const writes = [
    paidMove(env, p, applies, at),
    db
      .update(dateChanges)
      .set({ status: sql`case when ${kept} then 'applied' else 'expired' end`, updatedAt: at })
      .where(sql`date_changes.payment_id = ${p.id} and date_changes.status = 'awaiting_payment'
        and exists (select 1 from payments k where k.id = ${p.id} and k.status = 'succeeded')`)
      .returning(),
    db
      .update(bookings)
      .set({
        cabinId: change('to_cabin_id'),
        checkIn: change('to_check_in'),
        checkOut: change('to_check_out'),
        nights: change('nights'),
        total: change('to_total'),
        lines: change('lines'),
        // A change written before its extras were kept leaves the booking's own.
        extras: sql`coalesce(${change('extras')}, bookings.extras)`,
        earlyCheckIn: sql`case when ${change('extras')} is null then bookings.early_check_in else ${change('early_check_in')} end`,
        lateCheckOut: sql`case when ${change('extras')} is null then bookings.late_check_out else ${change('late_check_out')} end`,
        updatedAt: at,
      })
      .where(
        sql`bookings.id = ${b.id} and ${kept} and exists (select 1 from date_changes c where c.payment_id = ${p.id}
          and c.status = 'applied' and c.updated_at = ${at} and c.from_cabin_id = bookings.cabin_id
          and c.from_check_in = bookings.check_in and c.from_check_out = bookings.check_out)`,
      )
      .returning(),
    // A cleaning not yet done follows the guest to another cabin.
    db
      .update(tasks)
      .set({ cabinId: c.toCabinId, updatedAt: at })
      .where(sql`tasks.booking_id = ${b.id} and tasks.done = 0 and exists (select 1 from bookings m where m.id = ${b.id}
        and m.cabin_id = ${c.toCabinId} and m.updated_at = ${at})`),
  ] as const;
  return { writes, kept: [changedMsgs, lateMsgs] as const };
}

/** Runs a batch of message inserts followed by the writes, and splits their results. */
async function run(env: Bindings, kept: readonly KeptMessages[], writes: readonly unknown[]) {
  const msgStatements = statementsOf(...kept);
  const all = [...msgStatements, ...writes] as unknown as Parameters<ReturnType<typeof getDb>['batch']>[0];
  const results = (await getDb(env).batch(all)) as unknown as unknown[];
  const byGroup: { id: number }[][][] = [];
  let i = 0;
  for (const k of kept) {
    byGroup.push(results.slice(i, i + k.statements.length) as { id: number }[][]);
    i += k.statements.length;
  }
  return { messageResults: byGroup, writes: results.slice(i) };
}

/**
 * Acts on ЮKassa's answer `status` about payment `p` (as read by this caller, with its booking),
 * in one batch. Answers what happened and a task that tries the kept messages at once.
 */
export async function settlePayment(
  env: Bindings,
  p: Payment,
  status: string,
  booking: Booking,
  cabinName: string,
): Promise<SettleResult> {
  if (status === p.status) return NOTHING;
  const settings = await getSettings(env);
  const reach = await reachOf(env);
  const ctx: Context = { booking, cabinName, settings, reach, siteUrl: env.SITE_URL, origin: messageOrigin(env) };
  const db = getDb(env);
  const at = nowIso();
  const moves = stillAt(p);

  let kept: readonly KeptMessages[] = [];
  let writes: readonly unknown[];
  let shape: 'prepayment' | 'balance' | 'change' | 'canceled' | 'other';
  const change = p.kind === 'change' ? await changeOfPayment(env, p.id) : undefined;
  if (status === 'succeeded' && p.kind === 'change' && change) {
    const toCabinName =
      change.toCabinId === booking.cabinId ? cabinName : ((await getCabin(env, change.toCabinId))?.name ?? '');
    ({ kept, writes } = paidChange(env, ctx, p, change, toCabinName));
    shape = 'change';
  } else if (status === 'succeeded' && p.kind === 'change') {
    // A difference paid for a change we have no record of: it goes back.
    kept = [keepWhen(env, moves, lateMessages(ctx, p, booking.status), reach)];
    writes = [paidMove(env, p, sql`0`, at)];
    shape = 'balance';
  } else if (status === 'succeeded' && p.kind !== 'balance') {
    ({ kept, writes } = paidPrepayment(env, ctx, p));
    shape = 'prepayment';
  } else if (status === 'succeeded') {
    const standing = bookingIs(booking.id, 'confirmed');
    // What the guest will have paid in all with this payment, for the owner's message.
    const paidInAll = moneyOf(await paymentsInOrder(env, booking.id)).paid + p.amount;
    const paidMsgs = keepWhen(
      env,
      sql`${moves} and ${standing}`,
      [{ to: 'owner', notice: balancePaidNotice(booking, cabinName, p.amount, paidInAll, env.SITE_URL) }],
      reach,
    );
    const lateMsgs = keepWhen(env, sql`${moves} and not ${standing}`, lateMessages(ctx, p, booking.status), reach);
    kept = [paidMsgs, lateMsgs];
    writes = [paidMove(env, p, standing, at)];
    shape = 'balance';
  } else if (status === 'canceled' && p.kind === 'change') {
    // The guest left ЮKassa's page without paying the difference: the change ends, the old dates stand.
    writes = [
      db
        .update(payments)
        .set({ status, updatedAt: at })
        .where(sql`payments.id = ${p.id} and payments.status = ${p.status}`)
        .returning(),
      db
        .update(dateChanges)
        .set({ status: 'expired', updatedAt: at })
        .where(sql`date_changes.payment_id = ${p.id} and date_changes.status = 'awaiting_payment'
          and exists (select 1 from payments k where k.id = ${p.id} and k.status = 'canceled')`),
    ];
    shape = 'other';
  } else if (status === 'canceled' && p.kind !== 'balance') {
    const waiting = bookingIs(booking.id, 'awaiting_payment');
    const expiredMsgs = keepWhen(
      env,
      sql`${moves} and ${waiting}`,
      [{ to: 'owner', notice: holdExpiredNotice(booking, cabinName, env.SITE_URL) }],
      reach,
    );
    kept = [expiredMsgs];
    writes = [
      releasePromoWhen(env, booking.id, sql`${moves} and ${waiting}`),
      db
        .update(bookings)
        .set({ status: 'expired', promoClaimed: false, updatedAt: at })
        .where(sql`bookings.id = ${booking.id} and bookings.status = 'awaiting_payment' and ${moves}`)
        .returning(),
      db
        .update(payments)
        .set({ status, updatedAt: at })
        .where(sql`payments.id = ${p.id} and payments.status = ${p.status}`)
        .returning(),
    ];
    shape = 'canceled';
  } else {
    writes = [
      db
        .update(payments)
        .set({ status, updatedAt: at })
        .where(sql`payments.id = ${p.id} and payments.status = ${p.status}`)
        .returning(),
    ];
    shape = 'other';
  }

  const { messageResults, writes: results } = await run(env, kept, writes);
  const rows = results as (Booking | Payment)[][];
  const send = async () => {
    const went = await Promise.all(kept.map((k, i) => sendKept(env, k, messageResults[i]!, reach)));
    const confirmation = went.find((m) => m.has('confirmation'))?.get('confirmation');
    if (confirmation !== undefined) await setConfirmationMail(env, booking.id, confirmation ? 'sent' : 'failed');
  };

  if (shape === 'prepayment') {
    // [release, expire, payment, confirm]
    const [, expired, moved, confirmed] = rows as [unknown, Booking[], Payment[], Booking[]];
    const payment = moved[0];
    if (!payment) return NOTHING;
    if (confirmed[0]) return { settled: { outcome: 'confirmed', booking: confirmed[0], payment }, send };
    return { settled: { outcome: 'refund', booking: expired[0] ?? booking, payment }, send };
  }
  if (shape === 'change') {
    // [payment, change, booking]
    const [moved, , changed] = rows as [Payment[], unknown, Booking[]];
    const payment = moved[0];
    if (!payment) return NOTHING;
    if (changed[0]) return { settled: { outcome: 'paid', booking: changed[0], payment }, send };
    return { settled: { outcome: 'refund', booking, payment }, send };
  }
  if (shape === 'balance') {
    const payment = (rows[0] as Payment[])[0];
    if (!payment) return NOTHING;
    return {
      settled: {
        outcome: payment.refundReason === 'late' && payment.refundAmount !== null ? 'refund' : 'paid',
        booking,
        payment,
      },
      send,
    };
  }
  if (shape === 'canceled') {
    const [, expired, moved] = rows as [unknown, Booking[], Payment[]];
    const payment = moved[0];
    if (!payment) return NOTHING;
    if (expired[0]) return { settled: { outcome: 'expired', booking: expired[0], payment }, send };
    return { settled: { outcome: 'moved', payment }, send };
  }
  const payment = (rows[0] as Payment[])[0];
  return payment ? { settled: { outcome: 'moved', payment }, send } : NOTHING;
}
