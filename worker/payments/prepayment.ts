// From a held stay to a paid booking (docs/api.md «Prepayment»). A payment is created at
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
import { getBooking } from '../queries/bookings.ts';
import { getCabin } from '../queries/cabins.ts';
import { storePayment } from '../queries/payments.ts';
import { settlePayment } from '../transitions/payment.ts';
import { forLog, messageForLog } from '../lib/for-log.ts';
import { prepaymentReceipt } from './receipts.ts';
import { sendPlannedRefund } from './refunds.ts';
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
 * Acts on ЮKassa's own answer about a payment we keep (read back from its API by the caller):
 * worker/transitions/payment.ts decides, in one conditional batch, what it does, so of a
 * notification and the guest's page reading it back together exactly one acts. A payment that
 * goes back is asked of ЮKassa here; one that fails stays written down and the schedule asks again
 * (never thrown). The messages, kept by the same batch, are tried through `later`, so ЮKassa (or
 * the guest's page) gets its answer without waiting for Telegram, MAX or the mail server.
 */
export async function applyPayment(
  env: Bindings,
  row: Payment,
  answer: YooPayment,
  later: Later = detached,
): Promise<PaymentOutcome> {
  if (answer.status === row.status) return 'unchanged';
  const booking = await getBooking(env, row.bookingId);
  if (!booking) return 'unchanged';
  // Paid for a hold: the calendars of other platforms are read again before the batch decides.
  if (answer.status === 'succeeded' && row.kind !== 'balance' && booking.status === 'awaiting_payment')
    await recheckFeeds(env, booking.cabinId, later);
  const cabinName = (await getCabin(env, booking.cabinId))?.name ?? '';
  const { settled, send } = await settlePayment(env, row, answer.status, booking, cabinName);
  switch (settled.outcome) {
    case 'confirmed':
      later('Payment notices', send());
      return 'confirmed';
    case 'paid':
      later('Balance payment notice', send());
      return 'paid';
    case 'expired':
      later('Hold expiry notice', send());
      return 'expired';
    case 'refund':
      try {
        await sendPlannedRefund(env, settled.payment, settled.booking, cabinName);
      } catch (err) {
        console.error(
          `The automatic refund of payment ${row.id} (booking ${booking.id}) failed; the schedule asks again:`,
          messageForLog(err),
        );
      }
      later('Late payment notices', send());
      return 'refunded';
    default:
      return 'unchanged';
  }
}
