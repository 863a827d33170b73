// A guest moves their stay from their own page (docs/features.md «Перенос дат»): the owner's rules
// (schema/date-change.ts), the new stay priced by the one quote function, and then either a move at
// once (the same price or less, what was overpaid going back by the cancellation policy) or the new
// nights held while the guest pays the difference through ЮKassa (worker/transitions/payment.ts
// moves the booking when that payment is read back as paid).
import { CHANGE_MSG, changeMoney, changeRefusal, type ChangeInput } from '../../schema/date-change.ts';
import { guestPageUrl } from '../../schema/guest-page.ts';
import { MSG } from '../../schema/messages.ts';
import type { PriceLine } from '../../schema/payment-options.ts';
import { stayTimes } from '../../schema/pricing.ts';
import { formatMoscowTime, formatStayDates } from '../../schema/format.ts';
import type { Booking } from '../../schema/tables.ts';
import { priceRequest, type StayRequest } from '../calendar/quote.ts';
import type { Bindings } from '../env.ts';
import { now } from '../lib/clock.ts';
import { messageForLog } from '../lib/for-log.ts';
import { notifyOwner } from '../notify/owner.ts';
import { currentOf } from '../payments/deposits.ts';
import { holdUntilOf } from '../payments/prepayment.ts';
import { prepaymentReceipt } from '../payments/receipts.ts';
import { moneyOf, sendPlannedRefunds, splitRefund } from '../payments/refunds.ts';
import { createPayment, rub, yookassaOf } from '../payments/yookassa.ts';
import { nightsTakenExcept } from '../queries/bookings.ts';
import {
  expireChanges,
  holdChange,
  moveNow,
  pendingChange,
  setChangePayment,
  type ChangeTarget,
} from '../queries/date-changes.ts';
import { paymentsInOrder, type GuestLookup } from '../queries/guest.ts';
import { storePayment } from '../queries/payments.ts';
import { guestChangeNotice } from './notices.ts';

type Later = (label: string, task: Promise<unknown>) => void;
type Refusal = { ok: false; status: 400 | 404 | 409 | 502 | 503; error: string };

/** The new stay as priced: its nights, lines and total, and what it pays or gives back (kopecks). */
export type ChangeQuote = {
  target: ChangeTarget;
  cabinName: string;
  quote: { nights: number; total: number; lines: PriceLine[] };
  /** The new total less the old, in roubles: more than 0 is paid, less is given back by the policy. */
  difference: number;
  due: number;
  refund: number;
};

/**
 * Prices the stay the guest asks to move to, with the booking's guests, children, pets and extras
 * (those the new cabin offers) and its promo code while the code still applies; or says why not.
 */
export async function quoteChange(
  env: Bindings,
  l: GuestLookup,
  ask: ChangeInput,
  today: string,
): Promise<{ ok: true; change: ChangeQuote } | Refusal> {
  const b = l.booking;
  const cabinId = ask.cabinId ?? b.cabinId;
  const why = changeRefusal(b, { ...ask, cabinId }, l.settings.changes, today);
  if (why) return { ok: false, status: 400, error: why };
  const held = currentOf(l.deposits);
  if (held && (held.status === 'pending' || held.status === 'waiting_for_capture'))
    return { ok: false, status: 400, error: CHANGE_MSG.depositHeld };
  const base: StayRequest = {
    cabinId,
    checkIn: ask.checkIn,
    checkOut: ask.checkOut,
    guests: b.guests,
    childrenAges: b.childrenAges,
    pets: b.pets,
    extras: b.extras,
    promo: b.promoCode,
  };
  // The code's own use is this booking's; the extras the new cabin does not offer are left out.
  let priced = await priceRequest(env, base);
  if (!priced.ok && (priced.reason === 'promo' || priced.reason === 'extra'))
    priced = await priceRequest(env, {
      ...base,
      promo: priced.reason === 'promo' ? null : base.promo,
      extras: priced.reason === 'extra' ? [] : base.extras,
    });
  if (!priced.ok && (priced.reason === 'promo' || priced.reason === 'extra'))
    priced = await priceRequest(env, { ...base, promo: null, extras: [] });
  if (!priced.ok)
    return {
      ok: false,
      status: priced.reason === 'cabin-missing' ? 404 : 400,
      error: priced.reason === 'cabin-missing' ? CHANGE_MSG.cabinMissing : priced.error,
    };
  if (await nightsTakenExcept(env, cabinId, ask.checkIn, ask.checkOut, b.id))
    return { ok: false, status: 409, error: CHANGE_MSG.taken };
  const { quote, cabin, rules } = priced.priced;
  const { paid } = moneyOf(l.payments);
  const { due, refund } = changeMoney(l.settings.cancellation, b, quote.total, paid, today);
  return {
    ok: true,
    change: {
      target: {
        cabinId,
        checkIn: ask.checkIn,
        checkOut: ask.checkOut,
        nights: quote.nights,
        total: quote.total,
        lines: quote.lines,
        // An early check-in or a late check-out the new stay does not have no longer moves the hour.
        extras: quote.extras,
        ...stayTimes(rules.extras, quote.extras),
      },
      cabinName: cabin.name,
      quote: { nights: quote.nights, total: quote.total, lines: quote.lines },
      difference: quote.total - b.total,
      due,
      refund,
    },
  };
}

/** The answer of POST /api/guest/{token}/change. Money in kopecks. */
export type ChangeAnswer = {
  status: 'confirmed' | 'awaiting_payment';
  checkIn: string;
  checkOut: string;
  due?: number;
  refunded?: number;
  confirmationUrl?: string;
  holdUntil?: string;
};

/** Moves the stay, or holds the new nights and starts the payment of the difference. */
export async function changeAsGuest(
  env: Bindings,
  l: GuestLookup,
  ask: ChangeInput,
  today: string,
  opts: { origin: string; later: Later },
): Promise<{ ok: true; answer: ChangeAnswer } | Refusal> {
  const b = l.booking;
  await expireChanges(env, b.id);
  const waiting = await pendingChange(env, b.id);
  if (waiting) {
    const same =
      waiting.toCheckIn === ask.checkIn &&
      waiting.toCheckOut === ask.checkOut &&
      waiting.toCabinId === (ask.cabinId ?? b.cabinId);
    const payment = l.payments.find((p) => p.id === waiting.paymentId && p.status === 'pending');
    // The same tap again (a second tab, a reload): the same payment page.
    if (same && payment?.confirmationUrl)
      return {
        ok: true,
        answer: {
          status: 'awaiting_payment',
          checkIn: waiting.toCheckIn,
          checkOut: waiting.toCheckOut,
          due: waiting.due,
          confirmationUrl: payment.confirmationUrl,
          holdUntil: waiting.holdUntil ?? undefined,
        },
      };
    const dates = formatStayDates(waiting.toCheckIn, waiting.toCheckOut);
    return {
      ok: false,
      status: 409,
      error: CHANGE_MSG.pending.replace('{dates}', dates).replace('{time}', formatMoscowTime(waiting.holdUntil ?? '')),
    };
  }
  const quoted = await quoteChange(env, l, ask, today);
  if (!quoted.ok) return quoted;
  const { change } = quoted;
  if (change.due > 0) return startChangePayment(env, l, change, opts.origin);

  const payments = await paymentsInOrder(env, b.id);
  const shares = change.refund > 0 ? splitRefund(payments, change.refund) : [];
  const moved = await moveNow(env, b, change.target, change.refund, shares);
  if (!moved) return refusedMove(env, b, change.target);
  let failed = 0;
  if (change.refund > 0)
    failed = await sendPlannedRefunds(env, await paymentsInOrder(env, b.id), moved.booking, change.cabinName);
  opts.later(
    'Date change notice',
    notifyOwner(
      env,
      guestChangeNotice(
        moved.booking,
        { cabinName: l.cabinName, checkIn: b.checkIn, checkOut: b.checkOut, total: b.total },
        change.cabinName,
        { paid: 0, refund: change.refund },
        env.SITE_URL,
      ),
    ),
  );
  if (failed) console.error(`The refund of booking ${b.id}'s date change waits for the schedule`);
  return {
    ok: true,
    answer: {
      status: 'confirmed',
      checkIn: moved.booking.checkIn,
      checkOut: moved.booking.checkOut,
      refunded: change.refund,
    },
  };
}

/** Why a conditional move found nothing to move: the nights were taken, or the booking changed meanwhile. */
async function refusedMove(env: Bindings, b: Booking, to: ChangeTarget): Promise<Refusal> {
  if (await nightsTakenExcept(env, to.cabinId, to.checkIn, to.checkOut, b.id))
    return { ok: false, status: 409, error: CHANGE_MSG.taken };
  return { ok: false, status: 409, error: MSG.bookingTransition };
}

/**
 * Holds the new nights for the hold time of a prepayment and creates ЮKassa's payment of the
 * difference (payments.kind 'change'), with its 54-ФЗ receipt. When ЮKassa cannot be reached the
 * hold ends at once and the old dates stand.
 */
async function startChangePayment(
  env: Bindings,
  l: GuestLookup,
  change: ChangeQuote,
  origin: string,
): Promise<{ ok: true; answer: ChangeAnswer } | Refusal> {
  const shop = yookassaOf(env);
  if (!shop) return { ok: false, status: 503, error: MSG.guestPayUnavailable };
  const b = l.booking;
  const holdUntil = holdUntilOf(l.settings.holdMinutes, now());
  const held = await holdChange(env, b, change.target, change.due, holdUntil);
  if (!held) return refusedMove(env, b, change.target);
  try {
    const stay = { ...b, ...change.target };
    const payment = await createPayment(
      shop,
      {
        amount: rub(change.due),
        capture: true,
        confirmation: { type: 'redirect', return_url: guestPageUrl(origin, b.guestToken ?? '') },
        description: `Доплата за перенос дат, бронирование №${b.id}`.slice(0, 128),
        metadata: { bookingId: String(b.id), kind: 'change', changeId: String(held.id) },
        receipt: prepaymentReceipt(stay, change.cabinName, change.due, l.settings.vatCode),
      },
      `change-${b.id}-${held.id}-${Date.parse(held.createdAt)}`,
    );
    const confirmationUrl = payment.confirmation?.confirmation_url ?? '';
    await storePayment(env, {
      id: payment.id,
      bookingId: b.id,
      amount: change.due,
      status: payment.status,
      confirmationUrl,
      kind: 'change',
    });
    await setChangePayment(env, held.id, payment.id);
    return {
      ok: true,
      answer: {
        status: 'awaiting_payment',
        checkIn: change.target.checkIn,
        checkOut: change.target.checkOut,
        due: change.due,
        confirmationUrl,
        holdUntil,
      },
    };
  } catch (err) {
    console.error(`The payment of booking ${b.id}'s date change could not be created:`, messageForLog(err));
    await expireChanges(env, b.id, true);
    return { ok: false, status: 502, error: MSG.guestPayUnavailable };
  }
}
