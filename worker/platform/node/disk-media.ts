import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { MediaPort } from '../ports.ts';

/**
 * Any key R2 would take maps to one file name in the folder: percent-encoded, so `/`, `\` and
 * `..` in a key stay inside the name and no key can leave the folder; a leading dot is encoded
 * too (temporary files start with one). The keys the upload route makes stay readable.
 */
const fileNameOf = (key: string) => encodeURIComponent(key).replace(/^\./, '%2E');
const keyOf = (fileName: string) => decodeURIComponent(fileName);
const TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};
/** Files being written; never listed or served, removed if a write breaks off. */
const TMP_PREFIX = '.tmp-';

export const contentTypeOf = (key: string) => TYPES[key.split('.').pop()!.toLowerCase()] ?? 'application/octet-stream';

function checkKey(key: string): string {
  if (!key || key.length > 1024) throw new Error(`Refused media key ${JSON.stringify(key.slice(0, 40))}`);
  return fileNameOf(key);
}

type Info = { key: string; size: number; mtimeMs: number };

const etagOf = (i: Info) => `"${i.size.toString(16)}-${Math.trunc(i.mtimeMs).toString(16)}"`;

function objectOf(i: Info, body: ReadableStream | null) {
  const read = () => new Response(body).arrayBuffer();
  const httpEtag = etagOf(i);
  const base = {
    key: i.key,
    size: i.size,
    etag: httpEtag.slice(1, -1),
    httpEtag,
    uploaded: new Date(i.mtimeMs),
    httpMetadata: { contentType: contentTypeOf(i.key) },
    customMetadata: {},
    writeHttpMetadata: (h: Headers) => h.set('content-type', contentTypeOf(i.key)),
  };
  return body
    ? {
        ...base,
        body,
        arrayBuffer: read,
        text: async () => new TextDecoder().decode(await read()),
        bytes: async () => new Uint8Array(await read()),
      }
    : base;
}

/** True when the request's revalidation headers say the client's copy is current. */
function notModified(i: Info, onlyIf: unknown): boolean {
  if (!(onlyIf instanceof Headers)) return false;
  const etags = onlyIf.get('if-none-match');
  if (etags) {
    const tag = etagOf(i);
    return etags.trim() === '*' || etags.split(',').some((t) => t.trim().replace(/^W\//, '') === tag);
  }
  const since = onlyIf.get('if-modified-since');
  return since !== null && Math.floor(i.mtimeMs / 1000) <= Math.floor(Date.parse(since) / 1000);
}

async function bytesOf(value: unknown): Promise<Uint8Array> {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (typeof value === 'string') return new TextEncoder().encode(value);
  if (value instanceof Blob) return new Uint8Array(await value.arrayBuffer());
  if (value instanceof ReadableStream) return new Uint8Array(await new Response(value).arrayBuffer());
  throw new TypeError('Unsupported media value');
}

/**
 * The media port on Node: photos as files in one folder (DATA_DIR/media). A photo is written
 * to a temporary file and renamed into place, so a full disk or a crash never leaves a
 * half-written photo under its key. The type is told by the key's extension, which the upload
 * route makes from the sniffed bytes.
 */
export function diskMedia(dir: string): MediaPort {
  const info = async (key: string): Promise<Info | null> => {
    const s = await stat(path.join(dir, checkKey(key))).catch(() => null);
    return s?.isFile() ? { key, size: s.size, mtimeMs: s.mtimeMs } : null;
  };

  const port = {
    async get(key: string, options?: { onlyIf?: unknown }) {
      const i = await info(key);
      if (!i) return null;
      if (notModified(i, options?.onlyIf)) return objectOf(i, null);
      const body = Readable.toWeb(createReadStream(path.join(dir, fileNameOf(key)))) as ReadableStream;
      return objectOf(i, body);
    },
    async head(key: string) {
      const i = await info(key);
      return i && objectOf(i, null);
    },
    async put(key: string, value: unknown) {
      const file = path.join(dir, checkKey(key));
      await mkdir(dir, { recursive: true });
      const tmp = path.join(dir, `${TMP_PREFIX}${randomUUID()}`);
      try {
        await writeFile(tmp, await bytesOf(value));
        await rename(tmp, file);
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
      return objectOf((await info(key))!, null);
    },
    async delete(keys: string | string[]) {
      for (const key of Array.isArray(keys) ? keys : [keys]) await rm(path.join(dir, checkKey(key)), { force: true });
    },
    async list(options?: { prefix?: string }) {
      const keys = (await readdir(dir).catch(() => [] as string[])).filter((n) => !n.startsWith('.')).map(keyOf);
      const objects = [];
      for (const key of keys.sort()) {
        if (options?.prefix && !key.startsWith(options.prefix)) continue;
        const i = await info(key);
        if (i) objects.push(objectOf(i, null));
      }
      return { objects, truncated: false, delimitedPrefixes: [] };
    },
  };
  return port as unknown as MediaPort;
}
