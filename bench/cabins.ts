import { count, eq } from 'drizzle-orm';
import { cabins, type Cabin } from '../schema/tables.ts';
import { getDb } from '../worker/lib/db.ts';
import { withLocalBindings } from '../scripts/lib/local-bindings.ts';
import type { DatabasePort } from '../worker/platform/ports.ts';

/**
 * Grows the bench's local D1 to `targetActive` active cabins by cloning the demo cabins
 * (same texts, amenities and /media/ photos, a numbered name). Writes straight into the local
 * D1 the running `wrangler dev` uses, as scripts/seed.ts does, so no rebuild hook fires.
 * Returns the active and total counts afterwards.
 */
export async function growCabins(persistTo: string, targetActive: number): Promise<{ active: number; total: number }> {
  return withLocalBindings(persistTo, (env) => growCabinsIn(env, targetActive));
}

/** The same on any database port (the self-hosted server's SQLite file too). */
export async function growCabinsIn(
  env: { DB: DatabasePort },
  targetActive: number,
): Promise<{ active: number; total: number }> {
  {
    const db = getDb(env);
    const templates: Cabin[] = await db.select().from(cabins).where(eq(cabins.active, true)).orderBy(cabins.id);
    if (templates.length === 0) throw new Error('No active cabins to clone');
    let active = templates.length;
    const rows = [];
    for (let i = 0; active + rows.length < targetActive; i++) {
      const { id: _id, ...t } = templates[i % templates.length]!;
      rows.push({ ...t, name: `${t.name} · №${active + rows.length + 1}`, featured: false });
    }
    // One statement per row (D1 allows at most 100 bound parameters a statement), sent in batches.
    for (let i = 0; i < rows.length; i += 100) {
      const chunk = rows.slice(i, i + 100).map((row) => db.insert(cabins).values(row));
      if (chunk.length > 0) await db.batch(chunk as [(typeof chunk)[0], ...typeof chunk]);
    }
    active += rows.length;
    const [all] = await db.select({ n: count() }).from(cabins);
    return { active, total: all!.n };
  }
}
