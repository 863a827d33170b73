import { asc, count, eq, sql } from 'drizzle-orm';
import { cabins, type Cabin } from '../../schema/tables.ts';
import type { CabinInput, CabinUpdate } from '../../schema/cabins.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = { DB: DatabasePort };

export async function listCabins(env: DbEnv, opts: { includeInactive?: boolean } = {}): Promise<Cabin[]> {
  const q = getDb(env).select().from(cabins);
  return (opts.includeInactive ? q : q.where(eq(cabins.active, true))).orderBy(asc(cabins.id));
}

/** One page of the active cabins (pages from 1, `pageSize` each) and how many there are in all. */
export async function listCabinsPage(
  env: DbEnv,
  page: number,
  pageSize: number,
): Promise<{ cabins: Cabin[]; total: number }> {
  const db = getDb(env);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(cabins)
      .where(eq(cabins.active, true))
      .orderBy(asc(cabins.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(cabins).where(eq(cabins.active, true)),
  ]);
  return { cabins: rows, total: counted?.n ?? 0 };
}

/** Every cabin's name by id, inactive ones too (alerts, the channels screen). */
export async function listCabinNames(env: DbEnv): Promise<Map<number, string>> {
  const rows = await getDb(env).select({ id: cabins.id, name: cabins.name }).from(cabins);
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function getCabin(env: DbEnv, id: number): Promise<Cabin | undefined> {
  return getDb(env).select().from(cabins).where(eq(cabins.id, id)).get();
}

export async function createCabin(env: DbEnv, input: CabinInput): Promise<Cabin> {
  const [row] = await getDb(env).insert(cabins).values(input).returning();
  return row!;
}

/** Undefined when there is no such cabin. */
export async function updateCabin(env: DbEnv, id: number, patch: CabinUpdate): Promise<Cabin | undefined> {
  if (Object.keys(patch).length === 0) return getCabin(env, id);
  const [row] = await getDb(env).update(cabins).set(patch).where(eq(cabins.id, id)).returning();
  return row;
}

/**
 * Deletes a cabin that has no bookings. One with bookings is only made inactive: its bookings
 * (and their payments, records of money) would go with it. The check is inside the one DELETE;
 * a trigger (migrations/0012_money_kept.sql) refuses such a delete from anywhere else.
 */
export async function deleteCabin(env: DbEnv, id: number): Promise<'deleted' | 'missing' | 'booked'> {
  const [row] = await getDb(env)
    .delete(cabins)
    .where(sql`cabins.id = ${id} and not exists (select 1 from bookings b where b.cabin_id = cabins.id)`)
    .returning({ id: cabins.id });
  if (row) return 'deleted';
  return (await getCabin(env, id)) ? 'booked' : 'missing';
}
