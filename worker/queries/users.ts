import { and, asc, desc, eq, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Role, UserView } from '../../schema/account.ts';
import { DEFAULT_ADMIN_USERNAME } from '../../schema/constants.ts';
import { adminSessions, cabins, cleanerCabins, cleanerChats, signInLinks, users } from '../../schema/tables.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import { hashPassword } from '../lib/password.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = { DB: DatabasePort; ADMIN_PASSWORD?: string };
export type User = typeof users.$inferSelect;

export const userView = (
  u: User,
  cabinIds: number[] = [],
  linkCreatedAt: number | null = null,
  messengers: UserView['messengers'] = [],
): UserView => ({
  id: u.id,
  username: u.username,
  role: u.role,
  twoFactor: u.totpSecret !== null,
  createdAt: u.createdAt,
  cabinIds,
  linkCreatedAt,
  messengers,
});

/**
 * The first owner, made from the ADMIN_PASSWORD secret while nobody can sign in yet (login
 * `admin`); without the secret nobody is made, so production has no default password. One
 * statement, so two first sign-ins at once make one owner. Answers whether anyone can sign in.
 */
export async function ensureOwner(env: DbEnv): Promise<boolean> {
  const db = getDb(env);
  if (await db.select({ id: users.id }).from(users).limit(1).get()) return true;
  if (!env.ADMIN_PASSWORD) return false;
  const passwordHash = await hashPassword(env.ADMIN_PASSWORD);
  await env.DB.prepare(
    "INSERT INTO users (username, password_hash, role, created_at) SELECT ?, ?, 'owner', ? WHERE NOT EXISTS (SELECT 1 FROM users)",
  )
    .bind(DEFAULT_ADMIN_USERNAME, passwordHash, now())
    .run();
  return true;
}

/** The person signing in with this login (exactly as typed: logins are case-sensitive). */
export async function findUserByUsername(env: DbEnv, username: string): Promise<User | undefined> {
  if (env.ADMIN_PASSWORD) await ensureOwner(env);
  return getDb(env).select().from(users).where(eq(users.username, username)).get();
}

export const getUser = (env: DbEnv, id: number) => getDb(env).select().from(users).where(eq(users.id, id)).get();

/** Everyone who signs in, with a cleaner's cabins, when their link was made and the chats they tied (one batch). */
export async function listUsers(env: DbEnv): Promise<UserView[]> {
  const db = getDb(env);
  const [people, given, links, chats] = await db.batch([
    db.select().from(users).orderBy(asc(users.id)),
    db.select().from(cleanerCabins).orderBy(asc(cleanerCabins.userId), asc(cleanerCabins.cabinId)),
    db.select({ userId: signInLinks.userId, createdAt: signInLinks.createdAt }).from(signInLinks),
    db
      .select({ userId: cleanerChats.userId, channel: cleanerChats.channel })
      .from(cleanerChats)
      .orderBy(desc(cleanerChats.channel)),
  ]);
  return people.map((u) =>
    userView(
      u,
      given.filter((g) => g.userId === u.id).map((g) => g.cabinId),
      links.find((l) => l.userId === u.id)?.createdAt ?? null,
      chats.filter((ch) => ch.userId === u.id).map((ch) => ch.channel as UserView['messengers'][number]),
    ),
  );
}

/** The cabins a cleaner cleans (none for anyone else). */
export async function cabinsOfCleaner(env: DbEnv, userId: number): Promise<number[]> {
  const rows = await getDb(env)
    .select({ cabinId: cleanerCabins.cabinId })
    .from(cleanerCabins)
    .where(eq(cleanerCabins.userId, userId))
    .orderBy(asc(cleanerCabins.cabinId));
  return rows.map((r) => r.cabinId);
}

/**
 * A new person, with a cleaner's cabins in the same batch; 'taken' when the login is someone
 * else's, 'noCabin' when a cabin given does not exist.
 */
export async function createUser(
  env: DbEnv,
  input: { username: string; passwordHash: string; role: Role; cabinIds?: number[] },
): Promise<{ user: User; cabinIds: number[] } | 'taken' | 'noCabin'> {
  const db = getDb(env);
  const cabinIds = [...new Set(input.cabinIds ?? [])].sort((a, b) => a - b);
  if (cabinIds.length > 0) {
    const found = await db.select({ id: cabins.id }).from(cabins).where(inArray(cabins.id, cabinIds));
    if (found.length !== cabinIds.length) return 'noCabin';
  }
  const { cabinIds: _, ...person } = input;
  const createdAt = now();
  const insert = db
    .insert(users)
    .values({ ...person, createdAt })
    .onConflictDoNothing({ target: users.username })
    .returning();
  if (cabinIds.length === 0) {
    const [row] = await insert;
    return row ? { user: row, cabinIds } : 'taken';
  }
  // The cabins go with the row just made, found by its login and time (a login taken before makes
  // no row, and then the select below finds nobody: the other person's cabins stay as they were).
  const [[row]] = await db.batch([
    insert,
    db
      .insert(cleanerCabins)
      .select(
        db
          .select({ userId: users.id, cabinId: cabins.id })
          .from(users)
          .innerJoin(cabins, inArray(cabins.id, cabinIds))
          .where(
            and(
              eq(users.username, person.username),
              eq(users.role, 'cleaner'),
              eq(users.createdAt, createdAt),
              sql`not exists (select 1 from cleaner_cabins x where x.user_id = ${users.id})`,
            ),
          ),
      )
      .onConflictDoNothing(),
  ]);
  return row ? { user: row, cabinIds } : 'taken';
}

/**
 * Deletes a person and ends their sessions, in one batch; never the last owner (checked inside the
 * statement itself, so two owners deleting each other at once cannot leave none).
 */
export async function deleteUser(env: DbEnv, id: number): Promise<'deleted' | 'missing' | 'lastOwner'> {
  const db = getDb(env);
  const [, deleted] = await db.batch([
    db
      .delete(adminSessions)
      .where(
        and(
          eq(adminSessions.userId, id),
          sql`((SELECT role FROM users WHERE id = ${id}) <> 'owner' OR (SELECT count(*) FROM users WHERE role = 'owner') > 1)`,
        ),
      ),
    db
      .delete(users)
      .where(
        and(eq(users.id, id), or(ne(users.role, 'owner'), sql`(SELECT count(*) FROM users WHERE role = 'owner') > 1`)),
      )
      .returning({ id: users.id }),
  ]);
  if (deleted.length > 0) return 'deleted';
  return (await getUser(env, id)) ? 'lastOwner' : 'missing';
}

/**
 * A new login and, when given, a new password hash; undefined when the login belongs to someone
 * else. With a new password every other session of the person ends (in the same batch).
 */
export async function setCredentials(
  env: DbEnv,
  userId: number,
  keepSessionId: number,
  username: string,
  newPasswordHash: string | null,
): Promise<'ok' | 'taken'> {
  const db = getDb(env);
  const taken = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.username, username), ne(users.id, userId)))
    .get();
  if (taken) return 'taken';
  const update = db
    .update(users)
    .set(newPasswordHash ? { username, passwordHash: newPasswordHash } : { username })
    .where(eq(users.id, userId));
  if (!newPasswordHash) {
    await update;
    return 'ok';
  }
  await db.batch([
    update,
    db.delete(adminSessions).where(and(eq(adminSessions.userId, userId), ne(adminSessions.id, keepSessionId))),
  ]);
  return 'ok';
}

/** «Set up»: a secret waiting for its first code; the one in use (if any) stays until then. */
export async function setPendingSecret(env: DbEnv, userId: number, secret: string): Promise<void> {
  await getDb(env).update(users).set({ totpPendingSecret: secret }).where(eq(users.id, userId));
}

/**
 * Turns two-factor sign-in on with the pending secret its first code proved, the step of that code
 * spent and the recovery codes' hashes, and ends the person's other sessions (a session opened
 * before, perhaps by someone else, should not outlive the change). False when the pending
 * secret changed meanwhile.
 */
export async function enableTwoFactor(
  env: DbEnv,
  userId: number,
  keepSessionId: number,
  secret: string,
  step: number,
  recoveryHashes: string[],
): Promise<boolean> {
  const db = getDb(env);
  const [enabled] = await db.batch([
    db
      .update(users)
      .set({ totpSecret: secret, totpPendingSecret: null, totpLastStep: step, recoveryCodes: recoveryHashes })
      .where(and(eq(users.id, userId), eq(users.totpPendingSecret, secret), isNull(users.totpSecret)))
      .returning({ id: users.id }),
    db
      .delete(adminSessions)
      .where(
        and(
          eq(adminSessions.userId, userId),
          ne(adminSessions.id, keepSessionId),
          sql`EXISTS (SELECT 1 FROM users WHERE id = ${userId} AND totp_secret = ${secret})`,
        ),
      ),
  ]);
  return enabled.length > 0;
}

/**
 * New recovery codes in place of all the old ones (spent or not), while two-factor sign-in is on
 * with the same secret: false when it was turned off meanwhile.
 */
export async function replaceRecoveryCodes(
  env: DbEnv,
  userId: number,
  secret: string,
  recoveryHashes: string[],
): Promise<boolean> {
  const rows = await getDb(env)
    .update(users)
    .set({ recoveryCodes: recoveryHashes })
    .where(and(eq(users.id, userId), eq(users.totpSecret, secret)))
    .returning({ id: users.id });
  return rows.length > 0;
}

export async function disableTwoFactor(env: DbEnv, userId: number): Promise<void> {
  await getDb(env)
    .update(users)
    .set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null, recoveryCodes: [] })
    .where(eq(users.id, userId));
}

/**
 * Spends the step of an app code: true only for the first request to present a code of this step
 * or a later one (one conditional update, so the same code sent twice at once passes once).
 */
export async function spendTotpStep(env: DbEnv, userId: number, secret: string, step: number): Promise<boolean> {
  const rows = await getDb(env)
    .update(users)
    .set({ totpLastStep: step })
    .where(
      and(
        eq(users.id, userId),
        eq(users.totpSecret, secret),
        or(isNull(users.totpLastStep), lt(users.totpLastStep, step)),
      ),
    )
    .returning({ id: users.id });
  return rows.length > 0;
}

/**
 * Spends a recovery code: true only if its hash was still there. A compare-and-set on the list, read
 * again when another code was spent meanwhile, so one code never works twice and two codes at once both do.
 */
export async function spendRecoveryCode(env: DbEnv, user: User, hash: string): Promise<boolean> {
  let codes = user.recoveryCodes;
  for (let attempt = 0; attempt < 3 && codes.includes(hash); attempt++) {
    const rows = await getDb(env)
      .update(users)
      .set({ recoveryCodes: codes.filter((h) => h !== hash) })
      .where(and(eq(users.id, user.id), sql`${users.recoveryCodes} = ${JSON.stringify(codes)}`))
      .returning({ id: users.id });
    if (rows.length > 0) return true;
    codes = (await getUser(env, user.id))?.recoveryCodes ?? [];
  }
  return false;
}
