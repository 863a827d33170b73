import { eq, lte, or } from 'drizzle-orm';
import { DEVICE_COOKIE_MS } from '../../schema/constants.ts';
import { knownDevices } from '../../schema/tables.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import { sha256Hex } from '../lib/password.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = { DB: DatabasePort };

/** The known device a device cookie's token names, with whose it is; undefined if unknown or past its time. */
export async function findDevice(env: DbEnv, token: string): Promise<{ id: number; userId: number } | undefined> {
  const row = await getDb(env)
    .select({ id: knownDevices.id, userId: knownDevices.userId, lastUsedAt: knownDevices.lastUsedAt })
    .from(knownDevices)
    .where(eq(knownDevices.tokenHash, await sha256Hex(token)))
    .get();
  return row && row.lastUsedAt > now() - DEVICE_COOKIE_MS ? { id: row.id, userId: row.userId } : undefined;
}

/**
 * Remembers the browser a person just signed in from under a new token, answered for its cookie
 * (only the hash is stored): the token it came with, if any, is forgotten, so a copy of an old
 * cookie names nothing; devices past their time are swept in the same batch.
 */
export async function rememberDevice(env: DbEnv, userId: number, oldToken: string | undefined): Promise<string> {
  const token = [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('');
  const t = now();
  const db = getDb(env);
  const stale = lte(knownDevices.lastUsedAt, t - DEVICE_COOKIE_MS);
  await db.batch([
    db.delete(knownDevices).where(oldToken ? or(stale, eq(knownDevices.tokenHash, await sha256Hex(oldToken))) : stale),
    db.insert(knownDevices).values({ tokenHash: await sha256Hex(token), userId, lastUsedAt: t }),
  ]);
  return token;
}
