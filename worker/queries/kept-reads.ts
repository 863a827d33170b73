import { eq, sql, type SQL } from 'drizzle-orm';
import { dataStamp } from '../../schema/tables.ts';
import { getDb } from '../lib/db.ts';
import type { Bindings } from '../env.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = Pick<Bindings, 'DB' | 'DATA_STAMP_SEEN'>;

/** The data stamp's query (worker/queries/data-stamp.ts), not yet run: the first of a batch that keeps reads. */
export const dataStampQuery = (env: DbEnv) =>
  getDb(env).select({ token: dataStamp.token }).from(dataStamp).where(eq(dataStamp.id, 1));

/**
 * What a route made from reads that change only with the data (1,500 cabins' rows, the
 * settings), kept per database port (a Worker's isolate, the self-hosted server) under the data
 * stamp they were read with. The stamp is one row that a trigger renews on every write, whoever
 * makes it (migrations/0005_data_stamp.sql), so the kept value is given only while nothing was
 * written since. Nothing here asks which runtime it runs on: both read the stamp from the
 * database, in the same batch as the route's other reads, so keeping costs no round trip:
 *
 *   const keep = kept.begin(env);
 *   const [stampRows, rowsA, rowsB, …live] = await db.batch([dataStampQuery(env), a.where(keep.changed), b.where(keep.changed), …]);
 *   const value = keep.value(stampRows, () => make(rowsA, rowsB));
 *
 * The kept queries carry `keep.changed`, a condition that holds only when the stamp is not the
 * kept one: SQLite evaluates it once, before any row, so with the data unchanged they return no
 * rows and cost next to nothing; the batch is one transaction, so the stamp and the rows agree.
 */
export function keptPerDatabase<T>() {
  const memory = new WeakMap<DatabasePort, { stamp: string; value: T }>();
  return {
    begin(env: DbEnv) {
      // Taken now: what the queries' condition compares with is what value() may give.
      const held = memory.get(env.DB);
      return {
        changed: held
          ? sql`not exists (select 1 from ${dataStamp} where ${dataStamp.id} = 1 and ${dataStamp.token} = ${held.stamp})`
          : (undefined as SQL | undefined),
        /** The kept value when the stamp read in the batch is the one it was kept under, else `make()` of the rows just read, kept. */
        value(stampRows: { token: string }[], make: () => T): T {
          const stamp = stampRows[0]?.token ?? null;
          env.DATA_STAMP_SEEN?.(stamp);
          if (held && stamp === held.stamp) return held.value;
          const value = make();
          // No stamp (the row emptied by hand): nothing can be told apart, so nothing is kept.
          if (stamp === null) memory.delete(env.DB);
          else memory.set(env.DB, { stamp, value });
          return value;
        },
      };
    },
  };
}
