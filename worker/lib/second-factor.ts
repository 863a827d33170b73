import type { Context } from 'hono';
import { LOGIN_THROTTLE } from '../../schema/constants.ts';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { clearHits } from '../queries/rate-limit.ts';
import { spendRecoveryCode, spendTotpStep, type User } from '../queries/users.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { apiError } from './errors.ts';
import { guessWait, tooManyGuesses } from './guess-limits.ts';
import { verifyPassword } from './password.ts';
import { isAppCode, recoveryCodeHash, totpStep } from './totp.ts';

/**
 * The second factor of a person with two-factor sign-in on: a code of their app not used before
 * (its step is spent) or a recovery code not yet spent (it is spent now). Null for anything else.
 */
export async function checkSecondFactor(
  env: { DB: DatabasePort },
  user: User,
  code: string,
): Promise<'app' | 'recovery' | null> {
  if (!user.totpSecret) return null;
  if (isAppCode(code)) {
    const step = totpStep(user.totpSecret, code);
    return step !== null && (await spendTotpStep(env, user.id, user.totpSecret, step)) ? 'app' : null;
  }
  return (await spendRecoveryCode(env, user, await recoveryCodeHash(code))) ? 'recovery' : null;
}

/** The counter of a person's password and code guesses, wherever they are typed (sign-in, «Аккаунт»). */
const guessKey = (userId: number) => `verify:${userId}`;

/**
 * Counts a guess of a person's code (or the password «Аккаунт» asks again) against that person,
 * from any address, before it is checked: past the free ones each try waits, longer after every
 * wrong one (LOGIN_THROTTLE.code), so a code's million values cannot be tried. The 429 says how long.
 */
export async function guessThrottled(
  c: Context<AppEnv>,
  userId: number,
): Promise<ReturnType<typeof apiError<429>> | undefined> {
  const wait = await guessWait(c.env, [{ key: guessKey(userId), schedule: LOGIN_THROTTLE.code }]);
  return wait === undefined ? undefined : tooManyGuesses(c, wait, MSG.codeThrottled);
}

/** A right guess forgets the wrong ones before it. */
export const guessedRight = (env: { DB: DatabasePort }, userId: number) => clearHits(env, guessKey(userId));

/**
 * What a change to the person's own account asks for: their password, and a code when two-factor
 * sign-in is on (a stolen session cookie alone is not enough). Each try counts as a guess; the
 * refusal (429, or 400 with the field's words, noted as failed in «Журнал») is answered, or
 * undefined when both are right and the guesses before are forgotten.
 */
export async function refusedProof(c: Context<AppEnv>, me: User, password: string, code: string | undefined) {
  const throttled = await guessThrottled(c, me.id);
  if (throttled) return throttled;
  if (!(await verifyPassword(password, me.passwordHash))) {
    c.set('auditFailed', true);
    return apiError(c, 400, MSG.currentPasswordWrong);
  }
  if (me.totpSecret && !(await checkSecondFactor(c.env, me, code ?? ''))) {
    c.set('auditFailed', true);
    return apiError(c, 400, MSG.codeWrong);
  }
  await guessedRight(c.env, me.id);
  return undefined;
}
