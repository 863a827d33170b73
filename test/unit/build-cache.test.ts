import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { astroCacheDir, buildSite } from '../../scripts/build-site.ts';
import { ROOT } from '../../scripts/lib/tools.ts';

// Astro writes its cache entries in place. In CI two servers' builds shared node_modules/.astro,
// one read the other's half-written photo entry, and the e2e stack's build failed with
// «Unexpected end of JSON input». Each site built has a cache of its own; these builds run every
// step of buildSite but Astro's rendering, which a stand-in does, noting the cache it was given.

let api: Server;
let apiUrl = '';
let tmp = '';

beforeAll(async () => {
  api = createServer((req, res) => {
    if (req.url === '/api/build-info')
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"contentVersion":3}');
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  tmp = await mkdtemp(path.join(tmpdir(), 'kaspiy-build-cache-'));
});

afterAll(async () => {
  await new Promise((r) => api.close(r));
  await rm(tmp, { recursive: true, force: true });
});

/** Builds the site in dataDir as the self-hosted server does, and says which cache Astro was given. */
async function cacheOfBuild(dataDir: string): Promise<string> {
  let cache = '';
  await buildSite({
    apiUrl,
    outDir: path.join(dataDir, 'site'),
    stagingDir: path.join(dataDir, '.site-staging'),
    quiet: true,
    render: async (out, env) => {
      cache = env.SITE_CACHE_DIR;
      await mkdir(out, { recursive: true });
      await writeFile(path.join(out, 'index.html'), '<!doctype html><title>Каспий</title>');
    },
  });
  return cache;
}

describe("Astro's cache for the sites being built", () => {
  it('should give two sites built at the same time caches of their own, and a site the same cache build after build', async () => {
    const [a, b] = [path.join(tmp, 'сайт А'), path.join(tmp, 'site b')];
    const [cacheA, cacheB] = await Promise.all([cacheOfBuild(a), cacheOfBuild(b)]);
    expect(cacheA).not.toBe(cacheB);
    for (const cache of [cacheA, cacheB]) {
      expect(cache.startsWith(path.join(ROOT, 'node_modules/.cache/astro-cache/'))).toBe(true);
    }
    expect(await cacheOfBuild(a)).toBe(cacheA);
  });

  it("should keep Astro's usual cache for the project's own dist, which hosted CI keeps between deploys", () => {
    expect(astroCacheDir(path.join(ROOT, 'dist'), path.join(ROOT, 'node_modules/.cache/site-staging/dist'))).toBe(
      path.join(ROOT, 'node_modules/.astro'),
    );
  });

  it('should have the Astro config build with the cache it is given', async () => {
    const before = process.env.SITE_CACHE_DIR;
    process.env.SITE_CACHE_DIR = path.join(tmp, 'cache');
    vi.resetModules();
    try {
      const config = (await import('../../astro.config.mjs')).default as { cacheDir: string };
      expect(config.cacheDir).toBe(path.join(tmp, 'cache'));
    } finally {
      if (before === undefined) delete process.env.SITE_CACHE_DIR;
      else process.env.SITE_CACHE_DIR = before;
    }
  });
});
