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
