import { drizzle } from 'drizzle-orm/d1';
import * as tables from '../../schema/tables.ts';

export const getDb = (env: { DB: D1Database }) => drizzle(env.DB, { schema: tables });
export type Db = ReturnType<typeof getDb>;
