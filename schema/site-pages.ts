// The public pages of a built site and a digest of each one's HTML, as the build writes them into
// /site-pages.json (scripts/build-site.ts). The schedule compares the live file with the digests it
// sent last time and tells search engines (IndexNow) which addresses changed (worker/indexnow/).

/** The file's path in the built site. */
export const SITE_PAGES_PATH = '/site-pages.json';

/** Exactly the sitemap's addresses (paths: '/', '/cabins', '/cabin/3' …), each with a digest of its HTML. */
export type SitePages = { pages: Record<string, string> };

/** The HTML file a public page's path is served from (Astro's `build.format: 'file'`). */
export const htmlFileOf = (pagePath: string) => (pagePath === '/' ? 'index.html' : `${pagePath.slice(1)}.html`);

/** The file's pages, or null when it is not one (a site built before it was written). */
export function readSitePages(value: unknown): SitePages | null {
  const pages = (value as { pages?: unknown } | null)?.pages;
  if (!pages || typeof pages !== 'object' || Array.isArray(pages)) return null;
  const entries = Object.entries(pages);
  if (!entries.every(([p, d]) => p.startsWith('/') && typeof d === 'string' && d.length > 0)) return null;
  return { pages: Object.fromEntries(entries) as Record<string, string> };
}
