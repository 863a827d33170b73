import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { apiError } from '../lib/errors.ts';

/**
 * hono/body-limit, answering 413 with our text, and 400 when the body breaks off while it is
 * read (the client went away mid-upload): the client's fault, not a 500.
 */
export function limitBody(maxSize: number, tooLarge: string, broken: string) {
  const limit = bodyLimit({ maxSize, onError: (c) => apiError(c, 413, tooLarge) });
  return async (c: Context, inner: () => Promise<Response | void>): Promise<Response | void> => {
    let reached = false;
    let answer: Response | void = undefined;
    try {
      const refused = await limit(c, async () => {
        reached = true;
        answer = await inner();
      });
      return refused ?? answer;
    } catch (err) {
      if (reached) throw err;
      return apiError(c, 400, broken);
    }
  };
}
