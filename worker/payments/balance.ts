// The rest of a stay's price, paid from the guest's own page: a second ЮKassa payment
// (payments.kind 'balance') with the same rules as the prepayment: its 54-ФЗ receipt, the guest
// back to their page, and only ЮKassa's own answer, read back, acted on (worker/transitions/payment.ts:
// paid while the booking stands, the owner is told; paid after it was cancelled, it goes back).
import { guestPageUrl } from '../../schema/guest-page.ts';
import type { Settings } from '../../schema/settings.ts';
import type { Booking, Payment } from '../../schema/tables.ts';
import type { Bindings } from '../env.ts';
import { storePayment } from '../queries/payments.ts';
import { moneyOf } from './refunds.ts';
import { prepaymentReceipt } from './receipts.ts';
import { createPayment, rub, yookassaOf, YooKassaError } from './yookassa.ts';

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
  await storePayment(env, {
    id: payment.id,
    bookingId: b.id,
    amount: due,
    status: payment.status,
    confirmationUrl,
    kind: 'balance',
  });
  return { confirmationUrl, amount: due };
}
