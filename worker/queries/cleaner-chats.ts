// Where a cleaner gets the day's list each morning (worker/notify/cleaning.ts): the chats they tied
// to the owner's bot by a one-time code of their own, made from their «Сегодня».
import { and, eq, lt, sql } from 'drizzle-orm';
import { cleanerChats, cleanerLinkCodes, users } from '../../schema/tables.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import { sha256Hex } from '../lib/password.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { randomHex } from './guest-bots.ts';

type DbEnv = { DB: DatabasePort };
export type CleanerMessenger = 'telegram' | 'max';

/**
 * A new one-time code for a cleaner's link to the bot of `channel`; only its hash is stored. Codes
 * that ran out more than a day ago are swept in the same batch. The code starts with «c», so it is
 * never one of a guest's.
 */
export async function newCleanerCode(
  env: DbEnv,
  userId: number,
  channel: CleanerMessenger,
  ttlMs: number,
): Promise<{ code: string; expiresAt: number }> {
  const code = `c${randomHex(16)}`;
  const at = now();
  const db = getDb(env);
  await db.batch([
    db.delete(cleanerLinkCodes).where(lt(cleanerLinkCodes.expiresAt, at - 24 * 60 * 60_000)),
    db
      .insert(cleanerLinkCodes)
      .values({ codeHash: await sha256Hex(code), userId, channel, createdAt: at, expiresAt: at + ttlMs }),
  ]);
  return { code, expiresAt: at + ttlMs };
}

/** The messengers a cleaner tied a chat in. */
export async function chatsOfCleaner(env: DbEnv, userId: number): Promise<CleanerMessenger[]> {
  const rows = await getDb(env)
    .select({ channel: cleanerChats.channel })
    .from(cleanerChats)
    .where(eq(cleanerChats.userId, userId));
  return rows.map((r) => r.channel as CleanerMessenger);
}

/** The owner unties a cleaner's chats: no more morning lists. */
export async function untieCleanerChats(env: DbEnv, userId: number): Promise<'untied' | 'missing' | 'notCleaner'> {
  const db = getDb(env);
  const [, found] = await db.batch([
    db
      .delete(cleanerChats)
      .where(
        and(
          eq(cleanerChats.userId, userId),
          sql`exists (select 1 from users where id = ${userId} and role = 'cleaner')`,
        ),
      ),
    db.select({ role: users.role }).from(users).where(eq(users.id, userId)),
  ]);
  const user = found[0];
  return !user ? 'missing' : user.role === 'cleaner' ? 'untied' : 'notCleaner';
}
