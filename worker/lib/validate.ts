import { zValidator, type Hook } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { z, ZodType } from 'zod';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';

/**
 * zod validation answering bad input with a 400 `{ error }` whose text is the first issue's
 * message: the same Russian text the browser form shows.
 */
export const validate = <T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) => {
  const hook = ((result, c) => {
    if (!result.success) {
      const issue = result.error.issues[0];
      return c.json({ error: issue?.message || MSG.badInput }, 400);
    }
  }) satisfies Hook<z.infer<T>, AppEnv, string, Target, {}, T>;
  return zValidator<T, Target, AppEnv, string, typeof hook>(target, schema, hook);
};
