import type { Context } from 'hono';
import type { GuessSchedule } from '../../schema/constants.ts';
import { countGuess, uncountGuess } from '../queries/rate-limit.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { apiError } from './errors.ts';

/** One counter a guess is held by: its key in rate_limits («what:who») and how it slows. */
export type GuessLimit = { key: string; schedule: GuessSchedule };

/**
 * Counts a guess against each limit in turn, before the guess is checked. If one says wait,
 * the ones already counted are taken back (the guess is not made) and the answer is the
 * seconds to wait; undefined when the guess may be checked.
 */
export async function guessWait(env: { DB: DatabasePort }, limits: readonly GuessLimit[]): Promise<number | undefined> {
  for (const [i, limit] of limits.entries()) {
    const waitMs = await countGuess(env, limit.key, limit.schedule);
    if (waitMs === undefined) continue;
    await Promise.all(limits.slice(0, i).map((l) => uncountGuess(env, l.key)));
    return Math.ceil(waitMs / 1000);
  }
  return undefined;
}

/** The 429 of a guess that has to wait, with `Retry-After` in seconds. */
export function tooManyGuesses(c: Context, seconds: number, message: string) {
  c.header('Retry-After', String(seconds));
  return apiError(c, 429, message);
}
