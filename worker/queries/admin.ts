import { eq, lte, ne } from 'drizzle-orm';
import { adminAccount, adminSessions } from '../../schema/tables.ts';
import { ADMIN_SESSION_MS, DEFAULT_ADMIN_PATH, DEFAULT_ADMIN_USERNAME } from '../../schema/constants.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { now } from '../lib/clock.ts';
import { hashPassword, sha256Hex } from '../lib/password.ts';

type DbEnv = { DB: DatabasePort; ADMIN_PASSWORD?: string };
export type AdminAccount = typeof adminAccount.$inferSelect;

/**
 * The single admin account. Created on first use from the ADMIN_PASSWORD secret; without the
 * secret there is no account and nobody can sign in (production has no default password).
 */
export async function getAdmin(env: DbEnv): Promise<AdminAccount | undefined> {
  const db = getDb(env);
  const row = await db.select().from(adminAccount).where(eq(adminAccount.id, 1)).get();
  if (row || !env.ADMIN_PASSWORD) return row;
  const passwordHash = await hashPassword(env.ADMIN_PASSWORD);
  await db
    .insert(adminAccount)
    .values({ id: 1, username: DEFAULT_ADMIN_USERNAME, passwordHash, adminPath: DEFAULT_ADMIN_PATH })
    .onConflictDoNothing();
  return db.select().from(adminAccount).where(eq(adminAccount.id, 1)).get();
}

/** The admin path as stored, without creating the account. */
export async function getAdminPath(env: DbEnv): Promise<string> {
  const row = await getDb(env).select({ adminPath: adminAccount.adminPath }).from(adminAccount).where(eq(adminAccount.id, 1)).get();
  return row?.adminPath ?? DEFAULT_ADMIN_PATH;
}

export async function setAdminPath(env: DbEnv, path: string): Promise<void> {
  await getAdmin(env);
  await getDb(env).update(adminAccount).set({ adminPath: path }).where(eq(adminAccount.id, 1));
}

export async function setCredentials(env: DbEnv, username: string, newPasswordHash: string | null): Promise<void> {
  await getAdmin(env);
  await getDb(env)
    .update(adminAccount)
    .set(newPasswordHash ? { username, passwordHash: newPasswordHash } : { username })
    .where(eq(adminAccount.id, 1));
}

/** Creates a session; returns the raw token for the cookie (only its hash is stored). */
export async function createSession(env: DbEnv): Promise<{ token: string; expiresAt: number }> {
  const token = [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('');
  const createdAt = now();
  const expiresAt = createdAt + ADMIN_SESSION_MS;
  const db = getDb(env);
  await db.batch([
    db.delete(adminSessions).where(lte(adminSessions.expiresAt, createdAt)),
    db.insert(adminSessions).values({ tokenHash: await sha256Hex(token), createdAt, expiresAt }),
  ]);
  return { token, expiresAt };
}

/** The live session for this token, or undefined if unknown or past its 30 minutes. */
export async function findSession(env: DbEnv, token: string) {
  const row = await getDb(env).select().from(adminSessions).where(eq(adminSessions.tokenHash, await sha256Hex(token))).get();
  return row && row.expiresAt > now() ? row : undefined;
}

export async function deleteSession(env: DbEnv, token: string): Promise<void> {
  await getDb(env).delete(adminSessions).where(eq(adminSessions.tokenHash, await sha256Hex(token)));
}

/** Ends every session but the given one (after the credentials change). */
export async function deleteOtherSessions(env: DbEnv, keepToken: string): Promise<void> {
  await getDb(env).delete(adminSessions).where(ne(adminSessions.tokenHash, await sha256Hex(keepToken)));
}
