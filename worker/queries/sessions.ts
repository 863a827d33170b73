import { and, desc, eq, gt, lte, ne } from 'drizzle-orm';
import type { Role, SessionView } from '../../schema/account.ts';
import { ADMIN_SESSION_MS } from '../../schema/constants.ts';
import { adminSessions, users } from '../../schema/tables.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import { sha256Hex } from '../lib/password.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = { DB: DatabasePort };

/** Who a live session belongs to, as requireAdmin hands it to the routes. */
export type SessionUser = { id: number; username: string; role: Role; twoFactor: boolean };
export type LiveSession = { id: number; createdAt: number; expiresAt: number; lastSeenAt: number; user: SessionUser };

/** What a browser says it is, kept short: «Аккаунт» shows it to tell the sessions apart. */
const USER_AGENT_MAX = 300;

/**
 * Creates a session of a person; returns the raw token for the cookie (only its hash is stored)
 * and sweeps the expired ones in the same batch.
 */
export async function createSession(
  env: DbEnv,
  who: { userId: number; userAgent?: string; ip?: string },
): Promise<{ id: number; token: string; expiresAt: number }> {
  const token = [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('');
  const createdAt = now();
  const expiresAt = createdAt + ADMIN_SESSION_MS;
  const db = getDb(env);
  const [, [row]] = await db.batch([
    db.delete(adminSessions).where(lte(adminSessions.expiresAt, createdAt)),
    db
      .insert(adminSessions)
      .values({
        tokenHash: await sha256Hex(token),
        userId: who.userId,
        createdAt,
        expiresAt,
        lastSeenAt: createdAt,
        userAgent: (who.userAgent ?? '').slice(0, USER_AGENT_MAX),
        ip: who.ip ?? '',
      })
      .returning({ id: adminSessions.id }),
  ]);
  return { id: row!.id, token, expiresAt };
}

/** The live session of this token with its person, or undefined if unknown or past its 30 minutes. */
export async function findSession(env: DbEnv, token: string): Promise<LiveSession | undefined> {
  const row = await getDb(env)
    .select({
      id: adminSessions.id,
      createdAt: adminSessions.createdAt,
      expiresAt: adminSessions.expiresAt,
      lastSeenAt: adminSessions.lastSeenAt,
      userId: users.id,
      username: users.username,
      role: users.role,
      totpSecret: users.totpSecret,
    })
    .from(adminSessions)
    .innerJoin(users, eq(users.id, adminSessions.userId))
    .where(eq(adminSessions.tokenHash, await sha256Hex(token)))
    .get();
  if (!row || row.expiresAt <= now()) return undefined;
  const { userId, username, role, totpSecret, ...session } = row;
  return { ...session, user: { id: userId, username, role, twoFactor: totpSecret !== null } };
}

/** «Last seen» and from where, written when a minute has passed since the last time (SESSION_TOUCH_MS). */
export async function touchSession(env: DbEnv, id: number, ip: string): Promise<void> {
  await getDb(env).update(adminSessions).set({ lastSeenAt: now(), ip }).where(eq(adminSessions.id, id));
}

/** Logout: the session of this token, if any; answers whose it was. */
export async function deleteSession(env: DbEnv, token: string): Promise<{ userId: number } | undefined> {
  const [row] = await getDb(env)
    .delete(adminSessions)
    .where(eq(adminSessions.tokenHash, await sha256Hex(token)))
    .returning({ userId: adminSessions.userId });
  return row;
}

/**
 * The live sessions of a person (or of everyone, for the owner's `?all=1`), the latest seen
 * first. Never the token or its hash: a session is named by its id.
 */
export async function listSessions(env: DbEnv, currentId: number, userId: number | null): Promise<SessionView[]> {
  const live = gt(adminSessions.expiresAt, now());
  const rows = await getDb(env)
    .select({
      id: adminSessions.id,
      username: users.username,
      userAgent: adminSessions.userAgent,
      ip: adminSessions.ip,
      createdAt: adminSessions.createdAt,
      lastSeenAt: adminSessions.lastSeenAt,
    })
    .from(adminSessions)
    .innerJoin(users, eq(users.id, adminSessions.userId))
    .where(userId === null ? live : and(live, eq(adminSessions.userId, userId)))
    .orderBy(desc(adminSessions.lastSeenAt), desc(adminSessions.id))
    .all();
  return rows.map((r) => ({ ...r, current: r.id === currentId }));
}

/** Whose a live session is and where it was used from, for «Журнал» when it is ended. */
export async function sessionOwner(
  env: DbEnv,
  id: number,
): Promise<{ username: string; userAgent: string; ip: string } | undefined> {
  return getDb(env)
    .select({ username: users.username, userAgent: adminSessions.userAgent, ip: adminSessions.ip })
    .from(adminSessions)
    .innerJoin(users, eq(users.id, adminSessions.userId))
    .where(and(eq(adminSessions.id, id), gt(adminSessions.expiresAt, now())))
    .get();
}

/** Ends one session: of this person only, or anyone's when `userId` is null (the owner). */
export async function endSession(env: DbEnv, id: number, userId: number | null): Promise<boolean> {
  const rows = await getDb(env)
    .delete(adminSessions)
    .where(userId === null ? eq(adminSessions.id, id) : and(eq(adminSessions.id, id), eq(adminSessions.userId, userId)))
    .returning({ id: adminSessions.id });
  return rows.length > 0;
}

/** Ends every session of a person but the one in use; answers how many ended. */
export async function endOtherSessions(env: DbEnv, userId: number, keepId: number): Promise<number> {
  const rows = await getDb(env)
    .delete(adminSessions)
    .where(and(eq(adminSessions.userId, userId), ne(adminSessions.id, keepId)))
    .returning({ id: adminSessions.id });
  return rows.length;
}
