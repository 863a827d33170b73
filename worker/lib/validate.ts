import { zValidator, type Hook } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import { resolver, uniqueSymbol } from 'hono-openapi';
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
 * Unicode is refused: D1 would store U+FFFD instead of what was sent. A valid JSON body is then
 * shown to the role guard requireAdmin may have set (403 when a manager changes an owner's field).
 * The schema is also handed to the OpenAPI generator (worker/lib/openapi.ts): the document's
 * parameters and bodies are the ones checked here.
 */
export const validate = <T extends $ZodType, Target extends keyof ValidationTargets>(
  target: Target,
  schema: T,
  /** Names the field of an issue («Сезон 2, окончание»), so the owner sees what to fix where. */
  fieldName?: (path: readonly PropertyKey[]) => string | undefined,
) => {
  const hook = ((result, c) => {
    if (!result.success) {
      const issue = result.error.issues[0];
      const message = issue?.message && OWN_MESSAGES.has(issue.message) ? issue.message : MSG.badInput;
      const field = issue && fieldName?.(issue.path);
      // A message that already begins with the field's name («Сезоны не должны…») is left as it is.
      return c.json({ error: field && !message.startsWith(field) ? `${field}: ${message}` : message }, 400);
    }
    if (hasIllFormedText(result.data)) return c.json({ error: MSG.badText }, 400);
    // A manager's body that changes a field only the owner may change (worker/middleware/roles.ts).
    if (target === 'json') return c.get('guardBody')?.(result.data);
  }) satisfies Hook<output<T>, AppEnv, string, Target, {}, T>;
  const middleware = zValidator<T, Target, AppEnv, string, typeof hook>(target, schema, hook);
  // What hono-openapi's own validator() attaches; its hook would not give our `{ error }` answer.
  return Object.assign(middleware, { [uniqueSymbol]: { target, ...resolver(schema as never) } });
};
