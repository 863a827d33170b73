import { and, desc, eq, inArray, isNull, lte } from 'drizzle-orm';
import { bookings, cabins, payments, type Payment } from '../../schema/tables.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = { DB: DatabasePort };
const at = () => new Date(now()).toISOString();

/**
 * A payment as ЮKassa created it (the prepayment, or with `kind: 'balance'` the rest); a repeat of
 * the same id (an idempotent retry) changes nothing.
 */
export async function storePayment(
  env: DbEnv,
  p: Pick<Payment, 'id' | 'bookingId' | 'amount' | 'status' | 'confirmationUrl'> & Partial<Pick<Payment, 'kind'>>,
): Promise<void> {
  const t = at();
  await getDb(env)
    .insert(payments)
    .values({ ...p, createdAt: t, updatedAt: t })
    .onConflictDoNothing();
}

export async function getPaymentRow(env: DbEnv, id: string): Promise<Payment | undefined> {
  return getDb(env).select().from(payments).where(eq(payments.id, id)).get();
}

export async function paymentByRefund(env: DbEnv, refundId: string): Promise<Payment | undefined> {
  return getDb(env).select().from(payments).where(eq(payments.refundId, refundId)).get();
}

/** A booking's payments, newest first (a payment link sent again after a hold ran out makes another). */
export async function paymentsOf(env: DbEnv, bookingId: number): Promise<Payment[]> {
  return getDb(env).select().from(payments).where(eq(payments.bookingId, bookingId)).orderBy(desc(payments.createdAt));
}

/** Every booking's payments, for «Заявки». */
export async function allPayments(env: DbEnv): Promise<Payment[]> {
  return getDb(env).select().from(payments).orderBy(desc(payments.createdAt));
}

export async function setRefund(
  env: DbEnv,
  id: string,
  refund: { refundId: string; refundStatus: string; refundReason?: string },
): Promise<void> {
  await getDb(env)
    .update(payments)
    .set({ ...refund, updatedAt: at() })
    .where(eq(payments.id, id));
}

export async function setSettlementReceipt(
  env: DbEnv,
  id: string,
  settlementReceipt: 'sent' | 'failed',
): Promise<void> {
  await getDb(env).update(payments).set({ settlementReceipt, updatedAt: at() }).where(eq(payments.id, id));
}

/**
 * Paid prepayments of confirmed stays that begin on or before `today` and have no settlement
 * receipt yet: the schedule sends those on the check-in day (54-ФЗ).
 */
export async function settlementsDue(env: DbEnv, today: string) {
  return getDb(env)
    .select({ payment: payments, booking: bookings, cabinName: cabins.name })
    .from(payments)
    .innerJoin(bookings, eq(payments.bookingId, bookings.id))
    .innerJoin(cabins, eq(bookings.cabinId, cabins.id))
    .where(
      and(
        eq(payments.status, 'succeeded'),
        isNull(payments.refundId),
        inArray(payments.settlementReceipt, ['']),
        eq(bookings.status, 'confirmed'),
        lte(bookings.checkIn, today),
      ),
    );
}
