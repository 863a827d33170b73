import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../schema/messages.ts';
import { buildSite } from '../../scripts/build-site.ts';
import { createRebuilder, startRebuildService } from '../../scripts/rebuild-service.ts';
import { ROOT } from '../../scripts/lib/tools.ts';

/**
 * A failed build never replaces the live site (docs/operations.md «Health checks»). These builds fail at the
 * very first step, reading the content version from the API, so Astro never starts and the
 * tests stay fast. (A build that fails later, inside Astro, goes through the same staging
 * directory; it is not run here because an Astro build takes tens of seconds.)
 */

/** Every file under dir with its bytes' hash and its modification time. */
async function tree(dir: string, prefix = ''): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) {
      out[`${rel}/`] = 'dir';
      Object.assign(out, await tree(dir, rel));
    } else {
      const file = path.join(dir, rel);
      const hash = createHash('sha256')
        .update(await readFile(file))
        .digest('hex');
      out[rel] = `${hash} ${(await stat(file)).mtimeMs}`;
    }
  }
  return out;
}

let outDir: string;
let servers: Server[] = [];

beforeEach(async () => {
  // A live site: pages, a nested asset, a binary file, with an old modification time.
  outDir = await mkdtemp(path.join(tmpdir(), 'kaspiy-live-site-'));
  await mkdir(path.join(outDir, '_astro'), { recursive: true });
  await writeFile(path.join(outDir, 'index.html'), '<!doctype html><title>Каспий</title><h1>Живой сайт</h1>');
  await writeFile(path.join(outDir, '404.html'), '<!doctype html><title>Страница не найдена</title>');
  await writeFile(
    path.join(outDir, 'build.json'),
    JSON.stringify({ contentVersion: 7, builtAt: '2031-01-01T00:00:00.000Z' }),
  );
  await writeFile(
    path.join(outDir, '_astro', 'photo.avif'),
    new Uint8Array([0, 0, 0, 0x20, 0x66, 0x74, 0x79, 0x70, 0xff, 0x00]),
  );
  const old = new Date('2031-01-01T00:00:00Z');
  for (const f of ['index.html', '404.html', 'build.json', '_astro/photo.avif'])
    await utimes(path.join(outDir, f), old, old);
});

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  servers = [];
  await rm(outDir, { recursive: true, force: true });
});

/** Where buildSite would stage this outDir: it must not even be created when the API fails. */
const stagingOf = (dir: string) => path.join(ROOT, 'node_modules/.cache/site-staging', path.basename(dir));
const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

/** A local API that answers every request with the given status and body. */
async function brokenApi(status: number, body: string, type = 'application/json'): Promise<string> {
  const server = createServer((_, res) => res.writeHead(status, { 'content-type': type }).end(body));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('buildSite against an API it cannot use', () => {
  it.each([
    ['unreachable', async () => 'http://127.0.0.1:1'],
    ['answering 500 with a JSON error (D1 down)', () => brokenApi(500, '{"error":"Внутренняя ошибка сервера"}')],
    ['answering 502 with an HTML page', () => brokenApi(502, '<html><body>Bad gateway</body></html>', 'text/html')],
    ['answering 200 with something that is not the build info', () => brokenApi(200, '{"hello":"world"}')],
  ])(
    'should reject when the API is %s, before Astro starts, and leave the live site byte for byte as it was',
    async (_, start) => {
      const apiUrl = await start();
      const before = await tree(outDir);
      const started = Date.now();
      await expect(buildSite({ apiUrl, outDir, quiet: true })).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await tree(outDir)).toEqual(before);
      expect(await exists(stagingOf(outDir))).toBe(false);
    },
  );
});

describe('the rebuild service when the build fails', () => {
  it('should report state failed with the error, keep the live site and never claim a success', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const before = await tree(outDir);
    const rebuilder = createRebuilder({ apiUrl: 'http://127.0.0.1:1', outDir, retryDelaysMs: [] });
    await rebuilder.request();
    expect(rebuilder.status).toMatchObject({
      state: 'failed',
      cause: null,
      lastSuccessAt: null,
      lastBuildMs: null,
      builtVersion: null,
    });
    expect(rebuilder.status.error).toEqual(expect.stringMatching(/fetch failed|ECONNREFUSED/));
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('build failed'));
    expect(logged).toHaveBeenCalledWith(expect.stringContaining(rebuilder.status.error!));
    expect(await tree(outDir)).toEqual(before);
  });

  it('should tell the failure over HTTP, as the admin panel reads it, and fail again on the next hook call', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const rebuilder = createRebuilder({ apiUrl: 'http://127.0.0.1:1', outDir, retryDelaysMs: [] });
    const server = await startRebuildService(rebuilder, 0);
    servers.push(server);
    const hook = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rebuild`;

    const accepted = await fetch(hook, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"version":1}',
    });
    expect(accepted.status).toBe(202);
    await accepted.arrayBuffer();
    await rebuilder.request();

    const res = await fetch(hook);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/json/);
    const status = (await res.json()) as { state: string; error: string | null; lastSuccessAt: string | null };
    expect(status.state).toBe('failed');
    expect(status.error).toBeTruthy();
    expect(status.lastSuccessAt).toBeNull();
  });
});

describe('a failed rebuild tells its cause and tries again', () => {
  /** Astro's output as a failed build ends: its warnings first, the cause last. */
  const failure = () =>
    new Error(
      [
        'astro build exited 1',
        ...Array.from({ length: 30 }, (_, i) => `[WARN] [vite] warning number ${i}`),
        'error   ENOSPC: no space left on device, write',
        '  at writeFile (node:fs)',
      ].join('\n'),
    );

  it('should keep the end of the error, where the cause is, in the status and the whole of it in the log', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const rebuilder = createRebuilder({
      apiUrl: 'http://127.0.0.1:1',
      outDir,
      retryDelaysMs: [],
      build: async () => Promise.reject(failure()),
    });
    await rebuilder.request();
    expect(rebuilder.status.state).toBe('failed');
    expect(rebuilder.status.error).toContain('ENOSPC: no space left on device');
    // A full disk is told plainly in the panel (what to free), not only as Astro's output.
    expect(rebuilder.status.cause).toBe(MSG.buildStorageFull);
    expect(rebuilder.status.error).not.toContain('warning number 0');
    expect(rebuilder.status.error!.split('\n').at(-2)).toBe('error   ENOSPC: no space left on device, write');
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('warning number 0'));
  });

  it('should try a failed build again after each pause, stop after the last, and start over on the next edit', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'log').mockImplementation(() => {});
    let calls = 0;
    let fail = true;
    const build = async () => {
      calls += 1;
      if (fail) throw failure();
      return { contentVersion: 7, ms: 1 };
    };
    const rebuilder = createRebuilder({ apiUrl: 'http://127.0.0.1:1', outDir, retryDelaysMs: [20, 40], build });
    await rebuilder.request();
    expect(calls).toBe(1);
    await vi.waitFor(() => expect(calls).toBe(3), { timeout: 2000 });
    // No third pause: it waits for the next edit.
    await new Promise((r) => setTimeout(r, 150));
    expect(calls).toBe(3);
    expect(rebuilder.status.state).toBe('failed');
    // The next edit builds at once; the retries start over and the first one succeeds.
    await rebuilder.request();
    expect(calls).toBe(4);
    fail = false;
    await vi.waitFor(() => expect(rebuilder.status).toMatchObject({ state: 'idle', error: null, builtVersion: 7 }), {
      timeout: 2000,
    });
    expect(calls).toBe(5);
  });

  it('should read the API address when a build starts, not when the rebuilder is made (npm run serve knows it only once listening)', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    let url = '';
    let seen: string | undefined;
    const rebuilder = createRebuilder({
      get apiUrl() {
        return url;
      },
      outDir,
      retryDelaysMs: [],
      build: async (o) => {
        seen = o.apiUrl;
        return { contentVersion: 1, ms: 1 };
      },
    });
    url = 'http://127.0.0.1:9';
    await rebuilder.request();
    expect(seen).toBe('http://127.0.0.1:9');
  });
});
