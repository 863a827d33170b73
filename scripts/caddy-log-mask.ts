// `node scripts/caddy-log-mask.ts`: prints the line of deploy/Caddyfile that keeps secrets out of
// Caddy's request log, made from the first path segments the admin path may never take
// (RESERVED_PATHS). Run it when that list changes and paste its output over the line in the
// Caddyfile's (private_log) snippet; test/node-server/caddy-log.test.ts fails until then.
//
// Why a made regexp: the admin path is the owner's choice, so Caddy cannot name it; the log has
// to hide every first segment except the public site's own. Debian's Caddy (2.6) filters a log
// field with one RE2 regexp and one replacement: RE2 has no «not followed by», so «a segment that
// is none of these words» is spelled out letter by letter (a word's every wrong turn masks).
import { RESERVED_PATHS } from '../schema/constants.ts';

type Node = { word: boolean; next: Map<string, Node> };

const literal = (ch: string) => ch.replace(/[.\\+*?()|[\]{}^$]/g, '\\$&');
const inClass = (ch: string) => ch.replace(/[\\\]^-]/g, '\\$&');

/** A regexp for one path segment (no «/» nor «?») that is none of `words`, nor empty. */
export function segmentNotIn(words: readonly string[]): string {
  const root: Node = { word: true, next: new Map() };
  for (const w of words) {
    let node = root;
    for (const ch of w) {
      if (!node.next.has(ch)) node.next.set(ch, { word: false, next: new Map() });
      node = node.next.get(ch)!;
    }
    node.word = true;
  }
  const after = (node: Node): string => {
    if (node.next.size === 0) return '[^/?]+';
    const chars = [...node.next.keys()].sort();
    const turns = [
      `[^${chars.map(inClass).join('')}/?][^/?]*`,
      ...chars.map((ch) => literal(ch) + after(node.next.get(ch)!)),
    ];
    // Stopping here is a masked segment too unless what was read so far is one of the words.
    return `(?:${turns.join('|')})${node.word ? '' : '?'}`;
  };
  return after(root);
}

/**
 * The request log's `uri`, hidden where it may carry a secret. Three cases, first match wins:
 *   /b/{token}, /api/guest/{token}…, /api/ical/{token}.ics, the Telegram webhook's secret path, /enter/{token}
 *                                                            → /b/…, /api/guest/…/pay
 *   a first segment not of the public site (the admin path)  → /…, /…/rest
 *   a query string (?token=…)                                 → ?…
 * The first two hide the query with the rest; the replacement is the same for every case.
 */
export function uriMask(known: readonly string[] = RESERVED_PATHS): { pattern: string; replacement: string } {
  const tokenPaths = '^(/b/|/enter/|/api/guest/|/api/ical/|/api/hooks/telegram/)[^/?]*(/[^?]*)?(?:\\?.*)?$';
  const unknownFirst = `^(/+)${segmentNotIn(known)}(/[^?]*)?(?:\\?.*)?$`;
  const query = '(\\?).*$';
  // biome-ignore lint/suspicious/noTemplateCurlyInString: ${1}… are the regexp groups in Caddy's replacement, not a template
  return { pattern: `${tokenPaths}|${unknownFirst}|${query}`, replacement: '${1}${3}${5}…${2}${4}' };
}

/** The Caddyfile line: backquotes keep every backslash as it is. */
export const uriMaskLine = (mask = uriMask()) => `request>uri regexp \`${mask.pattern}\` "${mask.replacement}"`;

if (import.meta.main) console.log(uriMaskLine());
