import { drizzle } from 'drizzle-orm/d1';
import * as tables from '../../schema/tables.ts';
import type { DatabasePort } from '../platform/ports.ts';

/** drizzle's D1 dialect over the database port: D1 on Workers, SQLite on Node. */
export const getDb = (env: { DB: DatabasePort }) => drizzle(env.DB as D1Database, { schema: tables });
export type Db = ReturnType<typeof getDb>;
