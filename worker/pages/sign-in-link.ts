import type { Context } from 'hono';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { clientIp } from '../lib/client-ip.ts';
import { forLog } from '../lib/for-log.ts';
import { setSessionCookie } from '../middleware/session.ts';
import { getAdminPath } from '../queries/admin.ts';
import { recordAudit } from '../queries/audit.ts';
import { signInByLink } from '../queries/sign-in-links.ts';

/**
 * GET /enter/{token}: a cleaner's private sign-in link (POST /api/admin/users/{id}/link). A live
 * link opens a session as signing in does (the same cookie) and goes on to the panel, which shows
 * a cleaner «Сегодня» alone. A link revoked, replaced or never made gets the site's 404 page saying
 * so, after the same work: the page and the panel's address are read, the token's hash looked up
 * and the ended sessions swept, whichever it is. Never cached, never indexed, never a referrer;
 * the server's log shows the path as /enter/… (worker/lib/log-path.ts).
 */
export async function signInLinkPage(c: Context<AppEnv>): Promise<Response> {
  const token = c.req.param('token') ?? '';
  const ip = clientIp(c);
  const [missing, adminPath, signedIn] = await Promise.all([
    c.env.ASSETS.fetch(new URL('/404.html', c.req.url)).catch(() => null),
    getAdminPath(c.env),
    signInByLink(c.env, token, { userAgent: c.req.header('user-agent'), ip }),
  ]);
  const notFound = missing?.ok ? await missing.text() : null;
  const headers = { 'cache-control': 'no-store', 'x-robots-tag': 'noindex, nofollow' };
  if (!signedIn) {
    return c.body(linkNotFoundBody(notFound), 404, { ...headers, 'content-type': 'text/html; charset=utf-8' });
  }
  await recordAudit(c.env, {
    actorId: signedIn.userId,
    actor: signedIn.username,
    ip,
    action: 'GET /enter/:token',
    kind: 'account',
    description: 'Вход по ссылке',
    outcome: 'ok',
  }).catch((err) => console.error('The record of a sign-in by link could not be written', forLog(err)));
  setSessionCookie(c, signedIn.token);
  return c.body(null, 303, { ...headers, location: `/${adminPath}` });
}

/** The site's 404 page, saying what is not found: a live sign-in link, and what to do. */
function linkNotFoundBody(page: string | null): string {
  const text = `${MSG.signInLinkInvalid}: её отозвали или заменили новой. Попросите у владельца новую ссылку.`;
  if (page === null) return text;
  return page
    .replaceAll('Страница не найдена', MSG.signInLinkInvalid)
    .replace(/(<p\b[^>]*\bdata-nf-text[^>]*>)[\s\S]*?(<\/p>)/, `$1${text}$2`);
}
