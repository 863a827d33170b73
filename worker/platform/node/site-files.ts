import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SitePort } from '../ports.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The site port on Node: a file of the built site by its URL path (the admin shell, the 404
 * page, build.json), as the Workers assets binding answers the app. Paths that would leave the
 * folder are a 404.
 */
export function siteFiles(root: () => string): SitePort {
  return {
    async fetch(input) {
      const url = new URL(input instanceof Request ? input.url : String(input), 'http://site');
      const dir = root();
      let rel = decodeURIComponent(url.pathname);
      if (rel.endsWith('/')) rel += 'index.html';
      const candidates = path.extname(rel) ? [rel] : [`${rel}.html`, `${rel}/index.html`];
      for (const candidate of candidates) {
        const file = path.join(dir, candidate);
        if (!file.startsWith(dir + path.sep)) continue;
        const body = await readFile(file).catch(() => null);
        if (body)
          return new Response(body, {
            headers: { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' },
          });
      }
      return new Response('Not found', { status: 404 });
    },
  };
}
