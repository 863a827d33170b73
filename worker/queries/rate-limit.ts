import { sql } from 'drizzle-orm';
import type { GuessSchedule } from '../../schema/constants.ts';
import { rateLimits } from '../../schema/tables.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { now } from '../lib/clock.ts';

type DbEnv = { DB: DatabasePort };

/**
 * Counts one hit against `key` in a fixed window, atomically (one upsert), and returns the
 * count in the current window including this hit.
 */
export async function hit(env: DbEnv, key: string, windowMs: number): Promise<number> {
  const t = now();
  const expired = t - windowMs;
  const [row] = await getDb(env)
    .insert(rateLimits)
    .values({ key, windowStart: t, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`CASE WHEN ${rateLimits.windowStart} <= ${expired} THEN 1 ELSE ${rateLimits.count} + 1 END`,
        windowStart: sql`CASE WHEN ${rateLimits.windowStart} <= ${expired} THEN ${t} ELSE ${rateLimits.windowStart} END`,
      },
    })
    .returning({ count: rateLimits.count });
  return row!.count;
}

/** Hits counted against `key` in the current window, without counting one. */
export async function hits(env: DbEnv, key: string, windowMs: number): Promise<number> {
  const row = await getDb(env)
    .select()
    .from(rateLimits)
    .where(sql`${rateLimits.key} = ${key} AND ${rateLimits.windowStart} > ${now() - windowMs}`)
    .get();
  return row?.count ?? 0;
}

export async function clearHits(env: DbEnv, key: string): Promise<void> {
  await getDb(env).delete(rateLimits).where(sql`${rateLimits.key} = ${key}`);
}

/** How long the next guess waits after `count` wrong ones (GuessSchedule): none within the free ones. */
export const guessWaitMs = (s: GuessSchedule, count: number): number =>
  count < s.free ? 0 : Math.min(s.maxWaitMs, s.firstWaitMs * 2 ** Math.min(count - s.free, 30));

/**
 * Counts one guess against `key` unless it has to wait, in one upsert, so parallel guesses cannot
 * all read «room left» and slip past. Answers undefined when counted, else the milliseconds left
 * to wait (nothing counted: waiting guesses do not lengthen the wait). `window_start` is here
 * the moment of the last counted guess, from which the wait and `forgetMs` are measured.
 */
export async function countGuess(env: DbEnv, key: string, s: GuessSchedule): Promise<number | undefined> {
  const t = now();
  const forgotten = sql`${rateLimits.windowStart} <= ${t - s.forgetMs}`;
  // guessWaitMs in SQL (SQLite's shift is 64-bit; the exponent is capped as there).
  const waitMs = sql`min(${s.maxWaitMs}, ${s.firstWaitMs} * (1 << min(${rateLimits.count} - ${s.free}, 30)))`;
  const counted = await getDb(env)
    .insert(rateLimits)
    .values({ key, windowStart: t, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: { count: sql`CASE WHEN ${forgotten} THEN 1 ELSE ${rateLimits.count} + 1 END`, windowStart: t },
      setWhere: sql`${forgotten} OR ${rateLimits.count} < ${s.free} OR ${rateLimits.windowStart} + ${waitMs} <= ${t}`,
    })
    .returning({ count: rateLimits.count });
  if (counted.length > 0) return undefined;
  const row = await getDb(env).select().from(rateLimits).where(sql`${rateLimits.key} = ${key}`).get();
  // Never 0: the row changed in between only if another guess was just counted.
  return Math.max(row ? row.windowStart + guessWaitMs(s, row.count) - t : 0, 1000);
}

/** Takes back one guess counted by countGuess (it turned out not to be a wrong one); earlier ones stay. */
export async function uncountGuess(env: DbEnv, key: string): Promise<void> {
  await getDb(env)
    .update(rateLimits)
    .set({ count: sql`max(${rateLimits.count} - 1, 0)` })
    .where(sql`${rateLimits.key} = ${key}`);
}
