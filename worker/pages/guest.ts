import type { Context } from 'hono';
import { GUEST_PAGE_MARKER } from '../../schema/guest-page.ts';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { currentStay, guestToday } from '../guest/current.ts';
import { guestPageAnswer } from '../guest/page.ts';
import { yookassaOf } from '../payments/yookassa.ts';
import { guestPageHtml } from './guest-html.ts';

/**
 * GET /b/{token}: the guest's own page, whole in the first answer (docs/architecture.md «The
 * guest's page»). The build made the shell (site/pages/shell/guest.astro); this puts in the
 * booking as GET /api/guest/{token} reads it (a pending payment read back from ЮKassa, a hold
 * that ran out), and the same data for the island, which only adds the buttons' behaviour. Only
 * HTML goes in, so the shell's CSP hashes stay true.
 *
 * An unknown token costs what a known one does: the shell and the 404 page are both read and
 * the booking is looked up once, whatever the token. The address is the guest's key: never
 * cached, never indexed, and never a referrer (Referrer-Policy: no-referrer, guestPageHeaders),
 * not even to the site's own pages.
 */
export async function guestPage(c: Context<AppEnv>): Promise<Response> {
  const token = c.req.param('token') ?? '';
  const [shell, missing, stay] = await Promise.all([
    c.env.ASSETS.fetch(new URL('/shell/guest', c.req.url)),
    c.env.ASSETS.fetch(new URL('/404.html', c.req.url)),
    currentStay(c, token),
  ]);
  const [page, notFound] = await Promise.all([shell.ok ? shell.text() : null, missing.ok ? missing.text() : null]);
  const headers = {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'x-robots-tag': 'noindex, nofollow',
  };
  if (!stay || page === null) return new Response(notFoundBody(notFound), { status: 404, headers });
  const answer = guestPageAnswer(stay, guestToday(), yookassaOf(c.env) !== null);
  const body = await guestPageHtml(answer, `/api/guest/${token}`);
  // A function, so no `$&` in the owner's or the guest's text is read as a pattern.
  return new Response(
    page.replace(GUEST_PAGE_MARKER, () => body),
    { status: 200, headers },
  );
}

/** The site's 404 page, saying what is not found here: the booking, and what to do. */
function notFoundBody(page: string | null): string {
  if (page === null) return 'Страница не найдена';
  return page
    .replaceAll('Страница не найдена', 'Бронирование не найдено')
    .replace(
      /(<p\b[^>]*\bdata-nf-text[^>]*>)[\s\S]*?(<\/p>)/,
      `$1${MSG.guestPageNotFound}. Проверьте ссылку из письма или напишите нам.$2`,
    );
}
