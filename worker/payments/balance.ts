// The rest of a stay's price, paid from the guest's own page (issue 40): a second ЮKassa payment
// (payments.kind 'balance') with the same rules as the prepayment: its 54-ФЗ receipt, the guest
// back to their page, and only ЮKassa's own answer, read back, acted on. Paid while the booking
// stands: the booking stays confirmed and the owner is told. Paid after it was cancelled: the
// money goes back by itself.
import { guestPageUrl } from '../../schema/guest-page.ts';
import type { Settings } from '../../schema/settings.ts';
import type { Booking, Payment } from '../../schema/tables.ts';
import type { Bindings } from '../env.ts';
import { balancePaidNotice, lateBalanceNotice } from '../guest/notices.ts';
import { mailRefund } from '../notify/guest.ts';
import { lateRefundGuestMail } from '../notify/notices.ts';
import { notifyOwner } from '../notify/owner.ts';
import { getBooking } from '../queries/bookings.ts';
import { getCabin } from '../queries/cabins.ts';
import { movePaymentStatus, paymentsInOrder, storeBalancePayment } from '../queries/guest.ts';
import { moneyOf, refundWhole } from './refunds.ts';
import { prepaymentReceipt } from './receipts.ts';
import { createPayment, rub, yookassaOf, YooKassaError, type YooPayment } from './yookassa.ts';

/** What the guest's page needs to send them to pay the rest. Amount in kopecks. */
export type BalanceStart = { confirmationUrl: string; amount: number };

/**
 * Creates the payment of what is due at ЮKassa and keeps it. The Idempotence-Key names the
 * booking (its id and when it was made: ids alone come back after a database is started afresh),
 * what was paid so far and how many payments of the rest were made before: a double tap
 * makes one payment, and after one was cancelled on ЮKassa's page the next tap makes a new one.
 * Throws YooKassaError when ЮKassa cannot be reached or refuses.
 */
export async function startBalance(
  env: Bindings,
  b: Booking,
  cabinName: string,
  payments: readonly Payment[],
  due: number,
  opts: { vatCode: Settings['vatCode']; origin: string },
): Promise<BalanceStart> {
  const shop = yookassaOf(env);
  if (!shop) throw new YooKassaError('YOOKASSA_SHOP_ID and YOOKASSA_SECRET_KEY are not set');
  const { paid } = moneyOf(payments);
  const tries = payments.filter((p) => p.kind === 'balance').length;
  const payment = await createPayment(
    shop,
    {
      amount: rub(due),
      capture: true,
      confirmation: { type: 'redirect', return_url: guestPageUrl(opts.origin, b.guestToken ?? '') },
      description: `Оплата остатка, бронирование №${b.id}`.slice(0, 128),
      metadata: { bookingId: String(b.id), kind: 'balance' },
      receipt: prepaymentReceipt(b, cabinName, due, opts.vatCode),
    },
    `balance-${b.id}-${Date.parse(b.createdAt)}-${paid}-${tries}`,
  );
  const confirmationUrl = payment.confirmation?.confirmation_url ?? '';
  await storeBalancePayment(env, { id: payment.id, bookingId: b.id, amount: due, status: payment.status, confirmationUrl });
  return { confirmationUrl, amount: due };
}

type Later = (label: string, task: Promise<unknown>) => void;

/**
 * ЮKassa's own answer about a payment of the rest. Its status moves only from the one it was read
 * with, so of a notification and the page's read-back arriving together one acts. A payment that
 * did not succeed changes nothing: the booking stays as it was and the guest may try again.
 */
export async function applyBalance(env: Bindings, row: Payment, answer: YooPayment, later: Later): Promise<'paid' | 'refunded' | 'unchanged'> {
  if (answer.status === row.status || !(await movePaymentStatus(env, row.id, row.status, answer.status))) return 'unchanged';
  if (answer.status !== 'succeeded') return 'unchanged';
  const booking = await getBooking(env, row.bookingId);
  if (!booking) return 'unchanged';
  const name = (await getCabin(env, booking.cabinId))?.name ?? '';
  if (booking.status === 'confirmed') {
    const { paid } = moneyOf(await paymentsInOrder(env, booking.id));
    later('Balance payment notice', notifyOwner(env, balancePaidNotice(booking, name, row.amount, paid, env.SITE_URL)));
    return 'paid';
  }
  // Cancelled (by the guest or the owner) while the guest was paying: the money goes back.
  try {
    await refundWhole(env, { ...row, status: 'succeeded' }, booking, name, 'late');
  } catch (err) {
    console.error(`The automatic refund of payment ${row.id} (booking ${booking.id}) failed; the schedule asks again:`, err instanceof Error ? err.message : err);
  }
  later('Late balance notice', notifyOwner(env, lateBalanceNotice(booking, name, row.amount, env.SITE_URL)));
  later(`The refund e-mail of booking ${booking.id}`, mailRefund(env, booking, (siteName) => lateRefundGuestMail(booking, name, row.amount, siteName, 'balance')));
  return 'refunded';
}
