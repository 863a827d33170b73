import { and, desc, eq, gt, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { BookingStatus, BookingSubmit } from '../../schema/bookings.ts';
import { bookings, cabins, type Booking } from '../../schema/tables.ts';
import type { Quote } from '../calendar/pricing.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = { DB: DatabasePort };
export type BookingRow = Booking & { cabinName: string };

/**
 * The one rule of a busy night, as SQL: a confirmed booking (other than `except`), a block or an
 * imported event of `cabin` covers a night of [checkIn, checkOut). The arguments are SQL, so the
 * same rule checks a visitor's dates and, inside the confirming UPDATE, the request's own row.
 */
const nightsBusy = (cabin: SQL, checkIn: SQL, checkOut: SQL, except: SQL = sql`0`) => sql`(
  exists (select 1 from bookings o where o.cabin_id = ${cabin} and o.status = 'confirmed' and o.id <> ${except}
          and o.check_in < ${checkOut} and ${checkIn} < o.check_out)
  or exists (select 1 from calendar_blocks k where k.cabin_id = ${cabin} and k.start < ${checkOut} and ${checkIn} < k."end")
  or exists (select 1 from feed_events e where e.cabin_id = ${cabin} and e.start < ${checkOut} and ${checkIn} < e."end"))`;

/** Whether any night of [checkIn, checkOut) is busy: a confirmed booking, a block or an imported event. */
export async function nightsTaken(env: DbEnv, cabinId: number, checkIn: string, checkOut: string): Promise<boolean> {
  const row = await getDb(env)
    .select({ taken: sql<number>`${nightsBusy(sql`${cabinId}`, sql`${checkIn}`, sql`${checkOut}`)}` })
    .from(cabins)
    .where(eq(cabins.id, cabinId))
    .get();
  return Boolean(row?.taken);
}

/** Stores a request as «Новая» with the server's nights and total. */
export async function createBooking(env: DbEnv, input: Omit<BookingSubmit, 'consent' | 'website'>, quote: Quote): Promise<Booking> {
  const at = new Date(now()).toISOString();
  const { cabinId, checkIn, checkOut, guests, name, phone, email, comment, channel } = input;
  const [row] = await getDb(env)
    .insert(bookings)
    .values({ cabinId, checkIn, checkOut, guests, name, phone, email, comment, channel, nights: quote.nights, total: quote.total, status: 'new', createdAt: at, updatedAt: at })
    .returning();
  return row!;
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
const FROM: Record<Exclude<BookingStatus, 'new'>, BookingStatus[]> = {
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
export async function setBookingStatus(env: DbEnv, id: number, status: BookingStatus): Promise<StatusResult> {
  const before = await getBooking(env, id);
  if (!before) return { ok: false, reason: 'missing' };
  if (status === 'new' || !FROM[status].includes(before.status as BookingStatus)) return { ok: false, reason: 'transition' };
  const db = getDb(env);
  const from = sql.join(FROM[status].map((s) => sql`${s}`), sql`, `);
  const free =
    status === 'confirmed'
      ? sql`and not ${nightsBusy(sql`bookings.cabin_id`, sql`bookings.check_in`, sql`bookings.check_out`, sql`bookings.id`)}`
      : sql``;
  const [row] = await db
    .update(bookings)
    .set({ status, updatedAt: new Date(now()).toISOString() })
    .where(sql`bookings.id = ${id} and bookings.status in (${from}) ${free}`)
    .returning();
  if (row) return { ok: true, booking: row };
  // Nothing changed: another tab moved it first, or (confirming) its nights are taken.
  const after = await getBooking(env, id);
  if (!after) return { ok: false, reason: 'missing' };
  if (!FROM[status].includes(after.status as BookingStatus)) return { ok: false, reason: 'transition' };
  return { ok: false, reason: 'taken' };
}

/** Keeps whether the guest's confirmation e-mail went, for «Заявки» after a reload. */
export async function setConfirmationMail(env: DbEnv, id: number, confirmationMail: string): Promise<Booking | undefined> {
  const [row] = await getDb(env).update(bookings).set({ confirmationMail }).where(eq(bookings.id, id)).returning();
  return row;
}

/** Removes a request with the personal data in it. */
export async function deleteBooking(env: DbEnv, id: number): Promise<boolean> {
  return (await getDb(env).delete(bookings).where(eq(bookings.id, id)).returning({ id: bookings.id })).length > 0;
}

/**
 * Stays of one status touching [from, to), of one cabin or of every cabin: confirmed ones are busy
 * nights (calendars, search, the export); new ones are requests on the owner's chart.
 */
export async function staysByStatus(env: DbEnv, status: BookingStatus, from: string, to: string, cabinId?: number) {
  return getDb(env)
    .select({ id: bookings.id, cabinId: bookings.cabinId, start: bookings.checkIn, end: bookings.checkOut, name: bookings.name })
    .from(bookings)
    .where(and(cabinId === undefined ? undefined : eq(bookings.cabinId, cabinId), eq(bookings.status, status), lt(bookings.checkIn, to), gt(bookings.checkOut, from)));
}

/**
 * Erases the personal data of requests that came in before `cutoff` (an ISO instant) and whose
 * stay is over: the request stays as a record of dates and total, without name, phone, e-mail
 * or comment. Answers how many were erased.
 */
export async function forgetOldBookings(env: DbEnv, cutoff: string, today: string): Promise<number> {
  const rows = await getDb(env)
    .update(bookings)
    .set({ name: '', phone: '', email: '', comment: '', updatedAt: new Date(now()).toISOString() })
    .where(and(lt(bookings.createdAt, cutoff), sql`${bookings.checkOut} <= ${today}`, ne(bookings.phone, '')))
    .returning({ id: bookings.id });
  return rows.length;
}
