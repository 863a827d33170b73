import { eq } from 'drizzle-orm';
import { dataStamp } from '../../schema/tables.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';

/**
 * The token that every write to a table public reads are made from replaces (a trigger on each,
 * migrations/0005_data_stamp.sql). Equal tokens, equal data. Null when the row is missing (the
 * tables were emptied by hand): nothing can be told apart until the next write.
 */
export async function readDataStamp(env: { DB: DatabasePort }): Promise<string | null> {
  const row = await getDb(env).select({ token: dataStamp.token }).from(dataStamp).where(eq(dataStamp.id, 1)).get();
  return row?.token ?? null;
}
