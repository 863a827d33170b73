import { and, asc, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { outbox, type OutboxRow } from '../../schema/tables.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = { DB: DatabasePort };

/**
 * Puts a message in the outbox for each channel, held by the caller until `lease` (ms) while it
 * tries at once; the lease is also the caller's mark (see stillHeld).
 */
export async function enqueue(env: DbEnv, channels: string[], message: { subject: string; text: string }, leaseMs: number): Promise<{ ids: number[]; lease: number }> {
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
  const row = await getDb(env).select({ id: outbox.id }).from(outbox).where(and(eq(outbox.id, id), eq(outbox.leaseUntil, lease), isNull(outbox.sentAt))).get();
  return !!row;
}

/** Messages due for another try and held by nobody, oldest first. */
export async function dueMessages(env: DbEnv, limit: number): Promise<OutboxRow[]> {
  const at = now();
  return getDb(env)
    .select()
    .from(outbox)
    .where(and(isNull(outbox.sentAt), isNull(outbox.givenUpAt), lte(outbox.nextAttemptAt, at), or(isNull(outbox.leaseUntil), lt(outbox.leaseUntil, at))))
    .orderBy(asc(outbox.id))
    .limit(limit);
}

/** Takes a message for one try: of two senders at once only one gets it. */
export async function claim(env: DbEnv, id: number, leaseMs: number): Promise<boolean> {
  const at = now();
  const rows = await getDb(env)
    .update(outbox)
    .set({ leaseUntil: at + leaseMs })
    .where(and(eq(outbox.id, id), isNull(outbox.sentAt), isNull(outbox.givenUpAt), or(isNull(outbox.leaseUntil), lt(outbox.leaseUntil, at))))
    .returning({ id: outbox.id });
  return rows.length > 0;
}

export async function markSent(env: DbEnv, id: number) {
  await getDb(env).update(outbox).set({ sentAt: now(), leaseUntil: null, lastError: null, attempts: sql`${outbox.attempts} + 1` }).where(eq(outbox.id, id));
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

/** Erases messages sent or given up before `before` (ms): their text may name a guest. */
export async function forgetOldMessages(env: DbEnv, before: number): Promise<number> {
  const rows = await getDb(env).delete(outbox).where(or(lt(outbox.sentAt, before), lt(outbox.givenUpAt, before))).returning({ id: outbox.id });
  return rows.length;
}
