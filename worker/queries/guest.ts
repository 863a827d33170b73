// The guest's own page: its reads, keyed by the guest's token, the guest's
// cancellation, the balance payment and the refunds the page and the owner plan.
import { and, asc, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { PetsRule } from '../../schema/pricing.ts';
import { resolveSettings, type Settings } from '../../schema/settings.ts';
import {
  bookings,
  cabinInstructions,
  cabins,
  dateChanges,
  deposits,
  guestChats,
  guestMaxChats,
  payments,
  reviews,
  type Booking,
  type DateChange,
  type Deposit,
  type Payment,
} from '../../schema/tables.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { settingsQuery, storedSettingsFrom } from './settings.ts';
import { telegramBotRow } from './telegram-bot.ts';
import { maxBotRow } from './max-bot.ts';
import { releasePromoWhen } from '../transitions/promo.ts';

type DbEnv = { DB: DatabasePort };
const at = () => new Date(now()).toISOString();

export type GuestLookup = {
  booking: Booking;
  cabinName: string;
  /** Prepayment first, then by when each was made. */
  payments: Payment[];
  settings: Settings;
  instructions: string;
  reviewed: boolean;
  /** Whether the owner connected a Telegram bot for guests, and whether this guest tied a chat. */
  telegram: { bot: boolean; linked: boolean };
  /** The cabin's deposit in roubles (0: none), and the holds made for this booking, newest first. */
  cabinDeposit: number;
  deposits: Deposit[];
  /** The same of the owner's MAX bot (the one of the alerts, serving guests too). */
  max: { bot: boolean; linked: boolean };
  /** The guest's moves of the stay to other dates, newest first. */
  changes: DateChange[];
  /**
   * Where the owner lets a guest move to another cabin (settings `changes.anyCabin`): every shown
   * cabin, by id, with what the quote checks of the party; empty otherwise.
   */
  cabinsToMove: CabinToMove[];
};

/** A cabin a stay might move to, with what decides whether it takes the booking's party. */
export type CabinToMove = { id: number; name: string; maxGuests: number; pets: PetsRule };

/** The ids of the booking holding `token`, as SQL: every read below is keyed by the token alone. */
const bookingOf = (token: string) => sql`(select b.id from bookings b where b.guest_token = ${token})`;
const cabinOf = (token: string) => sql`(select b.cabin_id from bookings b where b.guest_token = ${token})`;

/**
 * Everything the guest's page shows, read at once by the token. An unknown token runs the very
 * same reads as a known one (each keyed by the token, none waiting on another) and then finds no
 * booking, so the time of the answer does not tell a guessed token from a real one.
 */
export async function guestLookup(env: DbEnv, token: string): Promise<GuestLookup | undefined> {
  const db = getDb(env);
  // One batch: one round trip to D1 (and one transaction) instead of a dozen.
  // No join: a batch's rows come back by column name, and the two tables share names.
  const [rows, cabinRows, paid, settingRows, instructions, review, bot, chat, maxBot, maxChat, held, changes, toMove] =
    await db.batch([
      db.select().from(bookings).where(eq(bookings.guestToken, token)).limit(1),
      db
        .select({ name: cabins.name, deposit: cabins.deposit })
        .from(cabins)
        .where(sql`${cabins.id} = ${cabinOf(token)}`)
        .limit(1),
      db
        .select()
        .from(payments)
        .where(sql`${payments.bookingId} = ${bookingOf(token)}`)
        .orderBy(sql`${payments.kind} = 'balance'`, asc(payments.createdAt)),
      settingsQuery(env),
      db
        .select({ text: cabinInstructions.text })
        .from(cabinInstructions)
        .where(sql`${cabinInstructions.cabinId} = ${cabinOf(token)}`)
        .limit(1),
      db
        .select({ id: reviews.id })
        .from(reviews)
        .where(sql`${reviews.bookingId} = ${bookingOf(token)}`)
        .limit(1),
      telegramBotRow.query(env),
      db
        .select({ id: guestChats.bookingId })
        .from(guestChats)
        .where(sql`${guestChats.bookingId} = ${bookingOf(token)}`)
        .limit(1),
      maxBotRow.query(env),
      db
        .select({ id: guestMaxChats.bookingId })
        .from(guestMaxChats)
        .where(sql`${guestMaxChats.bookingId} = ${bookingOf(token)}`)
        .limit(1),
      db
        .select()
        .from(deposits)
        .where(sql`${deposits.bookingId} = ${bookingOf(token)}`)
        .orderBy(desc(deposits.createdAt)),
      db
        .select()
        .from(dateChanges)
        .where(sql`${dateChanges.bookingId} = ${bookingOf(token)}`)
        .orderBy(desc(dateChanges.id)),
      // Read only while the owner allows another cabin: the same for every token, so it tells nothing.
      db
        .select({ id: cabins.id, name: cabins.name, maxGuests: cabins.maxGuests, pets: cabins.pets })
        .from(cabins)
        .where(
          sql`${cabins.active} = 1 and exists (select 1 from settings s where s.key = 'changes'
          and case when json_valid(s.value) then json_extract(s.value, '$.anyCabin') end = 1)`,
        )
        .orderBy(asc(cabins.id)),
    ]);
  const booking = rows[0];
  const cabin = cabinRows[0];
  if (!booking || !cabin) return undefined;
  return {
    booking,
    cabinName: cabin.name,
    payments: paid,
    settings: resolveSettings(storedSettingsFrom(settingRows)),
    instructions: instructions[0]?.text ?? '',
    reviewed: review.length > 0,
    telegram: { bot: telegramBotRow.from(bot) !== null, linked: chat.length > 0 },
    cabinDeposit: cabin.deposit,
    deposits: held,
    max: { bot: maxBotRow.from(maxBot) !== null, linked: maxChat.length > 0 },
    changes,
    cabinsToMove: toMove,
  };
}

/** A refund decided for a payment: what goes back of it, in kopecks. */
export type RefundShare = { paymentId: string; amount: number };

/**
 * The guest cancels, in one batch: the booking moves to cancelled only if it is still as the guest's
 * terms were worked out from (the same status, the same payments paid, not yet arrived), and each
 * paid payment's share of the refund is written before ЮKassa is asked, only by the request whose
 * cancellation went through. Of two racing cancels exactly one writes; a balance paid meanwhile
 * makes the statement change nothing, and the caller works the terms out again.
 */
export async function cancelByGuest(
  env: DbEnv,
  expected: { id: number; status: string; paidCount: number; today: string },
  shares: RefundShare[],
): Promise<Booking | undefined> {
  const db = getDb(env);
  const stamp = at();
  const asRead = sql`bookings.id = ${expected.id} and bookings.status = ${expected.status} and bookings.check_in > ${expected.today}
      and (select count(*) from payments p where p.booking_id = bookings.id and p.status = 'succeeded') = ${expected.paidCount}`;
  // A hold cancelled before it was paid gives its code's use back, as one that runs out does.
  const unpaidHold = expected.status === 'awaiting_payment';
  const release = releasePromoWhen(
    env,
    expected.id,
    sql`${unpaidHold ? 1 : 0} and exists (select 1 from bookings where ${asRead})`,
  );
  const cancel = db
    .update(bookings)
    .set({
      status: 'cancelled',
      cancelledBy: 'guest',
      cancelledAt: stamp,
      holdUntil: null,
      ...(unpaidHold ? { promoClaimed: false } : {}),
      updatedAt: stamp,
    })
    .where(asRead)
    .returning();
  const plans = shares.map((s) =>
    db
      .update(payments)
      .set({ refundAmount: s.amount, refundReason: 'guest', updatedAt: stamp })
      .where(sql`payments.id = ${s.paymentId} and payments.refund_id is null and payments.refund_amount is null
        and exists (select 1 from bookings b where b.id = ${expected.id} and b.cancelled_by = 'guest' and b.cancelled_at = ${stamp})`),
  );
  const [, rows] = await db.batch([release, cancel, ...plans]);
  return rows[0];
}

/** ЮKassa took a refund: its id and status, and all that has gone back of the payment by now. */
export async function setRefundMade(
  env: DbEnv,
  id: string,
  r: { refundId: string; refundStatus: string; refundAmount: number; refundReason?: string },
): Promise<void> {
  await getDb(env)
    .update(payments)
    .set({ ...r, updatedAt: at() })
    .where(eq(payments.id, id));
}

/** Refunds decided and not yet taken by ЮKassa (it failed when asked): the schedule asks again. */
export async function refundsToRetry(env: DbEnv) {
  return getDb(env)
    .select({ payment: payments, booking: bookings, cabinName: cabins.name })
    .from(payments)
    .innerJoin(bookings, eq(payments.bookingId, bookings.id))
    .innerJoin(cabins, eq(bookings.cabinId, cabins.id))
    .where(and(eq(payments.status, 'succeeded'), isNull(payments.refundId), gt(payments.refundAmount, 0)));
}

/** A booking's payments, prepayment first, then by when each was made (the order refunds are split in). */
export async function paymentsInOrder(env: DbEnv, bookingId: number): Promise<Payment[]> {
  return getDb(env)
    .select()
    .from(payments)
    .where(eq(payments.bookingId, bookingId))
    .orderBy(sql`${payments.kind} = 'balance'`, asc(payments.createdAt));
}

export async function cabinExists(env: DbEnv, id: number): Promise<boolean> {
  return Boolean(await getDb(env).select({ id: cabins.id }).from(cabins).where(eq(cabins.id, id)).get());
}

export async function getInstructions(env: DbEnv, cabinId: number): Promise<string> {
  return (
    (
      await getDb(env)
        .select({ text: cabinInstructions.text })
        .from(cabinInstructions)
        .where(eq(cabinInstructions.cabinId, cabinId))
        .get()
    )?.text ?? ''
  );
}

export async function setInstructions(env: DbEnv, cabinId: number, text: string): Promise<string> {
  const [row] = await getDb(env)
    .insert(cabinInstructions)
    .values({ cabinId, text })
    .onConflictDoUpdate({ target: cabinInstructions.cabinId, set: { text } })
    .returning();
  return row!.text;
}
