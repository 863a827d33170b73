// Deposits held on guests' cards (schema/tables.ts `deposits`): every change is a conditional write
// on the status (and decision) this caller read, so of any number of callers racing one deposit
// exactly one moves it.
import { and, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { depositReleaseOn } from '../../schema/deposits.ts';
import { bookings, cabins, deposits, type Deposit } from '../../schema/tables.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = { DB: DatabasePort };
const at = () => new Date(now()).toISOString();

/** A hold as ЮKassa made it; a repeat of the same id (an idempotent retry) changes nothing. */
export async function storeDeposit(
  env: DbEnv,
  d: Pick<Deposit, 'id' | 'bookingId' | 'amount' | 'status' | 'confirmationUrl'>,
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

export type DepositDecision =
  | { decision: 'release'; by: 'owner' | 'auto' }
  | { decision: 'keep'; by: 'owner'; keptAmount: number; reason: string };

/**
 * Writes the decision on a hold nobody decided yet: undefined when it is not held or someone else
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
    .where(and(eq(deposits.id, id), eq(deposits.status, 'waiting_for_capture'), isNull(deposits.decision)))
    .returning()
    .get();
}

/** ЮKassa refused or did not answer the decision: the owner sees why, the schedule asks again. */
export async function noteDepositError(env: DbEnv, id: string, error: string | null): Promise<void> {
  await getDb(env).update(deposits).set({ error, updatedAt: at() }).where(eq(deposits.id, id));
}

/**
 * Holds the schedule lets go by itself: undecided, and either 2 days past departure (Moscow date)
 * or close to ЮKassa's own limit. `safeBefore` is the ISO time before which a hold is too old.
 */
export async function depositsDueForRelease(env: DbEnv, today: string, safeBefore: string): Promise<Deposit[]> {
  const rows = await getDb(env)
    .select({ d: deposits, checkOut: bookings.checkOut })
    .from(deposits)
    .innerJoin(bookings, eq(bookings.id, deposits.bookingId))
    .where(and(eq(deposits.status, 'waiting_for_capture'), isNull(deposits.decision)))
    .all();
  return rows.filter((r) => depositReleaseOn(r.checkOut) <= today || r.d.createdAt <= safeBefore).map((r) => r.d);
}

/** Decisions ЮKassa has not carried out yet (it refused or was silent): the schedule asks again. */
export const decidedDeposits = (env: DbEnv) =>
  getDb(env)
    .select()
    .from(deposits)
    .where(and(eq(deposits.status, 'waiting_for_capture'), isNotNull(deposits.decision)))
    .all();

/** Every deposit with its booking's dates and guest: «Сегодня» picks the day's and the ones still held. */
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
    .where(sql`${deposits.status} = 'waiting_for_capture' or ${bookings.checkOut} >= date('now', '-3 days')`)
    .orderBy(desc(deposits.createdAt))
    .all();

/** Each cabin's deposit in roubles. */
export async function cabinDeposits(env: DbEnv): Promise<Map<number, number>> {
  const rows = await getDb(env).select({ id: cabins.id, deposit: cabins.deposit }).from(cabins).all();
  return new Map(rows.map((r) => [r.id, r.deposit]));
}
