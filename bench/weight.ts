import { get } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { NetworkRecord } from './lighthouse.ts';

/** gzip level used for every "gzipped" figure (wrangler dev may serve uncompressed). */
export const GZIP_LEVEL = 9;
/** The visit counting's module and the one it imports, as the build names them. */
const COUNTING_SCRIPT = /^\/_astro\/visit(-count)?\.[\w-]+\.js$/;
const gz = (bytes: Uint8Array | string) => gzipSync(bytes, { level: GZIP_LEVEL }).length;

export type PageWeight = {
  requests: number;
  byType: Record<string, number>;
  htmlBytes: number;
  htmlGzip: number;
  /** The document up to its first <img> (the whole of it if none), brotli at its best: what comes before the first image. */
  htmlBeforeImageBr: number;
  /** Script files the page loaded, each gzipped by us. */
  jsFiles: number;
  jsGzip: number;
  /**
   * Of those, the visit counting's (site/islands/visit-line.ts): imported once the page has loaded,
   * so nothing a visitor sees waits for it. A page with no behaviour loads these alone.
   */
  countingJsFiles: number;
  countingJsGzip: number;
  /** Inline <script> code in the HTML (not JSON data), gzipped on its own; it is also inside htmlGzip. */
  inlineJsBytes: number;
  inlineJsGzip: number;
  cssGzip: number;
  fontBytes: number;
  imageBytes: number;
  images: number;
  otherBytes: number;
  /** Requests to other hosts: the bench's browser cannot reach them, so they are counted, not weighed. */
  external: string[];
  /** Every local request's bytes as the server sent them to a browser (Accept-Encoding: br, gzip). */
  wireBytes: number;
  /** The largest resources by bytes on the wire (gzipped for text), to see what dominates. */
  largest: { url: string; type: string; bytes: number }[];
};

/**
 * What a page loaded, from the network records of its median Lighthouse run: every request it
 * made is fetched again from the local server and measured here (text gzipped at GZIP_LEVEL,
 * images and fonts as stored, since they are compressed already).
 */
export async function pageWeight(records: NetworkRecord[]): Promise<PageWeight> {
  const w: PageWeight = {
    requests: 0,
    byType: {},
    htmlBytes: 0,
    htmlGzip: 0,
    htmlBeforeImageBr: 0,
    jsFiles: 0,
    jsGzip: 0,
    countingJsFiles: 0,
    countingJsGzip: 0,
    inlineJsBytes: 0,
    inlineJsGzip: 0,
    cssGzip: 0,
    fontBytes: 0,
    imageBytes: 0,
    images: 0,
    otherBytes: 0,
    wireBytes: 0,
    external: [],
    largest: [],
  };
  const sized: { url: string; type: string; bytes: number }[] = [];
  for (const rec of records) {
    if (!/^https?:/.test(rec.url)) continue;
    w.requests += 1;
    const type = rec.resourceType || 'Other';
    w.byType[type] = (w.byType[type] ?? 0) + 1;
    const url = new URL(rec.url);
    if (url.hostname !== '127.0.0.1') {
      w.external.push(`${url.origin}${url.pathname}`);
      continue;
    }
    const body = new Uint8Array(
      await (await fetch(rec.url, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer(),
    );
    w.wireBytes += await bytesOnTheWire(rec.url);
    let bytes = body.length;
    if (type === 'Document') {
      const html = new TextDecoder().decode(body);
      w.htmlBytes += body.length;
      bytes = gz(body);
      w.htmlGzip += bytes;
      const firstImage = html.search(/<img\b/);
      w.htmlBeforeImageBr += brotliCompressSync(Buffer.from(firstImage < 0 ? html : html.slice(0, firstImage)), {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
      }).length;
      const inline = inlineScripts(html);
      w.inlineJsBytes += Buffer.byteLength(inline);
      w.inlineJsGzip += inline ? gz(inline) : 0;
    } else if (type === 'Script') {
      bytes = gz(body);
      w.jsFiles += 1;
      w.jsGzip += bytes;
      if (COUNTING_SCRIPT.test(url.pathname)) {
        w.countingJsFiles += 1;
        w.countingJsGzip += bytes;
      }
    } else if (type === 'Stylesheet') {
      bytes = gz(body);
      w.cssGzip += bytes;
    } else if (type === 'Image') {
      w.imageBytes += bytes;
      w.images += 1;
    } else if (type === 'Font') {
      w.fontBytes += bytes;
    } else {
      bytes = gz(body);
      w.otherBytes += bytes;
    }
    sized.push({ url: url.pathname, type, bytes });
  }
  w.largest = sized.sort((a, b) => b.bytes - a.bytes).slice(0, 5);
  return w;
}

/** The code of every inline <script> that runs (no src, not a JSON or template type), joined. */
export function inlineScripts(html: string): string {
  const out: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = m[1] ?? '';
    if (/\bsrc\s*=/.test(attrs)) continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1]?.toLowerCase();
    if (type && !['module', 'text/javascript', 'application/javascript'].includes(type)) continue;
    if (m[2]!.trim()) out.push(m[2]!);
  }
  return out.join('\n');
}

/** The body's size as sent to a browser that takes brotli and gzip (not decoded, unlike fetch). */
function bytesOnTheWire(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': 'br, gzip' } }, (res) => {
      let n = 0;
      res.on('data', (d: Buffer) => (n += d.length));
      res.on('end', () => resolve(n));
      res.on('error', reject);
    }).on('error', reject);
  });
}
