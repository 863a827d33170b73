import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { apiError } from '../lib/errors.ts';

const limit = bodyLimit({ maxSize: 256 * 1024, onError: (c) => apiError(c, 413, 'Слишком большой запрос') });

/** Writes to JSON routes must say they are JSON and stay small. */
export const jsonBody: MiddlewareHandler = async (c, next) => {
  if (!/^application\/json\b/i.test(c.req.header('content-type') ?? '')) {
    return apiError(c, 415, 'Ожидается JSON (Content-Type: application/json)');
  }
  return limit(c, next);
};
