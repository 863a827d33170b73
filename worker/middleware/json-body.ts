import type { MiddlewareHandler } from 'hono';
import { MSG } from '../../schema/messages.ts';
import { apiError } from '../lib/errors.ts';
import { limitBody } from './body-limit.ts';

const limit = limitBody(256 * 1024, MSG.requestTooLarge, MSG.badJson);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Writes to JSON routes must say they are JSON, stay small and be UTF-8. The media type must
 * be exactly application/json (parameters allowed): the validator parses only that, and would
 * otherwise validate an empty object in place of the body it never read. Bytes that are not
 * UTF-8 are refused rather than stored as U+FFFD.
 */
export const jsonBody: MiddlewareHandler = async (c, next) => {
  const mediaType = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json') return apiError(c, 415, MSG.jsonExpected);
  return limit(c, async () => {
    let bytes: ArrayBuffer;
    try {
      // Cached by Hono: the validator parses the same bytes afterwards.
      bytes = await c.req.arrayBuffer();
    } catch {
      return apiError(c, 400, MSG.badJson);
    }
    try {
      utf8.decode(bytes);
    } catch {
      return apiError(c, 400, MSG.badText);
    }
    await next();
  });
};
