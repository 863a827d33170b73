// What a booking's payments came to and what went back of them (kopecks), and the refunds asked of
// ЮKassa. A refund is written down before ЮKassa is asked (payments.refund_amount), and
// asked with an Idempotence-Key naming the payment and what had gone back of it before, so a retry
// (the guest's second tap, the schedule every 15 minutes, the owner's «Вернуть») asks for the same
// refund and ЮKassa makes it once.
import type { Booking, Payment } from '../../schema/tables.ts';
import type { Bindings } from '../env.ts';
import { getPaymentRow } from '../queries/payments.ts';
import { refundsToRetry, setRefundMade, type RefundShare } from '../queries/guest.ts';
import { getSettings } from '../queries/settings.ts';
import { prepaymentReceipt } from './receipts.ts';
import { createRefund, rub, yookassaOf, YooKassaError, type YooKassa } from './yookassa.ts';

type Money = Pick<Payment, 'amount' | 'status' | 'refundId' | 'refundAmount' | 'refundStatus'>;

/**
 * What has gone back of a payment, or is decided to go back and waits for ЮKassa. A refund made
 * before refund_amount was kept (null) was of the whole payment; a refund ЮKassa cancelled gave
 * nothing back.
 */
export function refundedOf(p: Money): number {
  if (p.status !== 'succeeded' || p.refundStatus === 'canceled') return 0;
  if (p.refundId) return p.refundAmount ?? p.amount;
  return p.refundAmount ?? 0;
}

/** What the guest has paid, refunds taken off, and what went (or goes) back, over a booking's payments. */
export function moneyOf(payments: readonly Money[]): { paid: number; refunded: number } {
  let paid = 0;
  let refunded = 0;
  for (const p of payments) {
    if (p.status !== 'succeeded') continue;
    const back = refundedOf(p);
    paid += p.amount - back;
    refunded += back;
  }
  return { paid, refunded };
}

/** A paid payment nothing was refunded of, nor decided to be. */
const untouched = (p: Payment) => p.status === 'succeeded' && !p.refundId && p.refundAmount === null;

/**
 * The guest's refund split over the payments nothing was refunded of yet, in the order given
 * (the prepayment first): each gives back up to its amount. Every such payment gets its share,
 * 0 included, so the decision is written for each (a payment the policy keeps is not refunded
 * later by a repeated notification).
 */
export function splitRefund(payments: readonly Payment[], refund: number): RefundShare[] {
  let left = refund;
  return payments.filter(untouched).map((p) => {
    const amount = Math.min(left, p.amount);
    left -= amount;
    return { paymentId: p.id, amount };
  });
}

function shopOf(env: Bindings): YooKassa {
  const shop = yookassaOf(env);
  if (!shop) throw new YooKassaError('YOOKASSA_SHOP_ID and YOOKASSA_SECRET_KEY are not set');
  return shop;
}

/** The key of a payment's refund: the payment, and what had gone back of it before (none: the first refund). */
const refundKey = (p: Pick<Payment, 'id'>, before: number) => (before ? `refund-${p.id}-${before}` : `refund-${p.id}`);

const DESCRIPTIONS: Record<string, string> = {
  guest: 'Возврат при отмене',
  owner: 'Возврат предоплаты',
  late: 'Возврат предоплаты',
};

/**
 * Asks ЮKassa for one refund of `amount` of payment `p`, with its receipt: the stay's items scaled
 * to the refund, in the payment's own payment_mode (a part or the whole of the price).
 */
async function askRefund(
  env: Bindings,
  p: Payment,
  amount: number,
  before: number,
  b: Booking,
  cabinName: string,
  reason: string,
) {
  const { vatCode } = await getSettings(env);
  return createRefund(
    shopOf(env),
    {
      payment_id: p.id,
      amount: rub(amount),
      description: `${DESCRIPTIONS[reason] ?? 'Возврат'}, бронирование №${b.id}`,
      receipt: prepaymentReceipt(b, cabinName, amount, vatCode, p.amount),
    },
    refundKey(p, before),
  );
}

/** The refund written down for `p` and not yet taken by ЮKassa, asked for (again): the same key each time. Throws when ЮKassa fails. */
export async function sendPlannedRefund(env: Bindings, p: Payment, b: Booking, cabinName: string): Promise<void> {
  const amount = p.refundAmount ?? 0;
  if (p.refundId || amount <= 0) return;
  const refund = await askRefund(env, p, amount, 0, b, cabinName, p.refundReason ?? '');
  await setRefundMade(env, p.id, { refundId: refund.id, refundStatus: refund.status, refundAmount: amount });
}

/**
 * The refunds decided for a booking's payments (the guest's cancellation) asked of ЮKassa. One
 * that fails stays written down for the schedule; answers how many failed.
 */
export async function sendPlannedRefunds(
  env: Bindings,
  payments: readonly Payment[],
  b: Booking,
  cabinName: string,
): Promise<number> {
  let failed = 0;
  for (const p of payments) {
    try {
      await sendPlannedRefund(env, p, b, cabinName);
    } catch (err) {
      failed += 1;
      console.error(
        `The refund of payment ${p.id} (booking ${b.id}) failed; the schedule asks again:`,
        err instanceof Error ? err.message : err,
      );
    }
  }
  return failed;
}

/**
 * «Вернуть предоплату»: whatever is left of each paid payment goes back (after a guest's
 * cancellation, the part the policy kept). A refund written down and not yet made (a guest's, or a
 * late payment's) is asked first, under its own key, then the rest under a key of its own. Nothing
 * of the owner's is written down before ЮKassa takes it: when ЮKassa refuses, the route says so and
 * nothing changed, the owner may press again or refund in ЮKassa's own account. Answers the
 * payments refunded; throws when ЮKassa fails (what went through stays recorded).
 */
export async function refundRest(
  env: Bindings,
  payments: readonly Payment[],
  b: Booking,
  cabinName: string,
): Promise<string[]> {
  const refunded: string[] = [];
  for (let p of payments) {
    if (p.status !== 'succeeded') continue;
    if (!p.refundId && (p.refundAmount ?? 0) > 0) {
      await sendPlannedRefund(env, p, b, cabinName);
      p = (await getPaymentRow(env, p.id)) ?? p;
      refunded.push(p.id);
    }
    const before = refundedOf(p);
    const left = p.amount - before;
    if (left <= 0) continue;
    const refund = await askRefund(env, p, left, before, b, cabinName, 'owner');
    await setRefundMade(env, p.id, {
      refundId: refund.id,
      refundStatus: refund.status,
      refundAmount: p.amount,
      refundReason: 'owner',
    });
    if (!refunded.includes(p.id)) refunded.push(p.id);
  }
  return refunded;
}

/** The schedule's share: refunds written down that ЮKassa did not take when asked, asked again. Answers how many went. */
export async function retryRefunds(env: Bindings): Promise<number> {
  if (!yookassaOf(env)) return 0;
  let sent = 0;
  for (const { payment, booking, cabinName } of await refundsToRetry(env)) {
    try {
      await sendPlannedRefund(env, payment, booking, cabinName);
      sent += 1;
    } catch (err) {
      console.error(
        `The refund of payment ${payment.id} (booking ${booking.id}) failed again (tried again next time):`,
        err instanceof Error ? err.message : err,
      );
    }
  }
  return sent;
}
