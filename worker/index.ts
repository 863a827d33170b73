import { Hono } from 'hono';
import type { AppEnv } from './env.ts';
import { api } from './app.ts';
import { apiError, handleError } from './lib/errors.ts';
import { MSG } from '../schema/messages.ts';
import {
  guestPageHeaders,
  searchPageHeaders,
  securityHeaders,
  securityHeadersKeepOwn,
} from './middleware/security-headers.ts';
import { mediaRoutes } from './routes/media.ts';
import { apiReference, openApiJson } from './routes/api-docs.ts';
import { getAdminPath } from './queries/admin.ts';
import { getSettings } from './queries/settings.ts';
import { searchPage } from './pages/search.ts';
import { guestPage } from './pages/guest.ts';
import { signInLinkPage } from './pages/sign-in-link.ts';
import { forLog } from './lib/for-log.ts';

export type { AppType } from './app.ts';

/**
 * The worker sees /api/*, /media/* and /shell/* first, and every path no static asset
 * matches. The admin shell is served only at the admin path stored in D1, IndexNow's key file
 * only at the key stored in the settings.
 */
const app = new Hono<AppEnv>();
app.use(async (c, next) => {
  await next();
  const url = new URL(c.req.url);
  if (url.protocol === 'https:' || (url.hostname !== 'localhost' && url.hostname !== '127.0.0.1')) {
    c.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
  }
});
// Before the API, whose headers (default-src 'none') would keep the reference page from loading.
app.get('/api/reference', ...apiReference);
app.route('/', api);
// After it, with the API's headers; the document is generated from this app's whole route table.
app.get('/api/openapi.json', ...openApiJson(app));
app.all('/api/*', (c) => apiError(c, 404, MSG.notFound));
app.use('/media/*', securityHeadersKeepOwn);
app.route('/media', mediaRoutes);
app.all('/media/*', (c) => apiError(c, 404, MSG.notFound));
// The results page: the prebuilt shell filled with what is free now (worker/pages/search.ts),
// with the static pages' isolation headers and policy, not the API's (see searchPageHeaders).
app.get('/search', searchPageHeaders, searchPage);
// The guest's own page, written whole by the server (worker/pages/guest.ts); 404 for a token it does not know.
app.get('/b/:token{[0-9a-f]{36}}', guestPageHeaders, guestPage);
// A cleaner's private sign-in link (worker/pages/sign-in-link.ts): a session and on to the panel, or a 404 page.
app.get('/enter/:token{[0-9a-f]{64}}', guestPageHeaders, signInLinkPage);
app.use('*', securityHeaders);
app.get('*', async (c) => {
  const keyFile = INDEXNOW_KEY_FILE.exec(c.req.path);
  if (keyFile && keyFile[1] === (await indexNowKeyOrNull(c.env))) {
    return c.text(keyFile[1], 200, { 'cache-control': 'no-cache' });
  }
  const segments = c.req.path.split('/').filter(Boolean);
  if (segments.length === 1 && !c.req.path.startsWith('/shell') && segments[0] === (await adminPathOrNull(c.env))) {
    const shell = await c.env.ASSETS.fetch(new URL('/shell/admin', c.req.url));
    if (shell.ok) {
      const res = new Response(shell.body, shell);
      res.headers.set('cache-control', 'no-store');
      res.headers.set('x-robots-tag', 'noindex, nofollow');
      return res;
    }
  }
  return notFoundPage(c.env, c.req.url);
});
app.all('*', (c) => notFoundPage(c.env, c.req.url));
app.onError(handleError);

/** IndexNow's key file, /{key}.txt: a search engine reads it to check that the list came from the site. */
const INDEXNOW_KEY_FILE = /^\/([A-Za-z0-9-]{8,128})\.txt$/;

async function indexNowKeyOrNull(env: AppEnv['Bindings']) {
  try {
    return (await getSettings(env)).promotion.indexNowKey || null;
  } catch (err) {
    console.error('Settings unavailable', forLog(err));
    return null;
  }
}

/** With D1 down the admin shell is of no use: unknown pages still get the 404 page. */
async function adminPathOrNull(env: AppEnv['Bindings']) {
  try {
    return await getAdminPath(env);
  } catch (err) {
    console.error('Admin path unavailable', forLog(err));
    return null;
  }
}

async function notFoundPage(env: AppEnv['Bindings'], url: string) {
  const page = await env.ASSETS.fetch(new URL('/404.html', url)).catch(() => null);
  const body = page?.ok ? page.body : 'Страница не найдена';
  return new Response(body, {
    status: 404,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}

export default app;
