import { getTableColumns, sql, type Column, type SQL } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { drizzle } from 'drizzle-orm/d1';
import * as tables from '../../schema/tables.ts';
import type { DatabasePort } from '../platform/ports.ts';

const made = new WeakMap<DatabasePort, Db>();

/**
 * drizzle's D1 dialect over the database port: D1 on Workers, SQLite on Node. Made once per port
 * (drizzle() reads the whole schema's relations each time, and a search asks for it seven times).
 */
export const getDb = (env: { DB: DatabasePort }): Db => {
  let db = made.get(env.DB);
  if (!db) made.set(env.DB, (db = makeDb(env.DB)));
  return db;
};
const makeDb = (port: DatabasePort) => drizzle(port as D1Database, { schema: tables });
export type Db = ReturnType<typeof makeDb>;

/**
 * The rows of a select of plain columns, as drizzle gives them (each column decoded its own way:
 * JSON, booleans), made from the query's bare values. drizzle's own mapping makes a few KB of
 * short-lived objects for every row: for search's 1,500 cabins, 5 MB of garbage a request.
 * `select` must select exactly `columns` (no joins, no nested objects, no SQL expressions).
 */
export async function plainRows<C extends Record<string, Column>, R>(
  columns: C,
  select: (columns: C) => PromiseLike<R[]> & { values(): Promise<unknown[][]> },
): Promise<R[]> {
  const fields = Object.entries(columns);
  const values = await select(columns).values();
  return values.map((value) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < fields.length; i++) {
      const [name, column] = fields[i]!;
      const raw = value[i];
      row[name] = raw === null || raw === undefined ? null : column.mapFromDriverValue(raw);
    }
    return row as R;
  });
}

/**
 * An INSERT … SELECT of one row that writes only `when` the condition holds, for a batch (a raw
 * statement with parameters cannot go in drizzle's D1 batch). drizzle lists every column of the
 * table in such an insert, so the values follow the table's own column order; a column not given
 * takes its default, else is NULL (an autoincrement id takes the next). With `from`, a value may be an SQL expression
 * of that table's row (a guest's Telegram chat), and no row there writes nothing.
 */
export function insertWhen<T extends SQLiteTable>(
  db: Db,
  table: T,
  values: Partial<Record<keyof T['$inferInsert'], unknown>>,
  when: SQL,
  from?: SQL,
) {
  const given = values as Record<string, unknown>;
  const list = sql.join(
    Object.entries(getTableColumns(table)).map(
      ([field, column]) => sql`${given[field] ?? (column.hasDefault ? column.default : undefined) ?? null}`,
    ),
    sql`, `,
  );
  return db
    .insert(table)
    .select(from ? sql`select ${list} from ${from} where ${when}` : sql`select ${list} where ${when}`);
}
