// The `cloudflare:test` module for the `node-api` project: the same worker test files run
// against the self-hosted Node server (worker/platform/node/server.ts) over real HTTP, with a
// real SQLite file and a real media folder in a temporary DATA_DIR, one server per test file.
// `env` is that server's own storage ports, so the tests' direct SQL and bucket checks read
// exactly what the server wrote. The server runs in this process, so vi.setSystemTime moves
// its clock as it moves the worker's inside workerd.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { startNodeServer } from '../../worker/platform/node/server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
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
});

afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

export type D1Migration = { name: string; queries: string[] };

export const env = {
  ...server.storage.bindings,
  ADMIN_PASSWORD: 'test-password-1',
  REBUILD_HOOK_URL: '',
  TEST_MIGRATIONS: [] as D1Migration[],
} as unknown as Cloudflare.Env & typeof server.storage.bindings;

/** Migrations are applied by the server when it opens DATA_DIR. */
export async function applyD1Migrations(): Promise<void> {}

/** A request to the running server: the test's host and scheme go as the proxy's headers. */
export const SELF = {
  async fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const original = new Request(input, init?.body instanceof ReadableStream ? { ...init, duplex: 'half' } as RequestInit : init);
    const asked = new URL(original.url);
    const headers = new Headers(original.headers);
    headers.set('x-forwarded-host', asked.host);
    headers.set('x-forwarded-proto', asked.protocol.slice(0, -1));
    const ip = headers.get('cf-connecting-ip');
    if (ip) headers.set('x-real-ip', ip);
    const body = original.body;
    return fetch(new URL(asked.pathname + asked.search, server.url), {
      method: original.method,
      headers,
      body,
      redirect: 'manual',
      ...(body ? { duplex: 'half' } : {}),
    } as RequestInit);
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
