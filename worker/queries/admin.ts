import { eq } from 'drizzle-orm';
import { adminAccount } from '../../schema/tables.ts';
import { DEFAULT_ADMIN_PATH } from '../../schema/constants.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = { DB: DatabasePort };

// The secret path of the admin panel (one row). Who signs in is worker/queries/users.ts.

/** The admin path as stored, the default until the owner changes it. */
export async function getAdminPath(env: DbEnv): Promise<string> {
  const row = await getDb(env)
    .select({ adminPath: adminAccount.adminPath })
    .from(adminAccount)
    .where(eq(adminAccount.id, 1))
    .get();
  return row?.adminPath ?? DEFAULT_ADMIN_PATH;
}

export async function setAdminPath(env: DbEnv, path: string): Promise<void> {
  await getDb(env)
    .insert(adminAccount)
    .values({ id: 1, adminPath: path })
    .onConflictDoUpdate({ target: adminAccount.id, set: { adminPath: path } });
}
