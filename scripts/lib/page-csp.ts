import { createHash } from 'node:crypto';

const META = /<meta http-equiv="content-security-policy" content="([^"]*)">/;
const INLINE = /<(script|style)\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/\1>/g;
const HASH = /'sha256-[A-Za-z0-9+/]+=*'/g;

/**
 * Astro writes into every page's CSP <meta> the hashes of the inline scripts and styles of all
 * pages (25 on the home page, 3 of them its own): some 1.1 KB that gzip cannot shrink, in the first
 * 14 KB a phone waits for. Each page keeps the hashes of its own inline scripts and styles only;
 * what a page does not contain it cannot run, so the policy is as strict as before.
 */
export function ownHashesOnly(html: string): string {
  const meta = META.exec(html);
  if (!meta) return html;
  const own = new Set(
    [...html.matchAll(INLINE)].map((m) => `'sha256-${createHash('sha256').update(m[2]!).digest('base64')}'`),
  );
  const policy = meta[1]!
    .replace(HASH, (hash) => (own.has(hash) ? hash : ''))
    .replace(/ {2,}/g, ' ')
    .replace(/ ;/g, ';');
  return html.replace(meta[0], `<meta http-equiv="content-security-policy" content="${policy}">`);
}
