// A cleaner's private sign-in link (docs/security.md «Keys that are not typed»): a random token of
// 256 bits, of which only the SHA-256 is kept; opening the link makes a session as signing in does.
import { and, eq, lte, sql } from 'drizzle-orm';
import { adminSessions, cleanerChats, signInLinks, users } from '../../schema/tables.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import { sha256Hex } from '../lib/password.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { createSession } from './sessions.ts';

type DbEnv = { DB: DatabasePort };

/** The token's shape in a link: 32 random bytes as hex. */
export const SIGN_IN_TOKEN = /^[0-9a-f]{64}$/;

const randomToken = () =>
  [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('');

type NotACleaner = 'missing' | 'notCleaner';

async function whyNot(env: DbEnv, userId: number): Promise<NotACleaner> {
  const user = await getDb(env).select({ role: users.role }).from(users).where(eq(users.id, userId)).get();
  return user ? 'notCleaner' : 'missing';
}

/**
 * A new link for a cleaner, in place of the one they had (the old one stops working; sessions it
 * opened go on until they end). Answers the raw token, which is not kept anywhere.
 */
export async function makeSignInLink(
  env: DbEnv,
  userId: number,
): Promise<{ token: string; createdAt: number } | NotACleaner> {
  const token = randomToken();
  const createdAt = now();
  const rows = await getDb(env).all<{ userId: number }>(sql`insert into sign_in_links (user_id, token_hash, created_at)
    select id, ${await sha256Hex(token)}, ${createdAt} from users where id = ${userId} and role = 'cleaner'
    on conflict (user_id) do update set token_hash = excluded.token_hash, created_at = excluded.created_at
    returning user_id as userId`);
  return rows.length > 0 ? { token, createdAt } : whyNot(env, userId);
}

/** Takes a cleaner's link away, ends every session of theirs and unties their chats (no more morning lists), in one batch. */
export async function revokeSignInLink(env: DbEnv, userId: number): Promise<'revoked' | NotACleaner> {
  const db = getDb(env);
  const isCleaner = sql`exists (select 1 from users where id = ${userId} and role = 'cleaner')`;
  const [, , , found] = await db.batch([
    db.delete(signInLinks).where(and(eq(signInLinks.userId, userId), isCleaner)),
    db.delete(adminSessions).where(and(eq(adminSessions.userId, userId), isCleaner)),
    db.delete(cleanerChats).where(and(eq(cleanerChats.userId, userId), isCleaner)),
    db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.role, 'cleaner'))),
  ]);
  return found.length > 0 ? 'revoked' : whyNot(env, userId);
}

/** The cleaner a live link belongs to, by its token's hash; undefined for a link nobody has. */
export async function findSignInLink(
  env: DbEnv,
  token: string,
): Promise<{ userId: number; username: string } | undefined> {
  return getDb(env)
    .select({ userId: users.id, username: users.username })
    .from(signInLinks)
    .innerJoin(users, eq(users.id, signInLinks.userId))
    .where(and(eq(signInLinks.tokenHash, await sha256Hex(token)), eq(users.role, 'cleaner')))
    .get();
}

/**
 * Opening a live link: a new session of its cleaner. Without one (a link revoked, replaced or never
 * made) the same write happens without the session: the ended sessions are swept, as a new
 * session's batch sweeps them, so both answers cost one lookup and one write.
 */
export async function openLinkSession(
  env: DbEnv,
  link: { userId: number } | undefined,
  who: { userAgent?: string; ip?: string },
): Promise<{ token: string } | undefined> {
  if (!link) {
    await getDb(env).delete(adminSessions).where(lte(adminSessions.expiresAt, now()));
    return undefined;
  }
  const session = await createSession(env, { userId: link.userId, ...who });
  return { token: session.token };
}
