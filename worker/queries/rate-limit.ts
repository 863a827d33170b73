import { sql } from 'drizzle-orm';
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
