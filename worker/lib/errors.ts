import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { MSG } from '../../schema/messages.ts';
import { isDatabaseBusy, isStorageFull } from '../platform/ports.ts';

/** Every API error has this one shape: `{ error }` with an honest status. */
export const apiError = <S extends ContentfulStatusCode>(c: Context, status: S, error: string) =>
  c.json({ error }, status);

/** What a visitor (not the owner) writes: they get the visitor's wording of an error. */
const VISITOR_WRITES = new Set(['POST /api/bookings', 'POST /api/reviews']);

/** Seconds a client is asked to wait when the database was busy. */
const DATABASE_RETRY_AFTER_S = 5;

export function handleError(err: Error, c: Context) {
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    // Hono's own messages are English; the body parser's one is the common case.
    const message = /malformed json/i.test(err.message) ? MSG.badJson : err.message || MSG.badInput;
    return apiError(c, status, status >= 500 ? MSG.serverError : message);
  }
  // A lock held elsewhere (a backup, an import) is not a fault: the client may simply retry.
  if (isDatabaseBusy(err)) {
    console.warn('Database busy, answered 503', c.req.method, c.req.path);
    c.header('retry-after', String(DATABASE_RETRY_AFTER_S));
    return apiError(c, 503, MSG.databaseBusy);
  }
  // A full disk is the owner's to fix, not a fault of the request: a plain message, the
  // visitor's own (the form keeps what they typed) or the owner's (what to free).
  if (isStorageFull(err)) {
    console.error('STORAGE FULL: nothing was saved; free space on the server', c.req.method, c.req.path, err);
    return apiError(c, 507, VISITOR_WRITES.has(`${c.req.method} ${c.req.path}`) ? MSG.storageFull : MSG.storageFullAdmin);
  }
  console.error('Unhandled error', c.req.method, c.req.path, err);
  return apiError(c, 500, MSG.serverError);
}
