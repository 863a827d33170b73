import type { Context } from 'hono';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { clientIp } from '../lib/client-ip.ts';
import { afterResponse } from '../lib/background.ts';
import { setSessionCookie } from '../middleware/session.ts';
import { recordAudit } from '../queries/audit.ts';
import { findSignInLink, openLinkSession } from '../queries/sign-in-links.ts';

/**
 * GET /enter/{token}: a cleaner's private sign-in link (POST /api/admin/users/{id}/link). A live
 * link opens a session as signing in does (the same cookie) and answers the cleaner's page, the
 * build's shell (site/pages/shell/cleaner.astro), whose few KB of script read «Сегодня» with that
 * session. Opening the link again later signs in again, so the page is also where a cleaner comes
 * back to when the 30 minutes of a session are up. A link revoked, replaced or never made gets the
 * site's 404 page saying so, after the same work: both pages read, the token's hash looked up and
 * one write (the new session with the sweep of ended ones, or the sweep alone). Never cached,
 * never indexed, never a referrer; the server's log shows the path as /enter/… (worker/lib/log-path.ts).
 */
export async function signInLinkPage(c: Context<AppEnv>): Promise<Response> {
  const token = c.req.param('token') ?? '';
  const ip = clientIp(c);
  const [shell, missing, link] = await Promise.all([
    c.env.ASSETS.fetch(new URL('/shell/cleaner', c.req.url)),
    c.env.ASSETS.fetch(new URL('/404.html', c.req.url)),
    findSignInLink(c.env, token),
  ]);
  const [page, notFound] = await Promise.all([shell.ok ? shell.text() : null, missing.ok ? missing.text() : null]);
  const headers = {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'x-robots-tag': 'noindex, nofollow',
  };
  const session = await openLinkSession(c.env, page === null ? undefined : link, {
    userAgent: c.req.header('user-agent'),
    ip,
  });
  if (!session || !link || page === null) return c.body(linkNotFoundBody(notFound), 404, headers);
  // «Журнал» is written after the answer, so a live link costs what a dead one does until then.
  afterResponse(
    c,
    'The record of a sign-in by link',
    recordAudit(c.env, {
      actorId: link.userId,
      actor: link.username,
      ip,
      action: 'GET /enter/:token',
      kind: 'account',
      description: 'Вход по ссылке',
      outcome: 'ok',
    }),
  );
  setSessionCookie(c, session.token);
  return c.body(page, 200, headers);
}

/** The site's 404 page, saying what is not found: a live sign-in link, and what to do. */
function linkNotFoundBody(page: string | null): string {
  const text = `${MSG.signInLinkInvalid}: её отозвали или заменили новой. Попросите у владельца новую ссылку.`;
  if (page === null) return text;
  return page
    .replaceAll('Страница не найдена', MSG.signInLinkInvalid)
    .replace(/(<p\b[^>]*\bdata-nf-text[^>]*>)[\s\S]*?(<\/p>)/, `$1${text}$2`);
}
