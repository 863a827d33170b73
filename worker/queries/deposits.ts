// Deposits held on guests' cards or paid (schema/tables.ts `deposits`): every change is a
// conditional write on the status (and decision, and refund) this caller read, so of any number of
// callers racing one deposit exactly one moves it.
import { and, desc, eq, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import { depositReleaseOn, paidDepositSettled } from '../../schema/deposits.ts';
import { bookings, cabins, deposits, type Deposit } from '../../schema/tables.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = { DB: DatabasePort };
const at = () => new Date(now()).toISOString();

/** A deposit as ЮKassa made it; a repeat of the same id (an idempotent retry) changes nothing. */
export async function storeDeposit(
  env: DbEnv,
  d: Pick<Deposit, 'id' | 'bookingId' | 'amount' | 'status' | 'confirmationUrl' | 'mode'>,
): Promise<void> {
  const t = at();
  await getDb(env)
    .insert(deposits)
    .values({ ...d, createdAt: t, updatedAt: t })
    .onConflictDoNothing();
}

/** Every deposit, newest first, for «Заявки». */
export const allDeposits = (env: DbEnv) => getDb(env).select().from(deposits).orderBy(desc(deposits.createdAt)).all();

export const getDeposit = (env: DbEnv, id: string) =>
  getDb(env).select().from(deposits).where(eq(deposits.id, id)).get();

/** A booking's deposits, newest first (a hold cancelled on ЮKassa's page may be followed by another). */
export const depositsOf = (env: DbEnv, bookingId: number) =>
  getDb(env).select().from(deposits).where(eq(deposits.bookingId, bookingId)).orderBy(desc(deposits.createdAt)).all();

/** ЮKassa's answer about a deposit, written only if it is still in the status this caller read. */
export async function moveDeposit(
  env: DbEnv,
  d: Deposit,
  status: string,
  amount?: number,
): Promise<Deposit | undefined> {
  // A hold nobody decided that ЮKassa let go (its 7 days ran out): written as ЮKassa's release.
  const lapsed = d.status === 'waiting_for_capture' && status === 'canceled' && !d.decision;
  return getDb(env)
    .update(deposits)
    .set({
      status,
      error: null,
      updatedAt: at(),
      ...(amount === undefined ? {} : { keptAmount: amount }),
      ...(lapsed ? { decision: 'release', decidedBy: 'yookassa' } : {}),
    })
    .where(and(eq(deposits.id, d.id), eq(deposits.status, d.status)))
    .returning()
    .get();
}

/**
 * A deposit that stands undecided with the owner: a hold ЮKassa keeps on the card, or a deposit
 * the guest paid (nothing of it refunded yet).
 */
const standing = or(
  and(eq(deposits.mode, 'hold'), eq(deposits.status, 'waiting_for_capture')),
  and(eq(deposits.mode, 'paid'), eq(deposits.status, 'succeeded')),
);

/** The same, for a row already read. */
export const isStanding = (d: Pick<Deposit, 'mode' | 'status'>) =>
  d.mode === 'paid' ? d.status === 'succeeded' : d.status === 'waiting_for_capture';

/** Still the owner's to see to: standing, and not yet given back (or kept) as decided. */
export const isOpen = (d: Deposit) => isStanding(d) && !(d.mode === 'paid' && paidDepositSettled(d));

export type DepositDecision =
  | { decision: 'release'; by: 'owner' | 'auto' }
  | { decision: 'keep'; by: 'owner'; keptAmount: number; reason: string };

/**
 * Writes the decision on a deposit nobody decided yet: undefined when none stands or someone else
 * decided first (the owner's two buttons and the schedule, at once: one wins).
 */
export async function claimDecision(env: DbEnv, id: string, d: DepositDecision): Promise<Deposit | undefined> {
  return getDb(env)
    .update(deposits)
    .set({
      decision: d.decision,
      decidedBy: d.by,
      keptAmount: d.decision === 'keep' ? d.keptAmount : null,
      reason: d.decision === 'keep' ? d.reason : null,
      updatedAt: at(),
    })
    .where(and(eq(deposits.id, id), standing, isNull(deposits.decision)))
    .returning()
    .get();
}

/**
 * ЮKassa refused or did not answer the decision: the owner sees why, the schedule asks again.
 * Written only while the decision is still not carried out (a hold still held, a paid deposit with
 * no refund made), so a failed try never marks one another caller carried out meanwhile.
 */
export async function noteDepositError(env: DbEnv, id: string, error: string | null): Promise<void> {
  await getDb(env)
    .update(deposits)
    .set({ error, updatedAt: at() })
    .where(
      and(
        eq(deposits.id, id),
        or(
          and(eq(deposits.mode, 'hold'), eq(deposits.status, 'waiting_for_capture')),
          and(eq(deposits.mode, 'paid'), isNull(deposits.refundId)),
        ),
      ),
    );
}

/** The statuses a paid deposit's refund may move from to `status`: forward only, never back. */
const REFUND_FROM: Record<string, (string | null)[]> = {
  pending: [null],
  succeeded: [null, 'pending'],
  canceled: [null, 'pending'],
};

/**
 * A paid deposit's refund as ЮKassa answered it (to our request, or read back for its
 * notification): written only if the deposit has no other refund and its refund's status moves
 * forward from the one stored, so the request's answer and the notice racing it write it once.
 */
export async function setDepositRefund(
  env: DbEnv,
  id: string,
  refund: { id: string; status: string },
  error: string | null = null,
): Promise<Deposit | undefined> {
  const from = REFUND_FROM[refund.status] ?? [];
  const known = from.filter((s): s is string => s !== null);
  return getDb(env)
    .update(deposits)
    .set({ refundId: refund.id, refundStatus: refund.status, error, updatedAt: at() })
    .where(
      and(
        eq(deposits.id, id),
        eq(deposits.mode, 'paid'),
        isNotNull(deposits.decision),
        or(isNull(deposits.refundId), eq(deposits.refundId, refund.id)),
        or(
          from.includes(null) ? isNull(deposits.refundStatus) : sql`false`,
          known.length ? inArray(deposits.refundStatus, known) : sql`false`,
        ),
      ),
    )
    .returning()
    .get();
}

/** The paid deposit a refund of ours gave back, by the refund's id or, before that was written, its payment. */
export const depositByRefund = (env: DbEnv, refundId: string, paymentId: string | undefined) =>
  getDb(env)
    .select()
    .from(deposits)
    .where(
      and(
        eq(deposits.mode, 'paid'),
        or(eq(deposits.refundId, refundId), paymentId ? eq(deposits.id, paymentId) : sql`false`),
      ),
    )
    .get();

/**
 * Deposits the schedule gives back by itself: undecided, and either 2 days past departure (Moscow
 * date) or, for a hold, close to ЮKassa's own limit. `safeBefore` is the ISO time before which a
 * hold is too old; a paid deposit has no such limit.
 */
export async function depositsDueForRelease(env: DbEnv, today: string, safeBefore: string): Promise<Deposit[]> {
  const rows = await getDb(env)
    .select({ d: deposits, checkOut: bookings.checkOut })
    .from(deposits)
    .innerJoin(bookings, eq(bookings.id, deposits.bookingId))
    .where(and(standing, isNull(deposits.decision)))
    .all();
  return rows
    .filter((r) => depositReleaseOn(r.checkOut) <= today || (r.d.mode === 'hold' && r.d.createdAt <= safeBefore))
    .map((r) => r.d);
}

/** Decisions on holds ЮKassa has not carried out yet (it refused or was silent): the schedule asks again. */
export const decidedDeposits = (env: DbEnv) =>
  getDb(env)
    .select()
    .from(deposits)
    .where(and(eq(deposits.mode, 'hold'), eq(deposits.status, 'waiting_for_capture'), isNotNull(deposits.decision)))
    .all();

/**
 * Paid deposits decided whose refund is not done: none made yet and either refused (an error noted)
 * or decided before `staleBefore` (whoever decided it stopped before asking), or made and still
 * pending at ЮKassa. A decision just written is left to whoever wrote it, so the schedule running
 * beside the owner's button does not ask a second time.
 */
export const paidRefundsDue = (env: DbEnv, staleBefore: string) =>
  getDb(env)
    .select()
    .from(deposits)
    .where(
      and(
        eq(deposits.mode, 'paid'),
        eq(deposits.status, 'succeeded'),
        isNotNull(deposits.decision),
        or(
          and(isNull(deposits.refundId), or(isNotNull(deposits.error), lte(deposits.updatedAt, staleBefore))),
          eq(deposits.refundStatus, 'pending'),
        ),
      ),
    )
    .all();

/**
 * Takes a paid deposit's retry for this caller: a conditional write on the `updatedAt` it read, so
 * of two schedule runs at once one asks ЮKassa. Undefined when another took it or it moved.
 */
export function leaseDeposit(env: DbEnv, d: Deposit) {
  // Always a later time than the one read, even on a clock that did not move since.
  const t = at();
  const next = t > d.updatedAt ? t : new Date(Date.parse(d.updatedAt) + 1).toISOString();
  return getDb(env)
    .update(deposits)
    .set({ updatedAt: next })
    .where(and(eq(deposits.id, d.id), eq(deposits.updatedAt, d.updatedAt)))
    .returning()
    .get();
}

/** Every deposit with its booking's dates and guest: «Сегодня» picks the day's and the ones still open. */
export const depositsWithStays = (env: DbEnv) =>
  getDb(env)
    .select({
      deposit: deposits,
      booking: {
        id: bookings.id,
        cabinId: bookings.cabinId,
        checkIn: bookings.checkIn,
        checkOut: bookings.checkOut,
        name: bookings.name,
      },
      cabinName: cabins.name,
    })
    .from(deposits)
    .innerJoin(bookings, eq(bookings.id, deposits.bookingId))
    .innerJoin(cabins, eq(cabins.id, bookings.cabinId))
    .where(
      sql`${deposits.status} = 'waiting_for_capture' or ${bookings.checkOut} >= date('now', '-3 days')
        or (${deposits.mode} = 'paid' and ${deposits.status} = 'succeeded'
          and coalesce(${deposits.refundStatus}, '') <> 'succeeded'
          and not (${deposits.decision} = 'keep' and ${deposits.keptAmount} >= ${deposits.amount}))`,
    )
    .orderBy(desc(deposits.createdAt))
    .all();

/** Each cabin's deposit in roubles. */
export async function cabinDeposits(env: DbEnv): Promise<Map<number, number>> {
  const rows = await getDb(env).select({ id: cabins.id, deposit: cabins.deposit }).from(cabins).all();
  return new Map(rows.map((r) => [r.id, r.deposit]));
}
