// /robots.txt: everything public may be indexed. The admin panel's address is secret and not
// named here (its responses carry X-Robots-Tag: noindex instead).
import type { APIRoute } from 'astro';

export const GET: APIRoute = ({ site, url }) =>
  new Response(`User-agent: *\nAllow: /\n\nSitemap: ${new URL('/sitemap.xml', (site ?? url).origin).href}\n`, {
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
