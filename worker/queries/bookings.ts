import { and, desc, eq, gt, lt, lte, min, ne, or, sql, type SQL } from 'drizzle-orm';
import type { BookingStatus, BookingSubmit, OwnerStatus } from '../../schema/bookings.ts';
import {
  bookings,
  cabins,
  dateChanges,
  guestChats,
  guestMaxChats,
  promoCodes,
  threads,
  type Booking,
} from '../../schema/tables.ts';
type Quote = { nights: number; total: number; lines: Booking['lines'] };
import { addDays } from '../../schema/dates.ts';
import { now } from '../lib/clock.ts';
import { getDb, insertWhen } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { claimPromoWhen } from '../transitions/promo.ts';

type DbEnv = { DB: DatabasePort };
export type BookingRow = Booking & { cabinName: string };

/**
 * The day a stay ends, as SQL: its check-out, or the day the guest left when they left early
 * (departed_on is never after check_out). Every busy night, the chart, search, the iCal export and
 * what goes to Avito read a stay's end through this, so an early departure frees the nights after it.
 */
export const stayEnd = sql<string>`coalesce(${bookings.departedOn}, ${bookings.checkOut})`;

/** The instant now, as the ISO string hold_until is compared with. */
export const nowIso = () => new Date(now()).toISOString();

/**
 * The nights a booking keeps from everyone else, as SQL on its table's alias `t`: from its
 * check-in (the night before, with an early check-in the guest paid for) to its stayEnd (the
 * check-out's night too, with a late check-out, unless the guest left early). The night before an
 * early arrival cannot be sold, as its guest would still be there at the early hour.
 */
export const keptFrom = (t: string) =>
  sql.raw(`(case when ${t}.early_check_in is not null then date(${t}.check_in, '-1 day') else ${t}.check_in end)`);
export const keptTo = (t: string) =>
  sql.raw(
    `(case when ${t}.departed_on is null and ${t}.late_check_out is not null then date(${t}.check_out, '+1 day') else coalesce(${t}.departed_on, ${t}.check_out) end)`,
  );

/**
 * The one rule of a busy night, as SQL: a confirmed booking (the nights it keeps: keptFrom, keptTo)
 * or a hold still being paid for (other than `except`), the new nights of a date change whose
 * difference is being paid for (of a booking other than `except`), a block, an imported event or a
 * stay read from Avito's API of `cabin` covers a night of [checkIn, checkOut).
 * The arguments are SQL, so the same rule checks a visitor's dates and, inside the confirming
 * UPDATE or the holding INSERT, the row's own (ownNightsBusy).
 */
export const nightsBusy = (cabin: SQL, checkIn: SQL, checkOut: SQL, except: SQL = sql`0`) => sql`(
  exists (select 1 from bookings o where o.cabin_id = ${cabin} and o.id <> ${except}
          and (o.status = 'confirmed' or (o.status = 'awaiting_payment' and o.hold_until > ${nowIso()}))
          and o.check_in <= ${checkOut} and ${keptFrom('o')} < ${checkOut} and ${checkIn} < ${keptTo('o')})
  or exists (select 1 from date_changes c where c.to_cabin_id = ${cabin} and c.booking_id <> ${except}
          and c.status = 'awaiting_payment' and c.hold_until > ${nowIso()}
          and c.to_check_in < ${checkOut} and ${checkIn} < c.to_check_out)
  or exists (select 1 from calendar_blocks k where k.cabin_id = ${cabin} and k.start < ${checkOut} and ${checkIn} < k."end")
  or exists (select 1 from feed_events e where e.cabin_id = ${cabin} and e.start < ${checkOut} and ${checkIn} < e."end")
  or exists (select 1 from channel_stays s where s.cabin_id = ${cabin} and s.start < ${checkOut} and ${checkIn} < s."end"))`;

/**
 * Whether a stored booking's own nights (with the night its early check-in or late check-out
 * keeps) are busy for anyone else: checked inside the very write that confirms or holds it, so of a
 * booking of the neighbouring night and one with an early check-in or late check-out, at once,
 * only one is ever kept.
 */
export const ownNightsBusy = (t: string) =>
  nightsBusy(sql.raw(`${t}.cabin_id`), keptFrom(t), keptTo(t), sql.raw(`${t}.id`));

/**
 * Whether the night before checkIn and the night of checkOut are free in a cabin, in one read: an
 * early check-in and a late check-out are offered by them (schema/pricing.ts extraOffered).
 */
export async function neighboursFree(
  env: DbEnv,
  cabinId: number,
  checkIn: string,
  checkOut: string,
): Promise<{ before: boolean; after: boolean }> {
  const cabin = sql`${cabinId}`;
  const before = addDays(checkIn, -1);
  const after = addDays(checkOut, 1);
  const row = await getDb(env)
    .select({
      before: sql<number>`${nightsBusy(cabin, sql`${before}`, sql`${checkIn}`)}`,
      after: sql<number>`${nightsBusy(cabin, sql`${checkOut}`, sql`${after}`)}`,
    })
    .from(cabins)
    .where(eq(cabins.id, cabinId))
    .get();
  return { before: !row?.before, after: !row?.after };
}

/** Whether any night of [checkIn, checkOut) is busy: a confirmed booking, a block or an imported event. */
export async function nightsTaken(env: DbEnv, cabinId: number, checkIn: string, checkOut: string): Promise<boolean> {
  const row = await getDb(env)
    .select({ taken: sql<number>`${nightsBusy(sql`${cabinId}`, sql`${checkIn}`, sql`${checkOut}`)}` })
    .from(cabins)
    .where(eq(cabins.id, cabinId))
    .get();
  return Boolean(row?.taken);
}

/** Whether any night of [checkIn, checkOut) is busy for anyone but booking `except` (its own stay and change aside). */
export async function nightsTakenExcept(
  env: DbEnv,
  cabinId: number,
  checkIn: string,
  checkOut: string,
  except: number,
): Promise<boolean> {
  const row = await getDb(env)
    .select({ taken: sql<number>`${nightsBusy(sql`${cabinId}`, sql`${checkIn}`, sql`${checkOut}`, sql`${except}`)}` })
    .from(cabins)
    .where(eq(cabins.id, cabinId))
    .get();
  return Boolean(row?.taken);
}

type BookingInput = Pick<
  BookingSubmit,
  'cabinId' | 'checkIn' | 'checkOut' | 'guests' | 'name' | 'phone' | 'email' | 'comment' | 'channel' | 'source'
> &
  Partial<Pick<BookingSubmit, 'childrenAges' | 'pets'>>;
/** What a booking keeps of its pricing beyond its lines: the code it used (its use counted) and the extras priced in. */
export type StoredPricing = {
  promoCode: string | null;
  extras: number[];
  /** The hours of the early check-in and the late check-out priced in (schema/pricing.ts stayTimes), or null. */
  earlyCheckIn?: string | null;
  lateCheckOut?: string | null;
};
const NO_PRICING: StoredPricing = { promoCode: null, extras: [] };

/** What the guest sent (only the fields a booking keeps) and the server's nights and total: a request and a hold store them alike. */
function requestFields(input: BookingInput, quote: Quote) {
  const { cabinId, checkIn, checkOut, guests, name, phone, email, comment, channel } = input;
  return {
    cabinId,
    checkIn,
    checkOut,
    guests,
    childrenAges: input.childrenAges ?? [],
    pets: input.pets ?? false,
    name,
    phone,
    email,
    comment,
    channel,
    nights: quote.nights,
    total: quote.total,
  };
}

/** Stores a request as «Новая» with the server's nights, lines and total, and its guest's page (the token). */
export async function createBooking(
  env: DbEnv,
  input: BookingInput,
  quote: Quote,
  pricing: StoredPricing = NO_PRICING,
): Promise<Booking> {
  const at = nowIso();
  const [row] = await getDb(env)
    .insert(bookings)
    .values({
      ...requestFields(input, quote),
      lines: quote.lines,
      source: input.source ?? null,
      ...pricing,
      status: 'new',
      guestToken: newGuestToken(),
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  return row!;
}

/** A secret for the guest's browser to read its booking by (bookings.guest_token): the guest's page /b/{token}, 144 random bits. */
export const newGuestToken = () =>
  [...crypto.getRandomValues(new Uint8Array(18))].map((b) => b.toString(16).padStart(2, '0')).join('');

/**
 * Stores a booking with prepayment as «Ждёт оплаты», its nights held until `holdUntil`, and counts
 * its promo code's use, in one batch that writes only if every night is free and the code has a use
 * left: SQLite and D1 run one write at a time, so of two guests racing for the same nights (or a
 * code's last use) exactly one holds them. Undefined when either was taken (the caller asks which).
 */
export async function holdBooking(
  env: DbEnv,
  input: BookingInput,
  quote: Quote,
  holdUntil: string,
  pricing: StoredPricing = NO_PRICING,
): Promise<Booking | undefined> {
  const db = getDb(env);
  const at = nowIso();
  const token = newGuestToken();
  const { cabinId, checkIn, checkOut } = input;
  const code = pricing.promoCode;
  const usable = code
    ? sql`exists (select 1 from promo_codes p where p.code = ${code} and (p.max_uses is null or p.uses < p.max_uses))`
    : sql`1`;
  const row = {
    ...requestFields(input, quote),
    childrenAges: JSON.stringify(input.childrenAges ?? []),
    pets: input.pets ? 1 : 0,
    lines: JSON.stringify(quote.lines),
    source: input.source ? JSON.stringify(input.source) : null,
    promoCode: code,
    promoClaimed: code ? 1 : 0,
    extras: JSON.stringify(pricing.extras),
    earlyCheckIn: pricing.earlyCheckIn ?? null,
    lateCheckOut: pricing.lateCheckOut ?? null,
    status: 'awaiting_payment',
    holdUntil,
    guestToken: token,
    confirmationMail: '',
    createdAt: at,
    updatedAt: at,
  };
  const [, [held]] = await db.batch([
    insertWhen(
      db,
      bookings,
      row,
      // With the night an early check-in or a late check-out keeps: checked in this same write.
      sql`not ${nightsBusy(sql`${cabinId}`, sql`${pricing.earlyCheckIn ? addDays(checkIn, -1) : checkIn}`, sql`${pricing.lateCheckOut ? addDays(checkOut, 1) : checkOut}`)} and ${usable}`,
    ),
    db.select().from(bookings).where(eq(bookings.guestToken, token)),
    ...(code
      ? [
          db
            .update(promoCodes)
            .set({ uses: sql`${promoCodes.uses} + 1` })
            .where(
              sql`${promoCodes.code} = ${code} and exists (select 1 from bookings b where b.guest_token = ${token})`,
            ),
        ]
      : []),
  ]);
  return held;
}

/**
 * Holds a stored request's nights for a payment link the owner sends (status new → awaiting
 * payment), in one statement that checks the nights are free, as holdBooking does.
 */
export async function holdRequest(env: DbEnv, id: number, holdUntil: string): Promise<StatusResult> {
  const token = newGuestToken();
  const db = getDb(env);
  const where = sql`bookings.id = ${id} and bookings.status = 'new'
      and not ${ownNightsBusy('bookings')}`;
  // Held for payment, its code's use is counted (given back if the hold ends unpaid).
  const [, [row]] = await db.batch([
    claimPromoWhen(env, id, sql`exists (select 1 from bookings where ${where})`),
    db
      .update(bookings)
      .set({
        status: 'awaiting_payment',
        holdUntil,
        promoClaimed: sql`${bookings.promoCode} is not null`,
        guestToken: sql`coalesce(${bookings.guestToken}, ${token})`,
        updatedAt: nowIso(),
      })
      .where(where)
      .returning(),
  ]);
  if (row) return { ok: true, booking: row };
  const after = await getBooking(env, id);
  if (!after) return { ok: false, reason: 'missing' };
  return { ok: false, reason: after.status === 'new' ? 'taken' : 'transition' };
}

/**
 * The owner refunded a paid booking: it is cancelled (its nights free), whatever it was. One the
 * guest cancelled first stays «cancelled by the guest», at the time they did.
 */
export async function cancelPaid(env: DbEnv, id: number): Promise<Booking | undefined> {
  const at = nowIso();
  const [row] = await getDb(env)
    .update(bookings)
    .set({
      status: 'cancelled',
      holdUntil: null,
      cancelledBy: sql`coalesce(${bookings.cancelledBy}, 'owner')`,
      cancelledAt: sql`coalesce(${bookings.cancelledAt}, ${at})`,
      updatedAt: at,
    })
    .where(eq(bookings.id, id))
    .returning();
  return row;
}

export async function bookingByGuestToken(env: DbEnv, id: number, token: string): Promise<Booking | undefined> {
  return getDb(env)
    .select()
    .from(bookings)
    .where(and(eq(bookings.id, id), eq(bookings.guestToken, token)))
    .get();
}

/** Every request, newest first, with its cabin's name. */
export async function listBookings(env: DbEnv): Promise<BookingRow[]> {
  const rows = await getDb(env)
    .select({ booking: bookings, cabinName: cabins.name })
    .from(bookings)
    .innerJoin(cabins, eq(bookings.cabinId, cabins.id))
    .orderBy(desc(bookings.createdAt), desc(bookings.id));
  return rows.map((r) => ({ ...r.booking, cabinName: r.cabinName }));
}

export async function getBooking(env: DbEnv, id: number): Promise<Booking | undefined> {
  return getDb(env).select().from(bookings).where(eq(bookings.id, id)).get();
}

/** Which status a request may move to from which: the owner's buttons, checked on the server. */
const FROM: Record<Exclude<OwnerStatus, 'new'>, BookingStatus[]> = {
  confirmed: ['new', 'declined', 'cancelled'],
  declined: ['new'],
  cancelled: ['confirmed'],
};

export type StatusResult = { ok: true; booking: Booking } | { ok: false; reason: 'missing' | 'transition' | 'taken' };

/**
 * Moves a request to a new status in one statement. Confirming checks, in the same statement,
 * that no confirmed booking, block or imported event covers any of its nights: SQLite and D1
 * run one write at a time, so of two overlapping confirmations exactly one wins.
 */
export async function setBookingStatus(env: DbEnv, id: number, status: OwnerStatus): Promise<StatusResult> {
  const before = await getBooking(env, id);
  if (!before) return { ok: false, reason: 'missing' };
  if (status === 'new' || !FROM[status].includes(before.status as BookingStatus))
    return { ok: false, reason: 'transition' };
  const db = getDb(env);
  const from = sql.join(
    FROM[status].map((s) => sql`${s}`),
    sql`, `,
  );
  const free = status === 'confirmed' ? sql`and not ${ownNightsBusy('bookings')}` : sql``;
  const at = nowIso();
  // Who cancelled and when, for «Заявки» and the guest's page; confirmed again, it is no longer cancelled.
  const cancelled =
    status === 'cancelled'
      ? { cancelledBy: 'owner', cancelledAt: at }
      : status === 'confirmed'
        ? { cancelledBy: null, cancelledAt: null }
        : {};
  const where = sql`bookings.id = ${id} and bookings.status in (${from}) ${free}`;
  // Confirmed by the owner: the code's use is counted now (a request does not use up a limited code).
  const claimed = status === 'confirmed' ? { promoClaimed: sql`${bookings.promoCode} is not null` } : {};
  const move = db
    .update(bookings)
    .set({ status, ...cancelled, ...claimed, updatedAt: at })
    .where(where)
    .returning();
  const [row] =
    status === 'confirmed'
      ? (await db.batch([claimPromoWhen(env, id, sql`exists (select 1 from bookings where ${where})`), move]))[1]
      : await move;
  if (row) return { ok: true, booking: row };
  // Nothing changed: another tab moved it first, or (confirming) its nights are taken.
  const after = await getBooking(env, id);
  if (!after) return { ok: false, reason: 'missing' };
  if (!FROM[status].includes(after.status as BookingStatus)) return { ok: false, reason: 'transition' };
  return { ok: false, reason: 'taken' };
}

/** Keeps whether the guest's confirmation e-mail went, for «Заявки» after a reload. */
export async function setConfirmationMail(
  env: DbEnv,
  id: number,
  confirmationMail: string,
): Promise<Booking | undefined> {
  const [row] = await getDb(env).update(bookings).set({ confirmationMail }).where(eq(bookings.id, id)).returning();
  return row;
}

/**
 * Removes a request with the personal data in it, unless it has a payment (any status, refunded
 * or not): records of money are kept for the tax office, so such a booking is cancelled, never
 * deleted. The check is inside the one DELETE, so a payment started meanwhile (a guest on
 * ЮKassa's page) is never lost between a read and the write; the foreign key would refuse too.
 */
export async function deleteBooking(env: DbEnv, id: number): Promise<'deleted' | 'missing' | 'paid'> {
  const [row] = await getDb(env)
    .delete(bookings)
    .where(
      sql`bookings.id = ${id} and not exists (select 1 from payments p where p.booking_id = bookings.id)
        and not exists (select 1 from deposits d where d.booking_id = bookings.id)`,
    )
    .returning({ id: bookings.id });
  if (row) return 'deleted';
  return (await getBooking(env, id)) ? 'paid' : 'missing';
}

const staysColumns = {
  id: bookings.id,
  cabinId: bookings.cabinId,
  start: bookings.checkIn,
  end: stayEnd,
  name: bookings.name,
  status: bookings.status,
};
const touching = (from: string, to: string, cabinId?: number) =>
  and(cabinId === undefined ? undefined : eq(bookings.cabinId, cabinId), lt(bookings.checkIn, to), gt(stayEnd, from));

/** Stays of one status touching [from, to), of one cabin or of every cabin: new ones are requests on the owner's chart. */
export async function staysByStatus(env: DbEnv, status: BookingStatus, from: string, to: string, cabinId?: number) {
  return staysByStatusQuery(env, status, from, to, cabinId);
}
/** staysByStatus's query, not yet run: for a route that reads all it needs in one batch. */
export const staysByStatusQuery = (env: DbEnv, status: BookingStatus, from: string, to: string, cabinId?: number) =>
  getDb(env)
    .select(staysColumns)
    .from(bookings)
    .where(and(eq(bookings.status, status), touching(from, to, cabinId)));

/**
 * The stays whose nights are busy (nightsBusy's bookings, as rows): confirmed ones, and holds
 * still being paid for (status awaiting_payment), for calendars, search, the export and the chart.
 */
export async function busyStays(env: DbEnv, from: string, to: string, cabinId?: number) {
  return busyStaysQuery(env, from, to, cabinId);
}
/** busyStays's query, not yet run (the clock read now): for a batch. */
export function busyStaysQuery(env: DbEnv, from: string, to: string, cabinId?: number) {
  const at = nowIso();
  const held = and(eq(bookings.status, 'awaiting_payment'), gt(bookings.holdUntil, at));
  const db = getDb(env);
  // The nights each keeps (keptFrom, keptTo): the night before an early check-in shows busy too.
  const start = sql<string>`${keptFrom('bookings')}`;
  const end = sql<string>`${keptTo('bookings')}`;
  // A date change being paid for holds its new nights too: shown as its booking, held.
  const changing = db
    .select({
      id: bookings.id,
      cabinId: dateChanges.toCabinId,
      start: dateChanges.toCheckIn,
      end: dateChanges.toCheckOut,
      name: bookings.name,
      status: sql<string>`'awaiting_payment'`,
    })
    .from(dateChanges)
    .innerJoin(bookings, eq(bookings.id, dateChanges.bookingId))
    .where(
      and(
        eq(dateChanges.status, 'awaiting_payment'),
        gt(dateChanges.holdUntil, at),
        cabinId === undefined ? undefined : eq(dateChanges.toCabinId, cabinId),
        lt(dateChanges.toCheckIn, to),
        gt(dateChanges.toCheckOut, from),
      ),
    );
  return db
    .select({ ...staysColumns, start, end })
    .from(bookings)
    .where(
      and(
        or(eq(bookings.status, 'confirmed'), held),
        cabinId === undefined ? undefined : eq(bookings.cabinId, cabinId),
        // A bound the index can use: the nights kept begin at most one day before the check-in.
        lte(bookings.checkIn, to),
        lt(start, to),
        gt(end, from),
      ),
    )
    .unionAll(changing);
}

/** When the next payment hold (of a booking or a date change) runs out (its nights free again with no write), or null: none is held. */
export async function nextHoldEnd(env: DbEnv): Promise<string | null> {
  const db = getDb(env);
  const at = nowIso();
  // One statement: the earliest of each kind of hold.
  const rows = await db
    .select({ at: min(bookings.holdUntil) })
    .from(bookings)
    .where(and(eq(bookings.status, 'awaiting_payment'), gt(bookings.holdUntil, at)))
    .unionAll(
      db
        .select({ at: min(dateChanges.holdUntil) })
        .from(dateChanges)
        .where(and(eq(dateChanges.status, 'awaiting_payment'), gt(dateChanges.holdUntil, at))),
    );
  const ends = rows
    .map((r) => r.at)
    .filter((v): v is string => Boolean(v))
    .sort();
  return ends[0] ?? null;
}

/**
 * Erases the personal data of requests that came in before `cutoff` (an ISO instant) and whose
 * stay is over: the request stays as a record of dates and total, without name, phone, e-mail
 * or comment. Answers how many were erased.
 */
export async function forgetOldBookings(env: DbEnv, cutoff: string, today: string): Promise<number> {
  const rows = await getDb(env)
    .update(bookings)
    .set({ name: '', phone: '', email: '', comment: '', updatedAt: nowIso() })
    .where(and(lt(bookings.createdAt, cutoff), sql`${bookings.checkOut} <= ${today}`, ne(bookings.phone, '')))
    .returning({ id: bookings.id });
  // The guest's Telegram chat and MAX dialog are personal data too: they go with the name and the
  // phone, and so does the conversation (the thread's messages go with it by their foreign key).
  if (rows.length > 0) {
    const db = getDb(env);
    await db.batch([
      db.delete(guestChats).where(sql`${guestChats.bookingId} in (select b.id from bookings b where b.phone = '')`),
      db
        .delete(guestMaxChats)
        .where(sql`${guestMaxChats.bookingId} in (select b.id from bookings b where b.phone = '')`),
      db.delete(threads).where(sql`${threads.bookingId} in (select b.id from bookings b where b.phone = '')`),
    ]);
  }
  return rows.length;
}
