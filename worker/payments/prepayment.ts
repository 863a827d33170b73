// From a held stay to a paid booking (issue 17; DESIGN.md «Prepayment»). A payment is created at
// ЮKassa for a booking whose nights are held; what happens next is decided only by ЮKassa's own
// answer when we read the payment back, never by a notification's word: paid while held →
// confirmed; paid too late (or the nights were taken meanwhile) → refunded by itself; cancelled →
// the hold ends and the nights are free. Every step is conditional on the state it moves from, so
// a repeated notification or a second look changes nothing.
import { prepaymentKopecks, type Prepayment } from '../../schema/payment-options.ts';
import type { Settings } from '../../schema/settings.ts';
import type { Booking, Payment } from '../../schema/tables.ts';
import { recheckFeeds } from '../calendar/sync.ts';
import type { Bindings } from '../env.ts';
import { mailConfirmation, mailRefund } from '../notify/guest.ts';
import { holdExpiredNotice, lateRefundGuestMail, lateRefundNotice, paidNotice } from '../notify/notices.ts';
import { notifyOwner } from '../notify/owner.ts';
import { confirmPaid, expireHold, getBooking, setConfirmationMail } from '../queries/bookings.ts';
import { getCabin } from '../queries/cabins.ts';
import { setPaymentStatus, storePayment } from '../queries/payments.ts';
import { applyBalance } from './balance.ts';
import { forLog } from '../lib/for-log.ts';
import { prepaymentReceipt } from './receipts.ts';
import { refundWhole } from './refunds.ts';
import { createPayment, rub, yookassaOf, YooKassaError, type YooKassa, type YooPayment } from './yookassa.ts';

/** What the guest's card needs to send them to pay. Amount in kopecks. */
export type PaymentStart = { amount: number; confirmationUrl: string; holdUntil: string };

/** When a hold made now runs out. */
export const holdUntilOf = (minutes: number, fromMs: number) => new Date(fromMs + minutes * 60_000).toISOString();

/** ЮKassa's keys, or an error: callers check `yookassaOf` first and answer the owner plainly. */
function shopOf(env: Bindings): YooKassa {
  const shop = yookassaOf(env);
  if (!shop) throw new YooKassaError('YOOKASSA_SHOP_ID and YOOKASSA_SECRET_KEY are not set');
  return shop;
}

/** Where ЮKassa sends the guest back: the cabin's page, which then tells them where things stand. */
export function returnUrl(origin: string, b: Pick<Booking, 'id' | 'cabinId' | 'guestToken'>): string {
  const url = new URL(`/cabin/${b.cabinId}`, origin);
  url.searchParams.set('booking', String(b.id));
  url.searchParams.set('token', b.guestToken ?? '');
  url.hash = 'booking';
  return url.href;
}

/**
 * Creates the prepayment of a held booking at ЮKassa and keeps it. The Idempotence-Key names the
 * booking and its hold, so a retry never makes a second payment, and a new hold (a payment link
 * sent again) makes a new one. Throws YooKassaError when ЮKassa cannot be reached or refuses.
 */
export async function startPayment(
  env: Bindings,
  booking: Booking,
  cabinName: string,
  opts: { prepayment: Prepayment; vatCode: Settings['vatCode']; firstNightPrice: number; origin: string },
): Promise<PaymentStart> {
  const shop = shopOf(env);
  const amount = prepaymentKopecks({ total: booking.total }, opts.firstNightPrice, opts.prepayment);
  const payment = await createPayment(
    shop,
    {
      amount: rub(amount),
      capture: true,
      confirmation: { type: 'redirect', return_url: returnUrl(opts.origin, booking) },
      description: `Предоплата, бронирование №${booking.id}`.slice(0, 128),
      metadata: { bookingId: String(booking.id) },
      receipt: prepaymentReceipt(booking, cabinName, amount, opts.vatCode),
    },
    `hold-${booking.id}-${booking.holdUntil}`,
  );
  const confirmationUrl = payment.confirmation?.confirmation_url ?? '';
  await storePayment(env, { id: payment.id, bookingId: booking.id, amount, status: payment.status, confirmationUrl });
  return { amount, confirmationUrl, holdUntil: booking.holdUntil ?? '' };
}

/** 'paid': the rest of a confirmed stay, paid from the guest's page (worker/payments/balance.ts). */
export type PaymentOutcome = 'confirmed' | 'paid' | 'refunded' | 'expired' | 'unchanged';

/** Runs the messages to the owner and the guest after the answer (the route's waitUntil). */
export type Later = (label: string, task: Promise<unknown>) => void;
const detached: Later = (label, task) => void task.catch((err) => console.error(`${label} failed`, forLog(err)));

/**
 * Acts on ЮKassa's own answer about a payment we keep (read back from its API by the caller); a
 * payment of the rest goes to applyBalance. Never throws for a refund that fails: the booking
 * stays expired, the owner is told, the refund stays written down and the schedule asks again.
 * The messages go out through `later`, so ЮKassa (or the guest's page) gets its answer without
 * waiting for Telegram, MAX or the mail server.
 */
export async function applyPayment(env: Bindings, row: Payment, answer: YooPayment, later: Later = detached): Promise<PaymentOutcome> {
  if (row.kind === 'balance') return applyBalance(env, row, answer, later);
  if (answer.status !== row.status) await setPaymentStatus(env, row.id, answer.status);
  const booking = await getBooking(env, row.bookingId);
  if (!booking) return 'unchanged';
  if (answer.status === 'canceled') {
    const expired = await expireHold(env, booking.id);
    if (expired) later('Hold expiry notice', tellOwnerHoldExpired(env, expired));
    return expired ? 'expired' : 'unchanged';
  }
  if (answer.status !== 'succeeded' || booking.status === 'confirmed' || row.refundId || row.refundAmount !== null) return 'unchanged';
  // Known as paid before this answer, and its booking no longer waiting for it: what followed (the
  // owner cancelled, the guest cancelled and the policy kept it) was decided then; a repeated
  // notification does not refund it.
  if (row.status === 'succeeded' && booking.status !== 'awaiting_payment') return 'unchanged';
  // Paid: the calendars of other platforms are read again before the booking is confirmed.
  if (booking.status === 'awaiting_payment') {
    await recheckFeeds(env, booking.cabinId, later);
    const confirmed = await confirmPaid(env, booking.id);
    if (confirmed) {
      const cabin = await getCabin(env, booking.cabinId);
      const name = cabin?.name ?? '';
      later('Payment notices', (async () => {
        const mail = await mailConfirmation(env, confirmed, name);
        if (mail) await setConfirmationMail(env, confirmed.id, mail);
      })());
      later('Payment notices', notifyOwner(env, paidNotice(confirmed, name, row.amount, env.SITE_URL)));
      return 'confirmed';
    }
  }
  // Paid after the hold ran out, or the nights went to another platform meanwhile: the money goes back.
  const late = (await expireHold(env, booking.id)) ?? booking;
  const cabin = await getCabin(env, booking.cabinId);
  const name = cabin?.name ?? '';
  try {
    await refundWhole(env, { ...row, status: answer.status }, late, name, 'late');
  } catch (err) {
    console.error(`The automatic refund of payment ${row.id} (booking ${booking.id}) failed:`, err instanceof Error ? err.message : err);
  }
  later('Late payment notice', notifyOwner(env, lateRefundNotice(late, name, row.amount, env.SITE_URL)));
  later(`The refund e-mail of booking ${booking.id}`, mailRefund(env, late, (siteName) => lateRefundGuestMail(late, name, row.amount, siteName)));
  return 'refunded';
}

/** «Бронь истекла» told to the owner by every channel. */
export async function tellOwnerHoldExpired(env: Bindings, booking: Booking): Promise<void> {
  const cabin = await getCabin(env, booking.cabinId);
  await notifyOwner(env, holdExpiredNotice(booking, cabin?.name ?? '', env.SITE_URL));
}
