import { eq, sql } from 'drizzle-orm';
import { siteState } from '../../schema/tables.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = { DB: DatabasePort };
const VERSION = 'contentVersion';

/** Bumps the version of public content and returns the new one. */
export async function bumpContentVersion(env: DbEnv): Promise<number> {
  const [row] = await getDb(env)
    .insert(siteState)
    .values({ key: VERSION, value: '1' })
    .onConflictDoUpdate({ target: siteState.key, set: { value: sql`CAST(${siteState.value} AS INTEGER) + 1` } })
    .returning({ value: siteState.value });
  return Number(row!.value);
}

export async function getContentVersion(env: DbEnv): Promise<number> {
  const row = await getDb(env).select().from(siteState).where(eq(siteState.key, VERSION)).get();
  return Number(row?.value ?? 0);
}

/**
 * One JSON record of site_state under `key`, read through its schema (a row that no longer parses
 * reads as absent), saved whole and forgotten: the MAX bot's and the guests' Telegram bot's.
 */
export function siteRecord<T>(
  key: string,
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
) {
  /** The record's row, not yet read: for a batch (`from` reads what it returns). */
  const query = (env: DbEnv) => getDb(env).select().from(siteState).where(eq(siteState.key, key)).limit(1);
  const from = (rows: { value: string }[]): T | null => {
    const row = rows[0];
    if (!row) return null;
    try {
      const parsed = schema.safeParse(JSON.parse(row.value));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  };
  return {
    query,
    from,
    async read(env: DbEnv): Promise<T | null> {
      return from(await query(env));
    },
    async save(env: DbEnv, value: T): Promise<void> {
      await getDb(env)
        .insert(siteState)
        .values({ key, value: JSON.stringify(value) })
        .onConflictDoUpdate({ target: siteState.key, set: { value: sql`excluded.value` } });
    },
    async forget(env: DbEnv): Promise<void> {
      await getDb(env).delete(siteState).where(eq(siteState.key, key));
    },
  };
}
