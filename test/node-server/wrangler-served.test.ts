import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, STALE_GRACE_MS } from '../../scripts/build-site.ts';
import { untilServedBy } from '../../scripts/lib/served-check.ts';
import { collectOutput, quietEnv, ROOT, waitFor } from '../../scripts/lib/tools.ts';
import { freePort } from './free-port.ts';
import { until } from './until.ts';

// `npm start` and the e2e stacks serve the site with `wrangler dev`, which serves only the paths
// it has listed and lists the directory again a moment after it changes. In CI a journey created
// a cabin, waited for «Сайт обновлён» (build.json's version) and opened the cabin's page: 404,
// because build.json, listed long before, said the new version before wrangler listed the new
// page. Here a real `wrangler dev` (the site's files only, no worker) serves a site, a build
// adds a page, and the version it names must never be served before that page is.

let dir: string;
let api: Server;
let apiUrl = '';
let wrangler: ChildProcess | undefined;
let siteUrl = '';
let version = 1;

beforeAll(async () => {
  // The owner's folder may be named anything: a space and Cyrillic in the path.
  dir = await mkdtemp(path.join(tmpdir(), 'kaspiy wrangler-сайт-'));
  const site = path.join(dir, 'site');
  await mkdir(site);
  await writeFile(path.join(site, 'index.html'), '<!doctype html><title>Каспий</title>');
  await writeFile(path.join(site, 'build.json'), JSON.stringify({ contentVersion: version, builtAt: null }));
  api = createServer((req, res) => {
    if (req.url === '/api/build-info')
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ contentVersion: version }));
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  const port = await freePort();
  siteUrl = `http://127.0.0.1:${port}`;
  // Run from the temporary folder, so wrangler reads no wrangler.toml and keeps its state there.
  wrangler = spawn(
    path.join(ROOT, 'node_modules/.bin/wrangler'),
    [
      'dev',
      '--assets',
      site,
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--compatibility-date',
      '2025-01-01',
      '--show-interactive-dev-session=false',
      '--log-level',
      'warn',
    ],
    { cwd: dir, env: quietEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output = collectOutput(wrangler, true);
  await Promise.race([
    waitFor(`${siteUrl}/build.json`, 60_000),
    new Promise((_, reject) =>
      wrangler!.once('exit', (code) => reject(new Error(`wrangler dev exited (${code})\n${output.text()}`))),
    ),
  ]);
}, 90_000);

afterAll(async () => {
  if (wrangler && wrangler.exitCode === null) {
    const gone = new Promise((r) => wrangler!.once('exit', r));
    wrangler.kill('SIGTERM');
    await gone;
  }
  await new Promise((r) => api?.close(r));
  await rm(dir, { recursive: true, force: true });
});

/** The version wrangler serves in build.json right now. */
const servedVersion = () =>
  fetch(`${siteUrl}/build.json`, { cache: 'no-store' })
    .then(
      (r) => (r.ok ? (r.json() as Promise<{ contentVersion: number }>) : null),
      () => null,
    )
    .then(
      (b) => b?.contentVersion ?? null,
      () => null,
    );

describe('a build served by wrangler dev', () => {
  it('should serve a page new in a build before build.json names its version, and take its check file away after', async () => {
    for (const cabin of [21, 22, 23]) {
      version += 1;
      const expected = version;
      const page = `/cabin/${cabin}/`;
      // Watches from before the build starts: the first moment build.json says the new version,
      // the new page must already answer.
      let stop = false;
      const watched = (async () => {
        while (!stop) {
          if ((await servedVersion()) === expected) return (await fetch(`${siteUrl}${page}`)).status;
          await new Promise((r) => setTimeout(r, 10));
        }
        return null;
      })();
      try {
        const result = await buildSite({
          apiUrl,
          outDir: path.join(dir, 'site'),
          stagingDir: path.join(dir, '.site-staging'),
          quiet: true,
          partial: false,
          render: async (out) => {
            await mkdir(path.join(out, 'cabin', String(cabin)), { recursive: true });
            await writeFile(path.join(out, 'index.html'), `<!doctype html><title>Каспий ${expected}</title>`);
            await writeFile(
              path.join(out, 'cabin', String(cabin), 'index.html'),
              `<!doctype html><title>Домик ${cabin}</title>`,
            );
          },
          beforeVersion: untilServedBy(siteUrl),
        });
        expect(result.contentVersion).toBe(expected);
        expect(
          await until(
            'build.json to say the new version',
            async () => ((await servedVersion()) === expected ? true : undefined),
            20_000,
          ),
        ).toBe(true);
      } finally {
        stop = true;
      }
      expect(await watched, `${page} when build.json first said version ${expected}`).toBe(200);
    }
    // The check files go once wrangler has listed them (not at once: a file gone mid-listing stops it).
    await new Promise((r) => setTimeout(r, STALE_GRACE_MS + 500));
    expect((await readdir(path.join(dir, 'site'))).filter((f) => f.startsWith('served-'))).toEqual([]);
    expect(wrangler?.exitCode).toBeNull();
  });
});
