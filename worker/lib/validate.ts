import { zValidator, type Hook } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { $ZodType, output } from 'zod/v4/core';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';

/** Only our own Russian texts reach the client; zod's English defaults become MSG.badInput. */
const OWN_MESSAGES = new Set<string>(Object.values(MSG));

/** True if some string in the value holds a lone surrogate (JSON lets `"\ud800"` through). */
function hasIllFormedText(value: unknown): boolean {
  if (typeof value === 'string') return !value.isWellFormed();
  if (Array.isArray(value)) return value.some(hasIllFormedText);
  if (value && typeof value === 'object') return Object.values(value).some(hasIllFormedText);
  return false;
}

/**
 * zod validation answering bad input with a 400 `{ error }` whose text is the first issue's
 * message: the same Russian text the browser form shows. Text that is not well-formed
 * Unicode is refused: D1 would store U+FFFD instead of what was sent.
 */
export const validate = <T extends $ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) => {
  const hook = ((result, c) => {
    if (!result.success) {
      const message = result.error.issues[0]?.message;
      return c.json({ error: message && OWN_MESSAGES.has(message) ? message : MSG.badInput }, 400);
    }
    if (hasIllFormedText(result.data)) return c.json({ error: MSG.badText }, 400);
  }) satisfies Hook<output<T>, AppEnv, string, Target, {}, T>;
  return zValidator<T, Target, AppEnv, string, typeof hook>(target, schema, hook);
};
