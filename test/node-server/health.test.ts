import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../schema/messages.ts';
import { writePlaceholder } from '../../scripts/lib/stack.ts';
import { createRebuilder } from '../../scripts/rebuild-service.ts';
import type { NodeServer } from '../../worker/platform/node/server.ts';
import { staticSite } from '../../worker/platform/node/static-site.ts';
import { apiAt } from '../typed-api.ts';
import { ownerRequests, ROOT, signIn, startServer, tempDir } from './test-server.ts';

// The self-hosted server's health check and «Повторить» through real HTTP, with a real site
// folder (the placeholder, then build.json), the real rebuilder and its retry state. The build
// itself is a stand-in that writes build.json as the real one does last (an Astro build takes
// a minute); it fails, while told to, with output shaped like Astro's: warnings first, cause last.

const PASSWORD = 'health-check-1';

const tmp = tempDir('health');
let siteDir: string;
let server: NodeServer;
let cookie: string;
let failing = false;
let builds = 0;

const rebuilder = createRebuilder({
  apiUrl: '',
  outDir: '',
  retryDelaysMs: [],
  build: async () => {
    builds++;
    const { contentVersion } = await (await apiAt(server.url)['build-info'].$get()).json();
    if (failing) {
      const warnings = Array.from({ length: 30 }, (_, i) => `[WARN] [vite] warning ${i + 1} of 30`).join('\n');
      throw new Error(
        `${warnings}\nBuilding static entrypoints...\nError [ERR_MODULE_NOT_FOUND]: Cannot find package '@oslojs/encoding'`,
      );
    }
    await writeFile(
      path.join(siteDir, 'build.json'),
      JSON.stringify({ contentVersion, builtAt: new Date().toISOString() }),
    );
    await writeFile(path.join(siteDir, 'index.html'), '<!doctype html><title>Каспий</title><h1>Дом у моря</h1>');
    return { contentVersion, ms: 1 };
  },
});

const { api } = ownerRequests(() => ({ url: server.url, cookie }));
const health = async () => {
  const res = await apiAt(server.url).health.$get();
  return { status: res.status, body: await res.json() };
};
/** `npm run health` (the deploy kit's watchdog) against a server: its exit code and what it printed. */
const healthCheck = (url: string) =>
  new Promise<{ code: number; out: string }>((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, 'scripts/health-check.ts'), '--url', url, '--timeout', '2'],
      (err, stdout, stderr) => resolve({ code: typeof err?.code === 'number' ? err.code : 0, out: stdout + stderr }),
    );
  });

/** Waits for the builder to settle after an edit or «Повторить». */
const settled = async () => {
  await vi.waitFor(() => expect(rebuilder.status.state).not.toBe('building'), { timeout: 5000 });
  await rebuilder.idle();
};

beforeAll(async () => {
  siteDir = path.join(tmp(), 'site');
  await writePlaceholder(siteDir);
  server = await startServer({
    dataDir: tmp(),
    siteDir,
    adminPassword: PASSWORD,
    rebuild: { request: () => rebuilder.request(), status: async () => rebuilder.status },
    staticFiles: staticSite({ root: siteDir, https: false }),
  });
  cookie = await signIn(server.url, PASSWORD);
});

afterAll(async () => {
  await server?.close().catch(() => {});
});

describe('the self-hosted server’s health check', () => {
  it('should serve a page that says the site is being prepared, and answer 503, until the first build', async () => {
    const page = await fetch(`${server.url}/`);
    const html = await page.text();
    expect(html).toContain('Сайт готовится');
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).not.toMatch(/₽|Домики|Отзывы/);
    expect(await health()).toEqual({ status: 503, body: { ok: false, error: MSG.healthNoSite } });
    // The watchdog logs the reason and does not restart: a restart would not build the site.
    expect(await healthCheck(server.url)).toMatchObject({ code: 1, out: expect.stringContaining(MSG.healthNoSite) });
  });

  it('should answer 200 with the live version once a site is built', async () => {
    await rebuilder.request();
    const { status, body } = await health();
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, contentVersion: 0 });
    expect(await healthCheck(server.url)).toMatchObject({ code: 0 });
  });

  it('should answer 503 after an edit whose build failed, and show the cause, not the warnings, in the panel', async () => {
    failing = true;
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const edit = await api('/api/settings', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ heroTitle: 'Новый заголовок' }),
    });
    expect(edit.status).toBe(200);
    await vi.waitFor(() => expect(rebuilder.status.state).toBe('failed'), { timeout: 5000 });
    errors.mockRestore();
    expect(await health()).toEqual({ status: 503, body: { ok: false, error: MSG.healthBuildFailed } });
    const publish = await (await apiAt(server.url, { cookie }).admin.publish.$get()).json();
    expect(publish).toMatchObject({ upToDate: false, liveVersion: 0, contentVersion: 1, builder: { state: 'failed' } });
    expect(publish.builder!.error).toContain("Cannot find package '@oslojs/encoding'");
    expect(publish.builder!.error).not.toContain('warning 1 of 30');
    // The live site kept serving meanwhile.
    expect(await (await fetch(`${server.url}/`)).text()).toContain('Дом у моря');
  });

  it('should build the same content again on «Повторить», and be healthy once it went live', async () => {
    failing = false;
    const before = builds;
    const retry = await api('/api/admin/publish', { method: 'POST' });
    expect(retry.status).toBe(202);
    await settled();
    expect(builds).toBe(before + 1);
    expect(await health()).toMatchObject({ status: 200, body: { ok: true, contentVersion: 1 } });
    expect(await (await api('/api/build-info')).json()).toEqual({ contentVersion: 1 });
  });

  it('should answer 503 when the database does not answer', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    server.storage.db.close();
    expect(await health()).toEqual({ status: 503, body: { ok: false, error: MSG.healthDatabase } });
    errors.mockRestore();
  });

  it('should have the watchdog tell a hung server (it restarts it) from one that answers', async () => {
    // A port that accepts connections and never answers, as a server whose event loop is stuck.
    const hung = createServer(() => {});
    await new Promise<void>((r) => hung.listen(0, '127.0.0.1', r));
    const { port } = hung.address() as { port: number };
    try {
      expect(await healthCheck(`http://127.0.0.1:${port}`)).toMatchObject({
        code: 2,
        out: expect.stringContaining('did not answer'),
      });
    } finally {
      hung.close();
    }
  });
});
