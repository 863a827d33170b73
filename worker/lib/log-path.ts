// A request's path as the server's own log shows it: the journal is read by whoever looks after
// the server, and keeps for weeks what a guest's link or the owner's panel address gave away.
import { RESERVED_PATHS } from '../../schema/constants.ts';

/**
 * Paths whose next segment is a secret token: a guest's page and its API, a cabin's iCal export,
 * the guests' Telegram bot's webhook, a cleaner's sign-in link.
 */
const TOKEN_PATH = /^(\/b\/|\/enter\/|\/api\/guest\/|\/api\/ical\/|\/api\/hooks\/telegram\/)[^/]*/;
const FIRST_SEGMENT = /^(\/+)([^/]+)/;
const PUBLIC: ReadonlySet<string> = new Set(RESERVED_PATHS);

/**
 * The path with its secrets hidden, as Caddy's log hides them (deploy/Caddyfile): a token shows
 * as «…», and so does a first segment that is not the public site's own, since the admin panel's
 * address is the owner's choice. /api/guest/{token}/cancel → /api/guest/…/cancel; /{admin} → /….
 */
export function pathForLog(path: string): string {
  const token = TOKEN_PATH.exec(path);
  if (token) return `${token[1]}…${path.slice(token[0].length)}`;
  const first = FIRST_SEGMENT.exec(path);
  if (first && !PUBLIC.has(first[2]!)) return `${first[1]}…${path.slice(first[0].length)}`;
  return path;
}
