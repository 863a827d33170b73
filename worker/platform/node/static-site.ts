import { statSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { listFiles } from './list-files.ts';
import { etagMatches, headerList, memoryAnswers, type MemoryAnswer } from '../kept-answers.ts';
import { oncePerTurn, requestPath } from './memory-answers.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.webmanifest': 'application/manifest+json',
};
/** Files worth compressing: text. Images and fonts are compressed already. */
const COMPRESSIBLE = new Set(['.html', '.css', '.js', '.mjs', '.json', '.xml', '.txt', '.svg', '.webmanifest']);
/** Paths the app answers, never the built files (as run_worker_first does on Workers). */
const APP_PATHS = /^\/(?:api|media|shell)(?:\/|$)/;
/** Build configuration and precompressed twins are not pages. */
const HIDDEN = new Set(['/_headers', '/_redirects']);

type HeaderRule = { pattern: RegExp; headers: [string, string][] };

/**
 * Cloudflare's `_headers` format: an unindented URL pattern (`*` matches anything), then
 * indented `Name: value` lines. Every matching rule applies, in file order.
 */
export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      const source = line
        .trim()
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*');
      rules.push({ pattern: new RegExp(`^${source}$`), headers: [] });
      continue;
    }
    const colon = line.indexOf(':');
    if (colon > 0 && rules.length)
      rules.at(-1)!.headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return rules;
}

/** The encoding to send: brotli, then gzip, as the client accepts (q=0 refuses). */
export function chooseEncoding(acceptEncoding: string | null | undefined): 'br' | 'gzip' | null {
  const key = acceptEncoding ?? '';
  let chosen = encodingOf.get(key);
  if (chosen === undefined) {
    chosen = parseEncoding(key);
    // Browsers send a handful of distinct values; anything else is parsed each time.
    if (encodingOf.size < 64) encodingOf.set(key, chosen);
  }
  return chosen;
}
const encodingOf = new Map<string, 'br' | 'gzip' | null>();

function parseEncoding(acceptEncoding: string | null): 'br' | 'gzip' | null {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return null;
}

/** Writes `.br` and `.gz` twins of every text file below `dir`, at brotli's best quality (site-compression.ts does it for the builds). */
export async function precompressSite(dir: string): Promise<void> {
  await compressFiles(dir, await compressibleFiles(dir), BEST_BROTLI);
}

/** The files below `dir` worth twins, as paths relative to it. */
export const compressibleFiles = async (dir: string) =>
  (await listFiles(dir)).filter((rel) => COMPRESSIBLE.has(path.extname(rel)));

/** brotli's best quality: what every twin is in the end (a page ~2–8 % smaller than at 5–9, 40–80 ms for a 46 KB page here). */
export const BEST_BROTLI = 11;

/**
 * Writes the twins of `files` (relative to `dir`): zlib's own threads, two files at a time, so on a
 * VPS's 2 cores they take half the time and the server keeps answering meanwhile.
 */
export async function compressFiles(dir: string, files: string[], brotliQuality: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = path.join(dir, files[next++]!);
      const body = await readFile(file);
      const [br, gz] = await Promise.all([brotliOf(body, brotliQuality), gzipAsync(body, { level: 9 })]);
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
    }
  };
  await Promise.all([worker(), worker()]);
}

export const brotliOf = (body: Buffer, quality: number) =>
  brotli(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The file a URL path names, Workers-assets style with Astro's `build.format: 'file'`. */
async function resolveFile(
  root: string,
  urlPath: string,
): Promise<{ file: string; size: number; mtimeMs: number } | null> {
  const candidates =
    urlPath === '/'
      ? ['/index.html']
      : path.extname(urlPath)
        ? [urlPath]
        : [`${urlPath}.html`, `${urlPath}/index.html`];
  for (const candidate of candidates) {
    const file = path.join(root, candidate);
    if (!file.startsWith(root + path.sep)) continue;
    const s = await stat(file).catch(() => null);
    if (s?.isFile()) return { file, size: s.size, mtimeMs: s.mtimeMs };
  }
  return null;
}

/** The built site's files kept in memory: pages, scripts, styles, fonts and the photos of a small site. */
const SITE_MEMORY = { maxBytes: 64 * 1024 * 1024, maxEntryBytes: 1024 * 1024 };

/**
 * Which build is live: build.json's time, the file a build writes last (scripts/build-site.ts),
 * so a kept answer made from an older build is never sent once the new one is in place.
 */
export function liveBuildStamp(root: string): string {
  return String(statSync(path.join(root, 'build.json'), { throwIfNoEntry: false })?.mtimeMs ?? 'none');
}

/** The size and time of the files an answer was made from: one replaced by hand, outside a build, is read again too. */
const filesStamp = (files: string[]) =>
  files
    .map((file) => {
      const s = statSync(file, { throwIfNoEntry: false });
      return s ? `${s.size}:${s.mtimeMs}` : 'gone';
    })
    .join(' ');

export type StaticFiles = ((req: Request) => Promise<Response | undefined>) & {
  /** The answer to a GET or HEAD of a site file already sent once since the live build went in, or undefined. */
  fromMemory(incoming: IncomingMessage): MemoryAnswer | undefined;
};

/**
 * The built site as the Node server serves it: files from disk with their precompressed
 * variant chosen by Accept-Encoding, the headers of the site's `_headers` file (HSTS only when
 * the site is served over https), ETag revalidation, no path outside the folder. Anything that
 * is not a file of the site answers undefined, and the app takes it (the admin shell, the 404 page).
 *
 * Each file's answer, once made, is kept in memory with the build it came from, and `fromMemory`
 * gives it to the next request of the same path and encoding with no disk access: a file server
 * that reads from disk and makes a Response each time answers at half Caddy's rate.
 */
export function staticSite(opts: { root: string; https: boolean }): StaticFiles {
  const root = path.resolve(opts.root);
  let rules: { mtimeMs: number; rules: HeaderRule[] } | null = null;
  const memory = memoryAnswers<{ files: string[] }>(SITE_MEMORY);
  const liveBuild = oncePerTurn(() => liveBuildStamp(root));
  const keyOf = (pathname: string, encoding: string | null) => `${pathname}\n${encoding ?? ''}`;

  async function headerRules(): Promise<HeaderRule[]> {
    const file = path.join(root, '_headers');
    const s = await stat(file).catch(() => null);
    if (!s) return [];
    if (rules?.mtimeMs !== s.mtimeMs)
      rules = { mtimeMs: s.mtimeMs, rules: parseHeadersFile(await readFile(file, 'utf8')) };
    return rules.rules;
  }

  const fromMemory = (incoming: IncomingMessage): MemoryAnswer | undefined => {
    if (incoming.method !== 'GET' && incoming.method !== 'HEAD') return undefined;
    const key = keyOf(requestPath(incoming), chooseEncoding(incoming.headers['accept-encoding']));
    const answer = memory.get(key);
    if (!answer) return undefined;
    if (answer.stamp === `${liveBuild()}|${filesStamp(answer.files)}`) return answer;
    memory.drop(key);
    return undefined;
  };

  const fromDisk = async (req: Request): Promise<Response | undefined> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
    // Taken before any file is read: what is read belongs to this build or a later one.
    const stamp = liveBuildStamp(root);
    const url = new URL(req.url);
    let urlPath: string;
    try {
      urlPath = decodeURIComponent(url.pathname);
    } catch {
      return undefined;
    }
    if (
      APP_PATHS.test(urlPath) ||
      HIDDEN.has(urlPath) ||
      urlPath.includes('\0') ||
      urlPath.split('/').some((s) => s.startsWith('.'))
    )
      return undefined;
    if (/\.(br|gz)$/.test(urlPath)) return undefined;
    // One address a page: /cabins, never /cabins.html or /cabins/, and / never /index (as the
    // assets binding's default html_handling does).
    if (urlPath.endsWith('.html') || urlPath.endsWith('/index') || (urlPath.length > 1 && urlPath.endsWith('/'))) {
      const clean = urlPath.replace(/\/index(?:\.html)?$|\.html$|\/+$/, '') || '/';
      if (clean !== urlPath && (await resolveFile(root, clean)))
        return Response.redirect(new URL(clean + url.search, url), 307);
      return undefined;
    }
    const found = await resolveFile(root, urlPath);
    if (!found) return undefined;

    const ext = path.extname(found.file);
    const headers = new Headers({ 'content-type': TYPES[ext] ?? 'application/octet-stream' });
    let etag = `"${found.size.toString(16)}-${Math.trunc(found.mtimeMs).toString(16)}"`;
    headers.set('cache-control', 'public, max-age=0, must-revalidate');
    for (const rule of await headerRules()) {
      if (!rule.pattern.test(url.pathname)) continue;
      for (const [name, value] of rule.headers) headers.set(name, value);
    }
    if (!opts.https) headers.delete('strict-transport-security');

    let file = found.file;
    const encoding = chooseEncoding(req.headers.get('accept-encoding'));
    if (COMPRESSIBLE.has(ext)) {
      headers.set('vary', 'accept-encoding');
      const twin = encoding && `${found.file}.${encoding === 'br' ? 'br' : 'gz'}`;
      if (
        twin &&
        (await stat(twin).then(
          (s) => s.mtimeMs >= found.mtimeMs - 1000,
          () => false,
        ))
      ) {
        file = twin;
        headers.set('content-encoding', encoding);
        // Each encoding is its own representation, with its own validator.
        etag = `${etag.slice(0, -1)}-${encoding}"`;
      }
    }
    headers.set('etag', etag);
    if (etagMatches(req.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
    // The page and the twin sent for it (the choice of twin, and the ETag, depend on both).
    const files = file === found.file ? [file] : [found.file, file];
    const sent = filesStamp(files);
    const body = await readFile(file).catch(() => null);
    if (!body) return undefined;
    headers.set('content-length', String(body.length));
    if (req.method === 'GET') {
      // Keyed by the encoding asked for, not the one sent: a file with no twin answers both alike.
      memory.set(keyOf(url.pathname, encoding), {
        headers: headerList(headers),
        body,
        etag,
        stamp: `${stamp}|${sent}`,
        files,
      });
    }
    return new Response(req.method === 'HEAD' ? null : body, { headers });
  };

  return Object.assign(fromDisk, { fromMemory });
}
