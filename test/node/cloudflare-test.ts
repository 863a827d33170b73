// The `cloudflare:test` module for the `node-api` project: the same worker test files run
// against the self-hosted Node server (worker/platform/node/server.ts) over real HTTP, with a
// real SQLite file and a real media folder in a temporary DATA_DIR, one server per test file.
// `env` is that server's own storage ports, so the tests' direct SQL and bucket checks read
// exactly what the server wrote. The server runs in this process, so vi.setSystemTime moves
// its clock as it moves the worker's inside workerd.
//
// The project does not isolate its files (vitest.config.ts): this module, the server and the
// worker's code are loaded once per test worker, not once per file (~0.8 s each). The file's own
// server is started by test/node/file-server.ts, a setup file, which runs before every file;
// `env` and `SELF` always mean the server of the file that runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { startNodeServer, type NodeServer } from '../../worker/platform/node/server.ts';
import { standInBindings } from '../stand-in-bindings.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

type FileServer = { server: NodeServer; dataDir: string; env: Record<string | symbol, unknown> };
let current: FileServer | undefined;

/** Starts the server of the test file about to run, on an empty DATA_DIR of its own. */
export async function startFileServer(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kaspiy-node-api-'));
  const server = await startNodeServer({
    dataDir,
    migrationsDir: path.join(ROOT, 'migrations'),
    port: 0,
    host: '127.0.0.1',
    // The tests give every request its own client address (cf-connecting-ip, as Cloudflare does);
    // here it travels as the trusted proxy's X-Real-IP.
    trustedProxy: true,
    adminPassword: 'test-password-1',
    shutdownGraceMs: 1000,
    // The stand-ins of the project's global setup (MAX, Telegram, SMS.ru, Avito, the feeds).
    bindings: standInBindings(inject),
  });
  const env = {
    ...server.storage.bindings,
    ADMIN_PASSWORD: 'test-password-1',
    REBUILD_HOOK_URL: '',
    ...standInBindings(inject),
    TEST_MIGRATIONS: [] as D1Migration[],
  };
  current = { server, dataDir, env };
}

/** Stops the file's server and removes its DATA_DIR. */
export async function stopFileServer(): Promise<void> {
  const done = current;
  current = undefined;
  if (!done) return;
  await done.server.close();
  rmSync(done.dataDir, { recursive: true, force: true });
}

function running(): FileServer {
  if (!current)
    throw new Error(
      'no server for this test file: test/node/file-server.ts starts it (a setup file of the node-api project)',
    );
  return current;
}

export type D1Migration = { name: string; queries: string[] };

/** The running file's bindings, read when used (the object a test holds stays valid for its file). */
export const env = new Proxy({} as Record<string | symbol, unknown>, {
  get: (_, key) => running().env[key],
  has: (_, key) => key in running().env,
  ownKeys: () => Reflect.ownKeys(running().env),
  getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(running().env, key),
}) as unknown as Cloudflare.Env & NodeServer['storage']['bindings'];

/** Migrations are applied by the server when it opens DATA_DIR. */
export async function applyD1Migrations(): Promise<void> {}

/**
 * A request with a body of known bytes, on a connection of its own, read the way a browser
 * reads it: the answer counts even when the server answered early (413) and closed while the
 * rest of the body was still being sent (fetch would report that as a failed request).
 */
function sendBody(
  url: URL,
  method: string,
  headers: Headers,
  body: Uint8Array | ReadableStream<Uint8Array>,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(url, { method, headers: Object.fromEntries(headers), agent: false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers))
          for (const one of [v].flat()) if (one !== undefined) h.append(k, one);
        const status = res.statusCode ?? 500;
        resolve(
          new Response(status === 204 || status === 304 || method === 'HEAD' ? null : Buffer.concat(chunks), {
            status,
            headers: h,
          }),
        );
      });
      res.on('error', reject);
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    if (body instanceof Uint8Array) {
      req.end(body);
      return;
    }
    // Streamed (chunked) as it comes; a stream that breaks off aborts the request.
    void (async () => {
      const reader = body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (answered || req.destroyed) {
            await reader.cancel();
            return;
          }
          if (!req.write(value)) await new Promise((r) => req.once('drain', r));
        }
        req.end();
      } catch (err) {
        req.destroy(err as Error);
      }
    })();
  });
}

/** A request to the running server: the test's host and scheme go as the proxy's headers. */
export const SELF = {
  async fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const original = new Request(
      input,
      init?.body instanceof ReadableStream ? ({ ...init, duplex: 'half' } as RequestInit) : init,
    );
    const asked = new URL(original.url);
    const headers = new Headers(original.headers);
    headers.set('x-forwarded-host', asked.host);
    headers.set('x-forwarded-proto', asked.protocol.slice(0, -1));
    const ip = headers.get('cf-connecting-ip');
    if (ip) headers.set('x-real-ip', ip);
    const target = new URL(asked.pathname + asked.search, running().server.url);
    if (!original.body) return fetch(target, { method: original.method, headers, redirect: 'manual' });
    if (init?.body instanceof ReadableStream) {
      headers.delete('content-length');
      return sendBody(target, original.method, headers, original.body);
    }
    const bytes = new Uint8Array(await original.arrayBuffer());
    if (!headers.has('content-length')) headers.set('content-length', String(bytes.length));
    return sendBody(target, original.method, headers, bytes);
  },
};

type Ctx = ExecutionContext & { tasks: Promise<unknown>[] };

export function createExecutionContext(): Ctx {
  const tasks: Promise<unknown>[] = [];
  return {
    tasks,
    waitUntil: (p: Promise<unknown>) => void tasks.push(p),
    passThroughOnException: () => {},
    props: {},
  } as unknown as Ctx;
}

export async function waitOnExecutionContext(ctx: ExecutionContext): Promise<void> {
  await Promise.allSettled((ctx as Ctx).tasks);
}
