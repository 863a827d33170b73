// A guest's move of their stay (schema/tables.ts dateChanges): each write is conditional on the
// booking still being the confirmed stay the guest's page read, at its old dates, and on the new
// nights being free, so of two guests racing for the same nights, or two taps, exactly one moves.
import { and, desc, eq, gt, lte, sql } from 'drizzle-orm';
import type { PriceLine } from '../../schema/payment-options.ts';
import { bookings, dateChanges, payments, tasks, type Booking, type DateChange } from '../../schema/tables.ts';
import { getDb, insertWhen } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';
import type { RefundShare } from './guest.ts';
import { nightsBusy, nowIso } from './bookings.ts';

type DbEnv = { DB: DatabasePort };

/** Where the stay goes, as the one quote function priced it. */
export type ChangeTarget = {
  cabinId: number;
  checkIn: string;
  checkOut: string;
  nights: number;
  total: number;
  lines: PriceLine[];
  /** The extras priced in, and the early check-in's and late check-out's hours among them. */
  extras: number[];
  earlyCheckIn: string | null;
  lateCheckOut: string | null;
};

/**
 * The booking is still the confirmed stay read at `b`'s dates and cabin, not arrived, not left
 * early, and has no change waiting for its difference: the condition every move carries.
 */
const stillAsRead = (b: Booking) => sql`exists (select 1 from bookings s where s.id = ${b.id}
    and s.status = 'confirmed' and s.cabin_id = ${b.cabinId} and s.check_in = ${b.checkIn}
    and s.check_out = ${b.checkOut} and s.arrived_at is null and s.departed_on is null
    and not exists (select 1 from date_changes w where w.booking_id = s.id and w.status = 'awaiting_payment'
      and w.hold_until > ${nowIso()}))`;
const freeFor = (b: Booking, to: ChangeTarget) =>
  sql`not ${nightsBusy(sql`${to.cabinId}`, sql`${to.checkIn}`, sql`${to.checkOut}`, sql`${b.id}`)}`;

function changeRow(b: Booking, to: ChangeTarget, at: string) {
  return {
    bookingId: b.id,
    fromCabinId: b.cabinId,
    fromCheckIn: b.checkIn,
    fromCheckOut: b.checkOut,
    fromTotal: b.total,
    toCabinId: to.cabinId,
    toCheckIn: to.checkIn,
    toCheckOut: to.checkOut,
    toTotal: to.total,
    nights: to.nights,
    lines: JSON.stringify(to.lines),
    extras: JSON.stringify(to.extras),
    earlyCheckIn: to.earlyCheckIn,
    lateCheckOut: to.lateCheckOut,
    createdAt: at,
    updatedAt: at,
  };
}

/** The change of this booking waiting for its difference, while its hold stands. */
export async function pendingChange(env: DbEnv, bookingId: number): Promise<DateChange | undefined> {
  return getDb(env)
    .select()
    .from(dateChanges)
    .where(
      and(
        eq(dateChanges.bookingId, bookingId),
        eq(dateChanges.status, 'awaiting_payment'),
        gt(dateChanges.holdUntil, nowIso()),
      ),
    )
    .orderBy(desc(dateChanges.id))
    .get();
}

/** Every change of a booking, newest first, for the guest's page and «Заявки». */
export async function changesOf(env: DbEnv, bookingId: number): Promise<DateChange[]> {
  return getDb(env)
    .select()
    .from(dateChanges)
    .where(eq(dateChanges.bookingId, bookingId))
    .orderBy(desc(dateChanges.id));
}

/**
 * A change that costs the same or less: in one batch the booking moves (if still as read and the
 * new nights are free), the change is written down as applied, and what goes back to the guest is
 * written on their payments (reason 'change') for ЮKassa to be asked after. Undefined when the
 * booking moved meanwhile or the nights were taken.
 */
export async function moveNow(
  env: DbEnv,
  b: Booking,
  to: ChangeTarget,
  refund: number,
  shares: readonly RefundShare[],
): Promise<{ booking: Booking; change: DateChange } | undefined> {
  const db = getDb(env);
  const at = nowIso();
  const moved = sql`exists (select 1 from bookings m where m.id = ${b.id} and m.cabin_id = ${to.cabinId}
    and m.check_in = ${to.checkIn} and m.check_out = ${to.checkOut} and m.updated_at = ${at})`;
  const applied = sql`exists (select 1 from date_changes d where d.booking_id = ${b.id} and d.status = 'applied'
    and d.created_at = ${at})`;
  const [[booking], , [change]] = await db.batch([
    db
      .update(bookings)
      .set({
        cabinId: to.cabinId,
        checkIn: to.checkIn,
        checkOut: to.checkOut,
        nights: to.nights,
        total: to.total,
        lines: to.lines,
        extras: to.extras,
        earlyCheckIn: to.earlyCheckIn,
        lateCheckOut: to.lateCheckOut,
        updatedAt: at,
      })
      .where(sql`bookings.id = ${b.id} and ${stillAsRead(b)} and ${freeFor(b, to)}`)
      .returning(),
    insertWhen(db, dateChanges, { ...changeRow(b, to, at), due: 0, refund, status: 'applied' }, moved),
    db
      .select()
      .from(dateChanges)
      .where(and(eq(dateChanges.bookingId, b.id), eq(dateChanges.createdAt, at), eq(dateChanges.status, 'applied'))),
    // A cleaning not yet done follows the guest to another cabin (its day follows the stay by itself).
    db
      .update(tasks)
      .set({ cabinId: to.cabinId, updatedAt: at })
      .where(sql`tasks.booking_id = ${b.id} and tasks.done = 0 and ${moved}`),
    ...shares
      .filter((s) => s.amount > 0)
      .map((s) =>
        db
          .update(payments)
          .set({ refundAmount: s.amount, refundReason: 'change', updatedAt: at })
          .where(
            sql`payments.id = ${s.paymentId} and payments.status = 'succeeded' and payments.refund_id is null
              and payments.refund_amount is null and ${applied}`,
          ),
      ),
  ]);
  return booking && change ? { booking, change } : undefined;
}

/**
 * A change that costs more: written down as waiting for the difference, its new nights held until
 * `holdUntil`, if the booking is still as read and those nights are free. Undefined otherwise.
 */
export async function holdChange(
  env: DbEnv,
  b: Booking,
  to: ChangeTarget,
  due: number,
  holdUntil: string,
): Promise<DateChange | undefined> {
  const db = getDb(env);
  const at = nowIso();
  const [, [change]] = await db.batch([
    insertWhen(
      db,
      dateChanges,
      { ...changeRow(b, to, at), due, refund: 0, status: 'awaiting_payment', holdUntil },
      sql`${stillAsRead(b)} and ${freeFor(b, to)}`,
    ),
    db
      .select()
      .from(dateChanges)
      .where(
        and(eq(dateChanges.bookingId, b.id), eq(dateChanges.createdAt, at), eq(dateChanges.status, 'awaiting_payment')),
      ),
  ]);
  return change;
}

/** Ties the ЮKassa payment of the difference to its change. */
export async function setChangePayment(env: DbEnv, id: number, paymentId: string): Promise<void> {
  await getDb(env)
    .update(dateChanges)
    .set({ paymentId, updatedAt: nowIso() })
    .where(and(eq(dateChanges.id, id), eq(dateChanges.status, 'awaiting_payment')));
}

/** The change a payment of a difference is for. */
export async function changeOfPayment(env: DbEnv, paymentId: string): Promise<DateChange | undefined> {
  return getDb(env).select().from(dateChanges).where(eq(dateChanges.paymentId, paymentId)).get();
}

/**
 * Changes whose difference was not paid in time end, the old dates standing (their held nights
 * were already free for others by the clock); `atOnce`, a booking's change ЮKassa made no payment
 * for ends now. Answers the changes ended.
 */
export async function expireChanges(env: DbEnv, bookingId?: number, atOnce = false): Promise<DateChange[]> {
  return getDb(env)
    .update(dateChanges)
    .set({ status: 'expired', updatedAt: nowIso() })
    .where(
      and(
        eq(dateChanges.status, 'awaiting_payment'),
        // At once: ЮKassa made no payment for it, so none can come.
        atOnce ? sql`date_changes.payment_id is null` : lte(dateChanges.holdUntil, nowIso()),
        bookingId === undefined ? undefined : eq(dateChanges.bookingId, bookingId),
      ),
    )
    .returning();
}
