// The end of a hold without its payment (docs/architecture.md «Transitions»): the hold ran out
// (the schedule, «Заявки» or the guest's page noticed first), or ЮKassa could not be reached and
// the booking becomes a plain request. Each is one batch conditional on the booking still being
// held: the promo code's use given back, the owner's «Бронь истекла» kept in the outbox, and the
// status moved, so of the schedule, the panel and the guest's page noticing at once one acts.
import { and, eq, lt, sql, type SQL } from 'drizzle-orm';
import { bookings, cabins, type Booking } from '../../schema/tables.ts';
import type { Bindings } from '../env.ts';
import { getDb } from '../lib/db.ts';
import { holdExpiredNotice } from '../notify/notices.ts';
import { nowIso } from '../queries/bookings.ts';
import { keepWhen, reachOf, sendKept, statementsOf, type KeptMessages } from './messages.ts';
import { releasePromoWhen } from './promo.ts';

/** The holds ended, and a task that tries the owner's messages at once. */
export type Ended = { bookings: Booking[]; send: () => Promise<void> };

const held = (id: number): SQL =>
  sql`exists (select 1 from bookings b where b.id = ${id} and b.status = 'awaiting_payment')`;
const ranOut = (id: number, at: string): SQL =>
  sql`exists (select 1 from bookings b where b.id = ${id} and b.status = 'awaiting_payment' and b.hold_until < ${at})`;

/**
 * Every hold whose time has ran out becomes «Бронь истекла» (its nights are already free by the
 * rule), or only booking `id`'s. The owner hears of each once.
 */
export async function expireHolds(env: Bindings, id?: number): Promise<Ended> {
  const db = getDb(env);
  const at = nowIso();
  const due = await db
    .select({ booking: bookings, cabinName: cabins.name })
    .from(bookings)
    .innerJoin(cabins, eq(cabins.id, bookings.cabinId))
    .where(
      and(
        eq(bookings.status, 'awaiting_payment'),
        lt(bookings.holdUntil, at),
        id === undefined ? undefined : eq(bookings.id, id),
      ),
    );
  if (due.length === 0) return { bookings: [], send: async () => {} };
  const reach = await reachOf(env);
  const kept: KeptMessages[] = [];
  const writes: unknown[] = [];
  for (const { booking: b, cabinName } of due) {
    const when = ranOut(b.id, at);
    kept.push(keepWhen(env, when, [{ to: 'owner', notice: holdExpiredNotice(b, cabinName, env.SITE_URL) }], reach));
    writes.push(releasePromoWhen(env, b.id, when));
    writes.push(
      db
        .update(bookings)
        .set({ status: 'expired', promoClaimed: false, updatedAt: at })
        .where(sql`bookings.id = ${b.id} and bookings.status = 'awaiting_payment' and bookings.hold_until < ${at}`)
        .returning(),
    );
  }
  return runEnding(env, kept, writes, reach);
}

/** ЮKassa could not be reached: the held booking becomes a plain request («Новая»), its nights free and its code's use given back. */
export async function revertHold(env: Bindings, id: number): Promise<Booking | undefined> {
  const db = getDb(env);
  const when = held(id);
  const [, rows] = await db.batch([
    releasePromoWhen(env, id, when),
    db
      .update(bookings)
      .set({ status: 'new', holdUntil: null, promoClaimed: false, updatedAt: nowIso() })
      .where(and(eq(bookings.id, id), eq(bookings.status, 'awaiting_payment')))
      .returning(),
  ]);
  return rows[0];
}

async function runEnding(
  env: Bindings,
  kept: KeptMessages[],
  writes: unknown[],
  reach: Awaited<ReturnType<typeof reachOf>>,
): Promise<Ended> {
  // Each booking's messages, then its writes: a message's condition is read before its booking moves.
  const statements: unknown[] = [];
  kept.forEach((k, i) => statements.push(...statementsOf(k), writes[2 * i], writes[2 * i + 1]));
  const results = (await getDb(env).batch(
    statements as unknown as Parameters<ReturnType<typeof getDb>['batch']>[0],
  )) as unknown as unknown[];
  const ended: Booking[] = [];
  const sends: (() => Promise<unknown>)[] = [];
  let i = 0;
  for (const k of kept) {
    const msgResults = results.slice(i, i + k.statements.length) as { id: number }[][];
    i += k.statements.length;
    const moved = (results[i + 1] as Booking[])[0];
    i += 2;
    if (!moved) continue;
    ended.push(moved);
    sends.push(() => sendKept(env, k, msgResults, reach));
  }
  return { bookings: ended, send: async () => void (await Promise.all(sends.map((s) => s()))) };
}
