import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { MSG } from '../../schema/messages.ts';
import { isDatabaseBusy, isStorageFull } from '../platform/ports.ts';
import { forLog } from './for-log.ts';
import { pathForLog } from './log-path.ts';

/** Every API error has this one shape: `{ error }` with an honest status. */
export const apiError = <S extends ContentfulStatusCode>(c: Context, status: S, error: string) =>
  c.json({ error }, status);

/** Whether the owner made the request (signed in, or signing in): they get the owner's wording of an error. */
const byOwner = (c: Context) => c.get('signedIn') === true || c.req.path.startsWith('/api/admin/');

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
    console.warn('Database busy, answered 503', c.req.method, pathForLog(c.req.path));
    c.header('retry-after', String(DATABASE_RETRY_AFTER_S));
    return apiError(c, 503, MSG.databaseBusy);
  }
  // A full disk is the owner's to fix, not a fault of the request: a plain message, the
  // owner's (what to free) or a visitor's (their form keeps what they typed).
  if (isStorageFull(err)) {
    console.error(
      'STORAGE FULL: nothing was saved; free space on the server',
      c.req.method,
      pathForLog(c.req.path),
      forLog(err),
    );
    return apiError(c, 507, byOwner(c) ? MSG.storageFullAdmin : MSG.storageFull);
  }
  console.error('Unhandled error', c.req.method, pathForLog(c.req.path), forLog(err));
  return apiError(c, 500, MSG.serverError);
}
