// /sitemap.xml: every public page (inactive cabins have no page and are not listed).
import type { APIRoute } from 'astro';
import { CATALOGUE_PAGE_SIZE } from '../../schema/constants.ts';
import { loadCabins } from '../lib/content.ts';
import { totalPages } from '../lib/pager.ts';

export const GET: APIRoute = async ({ site, url }) => {
  const origin = (site ?? url).origin;
  const cabins = (await loadCabins()).filter((c) => c.active);
  const pages = totalPages(cabins.length, CATALOGUE_PAGE_SIZE);
  const paths = [
    '/',
    '/cabins',
    ...Array.from({ length: pages - 1 }, (_, i) => `/cabins/${i + 2}`),
    ...cabins.map((c) => `/cabin/${c.id}`),
    '/reviews',
    '/contacts',
    '/privacy',
    '/consent',
  ];
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${paths.map((p) => `  <url><loc>${new URL(p, origin).href}</loc></url>`).join('\n')}
</urlset>
`;
  return new Response(body, { headers: { 'content-type': 'application/xml; charset=utf-8' } });
};
