import { asc, eq } from 'drizzle-orm';
import { siteState, users } from '../../schema/tables.ts';
import type { Bindings } from '../env.ts';
import { getDb } from '../lib/db.ts';
import { sha256Hex, verifyPassword } from '../lib/password.ts';
import type { AccountFacts } from './checklist.ts';

/** Where the last check of the owner's password is kept: a digest of the hash it was made against (never the hash) and what it found. */
const CHECKED = 'checklistPassword';

/**
 * What «С чего начать» needs to know of the owner's account: whether the password is still the
 * one the server was set up with (ADMIN_PASSWORD: the demo's under `npm start`), and whether
 * two-factor is on. Checking a password costs a PBKDF2 run, so its answer is kept until the
 * password changes. Without ADMIN_PASSWORD nothing says what the first password was: done.
 */
export async function accountFacts(env: Bindings): Promise<AccountFacts> {
  const db = getDb(env);
  const owner = await db.select().from(users).where(eq(users.role, 'owner')).orderBy(asc(users.id)).get();
  if (!owner) return { passwordChanged: false, twoFactor: false };
  const twoFactor = owner.totpSecret !== null;
  if (!env.ADMIN_PASSWORD) return { passwordChanged: true, twoFactor };
  const kept = await db.select().from(siteState).where(eq(siteState.key, CHECKED)).get();
  const known = kept ? (JSON.parse(kept.value) as { hash: string; same: boolean }) : null;
  const digest = await sha256Hex(owner.passwordHash);
  if (known?.hash === digest) return { passwordChanged: !known.same, twoFactor };
  const same = await verifyPassword(env.ADMIN_PASSWORD, owner.passwordHash);
  const value = JSON.stringify({ hash: digest, same });
  await db
    .insert(siteState)
    .values({ key: CHECKED, value })
    .onConflictDoUpdate({ target: siteState.key, set: { value } });
  return { passwordChanged: !same, twoFactor };
}
