import { and, asc, eq, gte, inArray, isNotNull, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { IsoDate } from '../../schema/dates.ts';
import type { GuestMessageKind } from '../../schema/guest-page.ts';
import { INDEXNOW_CHANNEL } from '../../schema/indexnow.ts';
import { bookings, cabins, guestChats, guestMaxChats, outbox, type OutboxRow } from '../../schema/tables.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = { DB: DatabasePort };

/**
 * Puts a message in the outbox for each channel, held by the caller until `lease` (ms) while it
 * tries at once; the lease is also the caller's mark (see stillHeld).
 */
export async function enqueue(
  env: DbEnv,
  channels: string[],
  message: { subject: string; text: string },
  leaseMs: number,
): Promise<{ ids: number[]; lease: number }> {
  const at = now();
  const lease = at + leaseMs;
  const rows = await getDb(env)
    .insert(outbox)
    .values(channels.map((channel) => ({ channel, ...message, nextAttemptAt: at, leaseUntil: lease, createdAt: at })))
    .returning({ id: outbox.id });
  return { ids: rows.map((r) => r.id), lease };
}

/** Whether the message is still unsent and held under this lease: nobody else took it over meanwhile. */
export async function stillHeld(env: DbEnv, id: number, lease: number): Promise<boolean> {
  const row = await getDb(env)
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(eq(outbox.id, id), eq(outbox.leaseUntil, lease), isNull(outbox.sentAt)))
    .get();
  return !!row;
}

/**
 * Rows due for another try and held by nobody, oldest first: the messages (every channel but
 * IndexNow's), or IndexNow's lists of addresses, which are kept in the outbox too but sent by a
 * drain of their own (worker/indexnow/send.ts) with their own share of a run's requests.
 */
export async function dueMessages(
  env: DbEnv,
  limit: number,
  of: 'messages' | 'indexnow' = 'messages',
): Promise<OutboxRow[]> {
  const at = now();
  return getDb(env)
    .select()
    .from(outbox)
    .where(
      and(
        of === 'indexnow' ? eq(outbox.channel, INDEXNOW_CHANNEL) : ne(outbox.channel, INDEXNOW_CHANNEL),
        isNull(outbox.sentAt),
        isNull(outbox.givenUpAt),
        lte(outbox.nextAttemptAt, at),
        or(isNull(outbox.leaseUntil), lt(outbox.leaseUntil, at)),
      ),
    )
    .orderBy(asc(outbox.id))
    .limit(limit);
}

/** Takes a message for one try: of two senders at once only one gets it. */
export async function claim(env: DbEnv, id: number, leaseMs: number): Promise<boolean> {
  const at = now();
  const rows = await getDb(env)
    .update(outbox)
    .set({ leaseUntil: at + leaseMs })
    .where(
      and(
        eq(outbox.id, id),
        isNull(outbox.sentAt),
        isNull(outbox.givenUpAt),
        or(isNull(outbox.leaseUntil), lt(outbox.leaseUntil, at)),
      ),
    )
    .returning({ id: outbox.id });
  return rows.length > 0;
}

export async function markSent(env: DbEnv, id: number) {
  await getDb(env)
    .update(outbox)
    .set({ sentAt: now(), leaseUntil: null, lastError: null, attempts: sql`${outbox.attempts} + 1` })
    .where(eq(outbox.id, id));
}

/** How many parts of the message have gone (a try resumes after them). */
export async function partsSentOf(env: DbEnv, id: number): Promise<number> {
  const row = await getDb(env).select({ n: outbox.partsSent }).from(outbox).where(eq(outbox.id, id)).get();
  return row?.n ?? 0;
}

/** One more part of the message has gone: `count` parts in all, written only over the count before it. */
export async function notePartSent(env: DbEnv, id: number, count: number) {
  await getDb(env)
    .update(outbox)
    .set({ partsSent: count })
    .where(and(eq(outbox.id, id), eq(outbox.partsSent, count - 1)));
}

/** A failed try: the cause, and when to try again (or never, `giveUp`). */
export async function markFailed(env: DbEnv, id: number, error: string, next: { retryAt: number } | { giveUp: true }) {
  await getDb(env)
    .update(outbox)
    .set({
      lastError: error.slice(0, 500),
      attempts: sql`${outbox.attempts} + 1`,
      leaseUntil: null,
      ...('giveUp' in next ? { givenUpAt: now() } : { nextAttemptAt: next.retryAt }),
    })
    .where(eq(outbox.id, id));
}

/**
 * Erases the owner's messages sent or given up before `before` (ms): their text may name a guest.
 * A guest's messages are their booking's record («Письма гостю») and go with it (the foreign key
 * cascades), or once its personal data was erased (forgetOldBookings leaves its e-mail empty).
 */
export async function forgetOldMessages(env: DbEnv, before: number): Promise<number> {
  const db = getDb(env);
  const [owners, erased] = await Promise.all([
    db
      .delete(outbox)
      .where(and(isNull(outbox.bookingId), or(lt(outbox.sentAt, before), lt(outbox.givenUpAt, before))))
      .returning({ id: outbox.id }),
    db
      .delete(outbox)
      .where(inArray(outbox.bookingId, db.select({ id: bookings.id }).from(bookings).where(eq(bookings.email, ''))))
      .returning({ id: outbox.id }),
  ]);
  return owners.length + erased.length;
}

// ——— The messages to a guest: one row per booking and kind, kept as the booking's record.

export type GuestMessageInput = {
  bookingId: number;
  kind: GuestMessageKind;
  /** 'email' unless said; 'telegram' with the guest's chat as the recipient; 'max' with their MAX user id; 'sms' with their phone in digits. */
  channel?: 'email' | 'telegram' | 'max' | 'sms';
  recipient: string;
  subject: string;
  text: string;
};

/**
 * Keeps a message to a guest, due now; held by the caller for `leaseMs` when it tries at once.
 * Undefined when the booking already has this message (each goes once per booking).
 */
export async function enqueueGuestMessage(
  env: DbEnv,
  m: GuestMessageInput,
  leaseMs?: number,
): Promise<{ id: number; lease: number | null } | undefined> {
  const at = now();
  const lease = leaseMs === undefined ? null : at + leaseMs;
  const [row] = await getDb(env)
    .insert(outbox)
    .values({ ...m, channel: m.channel ?? 'email', nextAttemptAt: at, leaseUntil: lease, createdAt: at })
    .onConflictDoNothing()
    .returning({ id: outbox.id });
  return row && { id: row.id, lease };
}

/** Several at once (the schedule's reminders and review requests); ones already kept are skipped. */
export async function enqueueGuestMessages(env: DbEnv, list: GuestMessageInput[]): Promise<number> {
  if (list.length === 0) return 0;
  const at = now();
  const rows = await getDb(env)
    .insert(outbox)
    .values(list.map((m) => ({ ...m, channel: m.channel ?? 'email', nextAttemptAt: at, createdAt: at })))
    .onConflictDoNothing()
    .returning({ id: outbox.id });
  return rows.length;
}

export async function guestMessageOf(
  env: DbEnv,
  bookingId: number,
  kind: GuestMessageKind,
): Promise<OutboxRow | undefined> {
  return getDb(env)
    .select()
    .from(outbox)
    .where(and(eq(outbox.bookingId, bookingId), eq(outbox.kind, kind), eq(outbox.channel, 'email')))
    .get();
}

/**
 * A booking's e-mails, in the order they were made («Письма гостю»). Its Telegram messages are
 * copies of these in a few words, kept apart (channel 'telegram').
 */
export async function guestMessagesOf(env: DbEnv, bookingId: number): Promise<OutboxRow[]> {
  return getDb(env)
    .select()
    .from(outbox)
    .where(and(eq(outbox.bookingId, bookingId), eq(outbox.channel, 'email')))
    .orderBy(asc(outbox.id));
}

/**
 * An unsent message made due again and held by the caller for `leaseMs` (a given-up one too);
 * `fresh` replaces its words (the owner's template as it is now). False when it was sent
 * meanwhile or someone holds it this moment.
 */
export async function rearmMessage(
  env: DbEnv,
  id: number,
  leaseMs: number,
  fresh?: Pick<GuestMessageInput, 'recipient' | 'subject' | 'text'>,
): Promise<number | null> {
  const at = now();
  const lease = at + leaseMs;
  const rows = await getDb(env)
    .update(outbox)
    .set({ ...fresh, givenUpAt: null, nextAttemptAt: at, leaseUntil: lease })
    .where(and(eq(outbox.id, id), isNull(outbox.sentAt), or(isNull(outbox.leaseUntil), lt(outbox.leaseUntil, at))))
    .returning({ id: outbox.id });
  return rows.length > 0 ? lease : null;
}

/** What a guest message's fate depends on: its booking's status and dates. */
export async function bookingsOfMessages(env: DbEnv, ids: number[]) {
  if (ids.length === 0) return [];
  return getDb(env)
    .select({ id: bookings.id, status: bookings.status, checkIn: bookings.checkIn, checkOut: bookings.checkOut })
    .from(bookings)
    .where(inArray(bookings.id, ids));
}

/** How many stays one run of the schedule takes up per kind of message at most (the rest next run). */
const STAYS_PER_RUN = 200;

/**
 * Confirmed stays with no `kind` message by `channel` yet whose `field` (arrival or departure)
 * falls within [from, to]: the ones the schedule's reminder or review request is due for. By
 * e-mail, the stays that have an address; by Telegram, the ones whose guest tied a chat
 * (`recipient` is then the chat).
 */
export async function staysDue(
  env: DbEnv,
  kind: GuestMessageKind,
  field: 'checkIn' | 'checkOut',
  from: IsoDate,
  to: IsoDate,
  channel: 'email' | 'telegram' | 'max' = 'email',
) {
  if (from > to) return [];
  const column = bookings[field];
  const byMail = channel === 'email';
  const fields = {
    id: bookings.id,
    name: bookings.name,
    recipient: byMail ? bookings.email : channel === 'max' ? guestMaxChats.userId : guestChats.chatId,
    checkIn: bookings.checkIn,
    checkOut: bookings.checkOut,
    guestToken: bookings.guestToken,
    cabinName: cabins.name,
  };
  const due = and(
    eq(bookings.status, 'confirmed'),
    isNotNull(bookings.guestToken),
    gte(column, from),
    lte(column, to),
    isNull(outbox.id),
  );
  const none = and(eq(outbox.bookingId, bookings.id), eq(outbox.kind, kind), eq(outbox.channel, channel));
  const db = getDb(env);
  const query = byMail
    ? db
        .select(fields)
        .from(bookings)
        .innerJoin(cabins, eq(cabins.id, bookings.cabinId))
        .leftJoin(outbox, none)
        .where(and(due, ne(bookings.email, '')))
    : channel === 'max'
      ? db
          .select(fields)
          .from(bookings)
          .innerJoin(cabins, eq(cabins.id, bookings.cabinId))
          .innerJoin(guestMaxChats, eq(guestMaxChats.bookingId, bookings.id))
          .leftJoin(outbox, none)
          .where(due)
      : db
          .select(fields)
          .from(bookings)
          .innerJoin(cabins, eq(cabins.id, bookings.cabinId))
          .innerJoin(guestChats, eq(guestChats.bookingId, bookings.id))
          .leftJoin(outbox, none)
          .where(due);
  return query.orderBy(asc(bookings.id)).limit(STAYS_PER_RUN);
}
