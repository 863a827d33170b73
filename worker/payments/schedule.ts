// The prepayment's share of the 15-minute schedule (worker/scheduled.ts): holds that ran out
// unpaid free their nights and the owner hears of it; on the check-in day, the settlement receipt
// of each paid prepayment is sent (54-ФЗ: the service provided, the prepayment offset against it);
// refunds ЮKassa did not take when asked (a guest's cancellation, a late payment) are asked again;
// date changes left unpaid are written down as ended.
import { todayInMoscow } from '../../schema/dates.ts';
import type { Bindings } from '../env.ts';
import { now } from '../lib/clock.ts';
import { setSettlementReceipt, settlementsDue } from '../queries/payments.ts';
import { getSettings } from '../queries/settings.ts';
import { expireHolds } from '../transitions/hold.ts';
import { expireChanges } from '../queries/date-changes.ts';
import { settlementReceipt } from './receipts.ts';
import { retryRefunds } from './refunds.ts';
import { createReceipt, rub, yookassaOf } from './yookassa.ts';

export async function runPaymentSchedule(env: Bindings): Promise<{ expired: number; receipts: number }> {
  const ended = await expireHolds(env);
  await ended.send();
  // Date changes whose difference was not paid in time: their nights were free by the clock already.
  await expireChanges(env);
  const expired = ended.bookings;
  const shop = yookassaOf(env);
  if (!shop) return { expired: expired.length, receipts: 0 };
  const refunds = await retryRefunds(env);
  if (refunds) console.log(`Refunds asked again and taken by ЮKassa: ${refunds}`);
  const due = await settlementsDue(env, todayInMoscow(now()));
  if (!due.length) return { expired: expired.length, receipts: 0 };
  const { vatCode } = await getSettings(env);
  let receipts = 0;
  for (const { payment, booking, cabinName } of due) {
    try {
      await createReceipt(
        shop,
        {
          ...settlementReceipt(booking, cabinName, payment.amount, vatCode),
          payment_id: payment.id,
          type: 'payment',
          send: true,
          settlements: [{ type: 'prepayment', amount: rub(payment.amount) }],
        },
        `settlement-${payment.id}`,
      );
      await setSettlementReceipt(env, payment.id, 'sent');
      receipts += 1;
    } catch (err) {
      console.error(
        `The settlement receipt of payment ${payment.id} failed (tried again next time):`,
        err instanceof Error ? err.message : err,
      );
    }
  }
  return { expired: expired.length, receipts };
}
