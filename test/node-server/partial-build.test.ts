import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { astroCacheDir, buildSite, type BuildOptions } from '../../scripts/build-site.ts';
import { warmAstro } from '../../scripts/lib/warm-astro.ts';
import { createRebuilder } from '../../scripts/rebuild-service.ts';
import { seedIfEmpty } from '../../scripts/seed.ts';
import { htmlFileOf, type SitePages } from '../../schema/site-pages.ts';
import { listFiles } from '../../worker/platform/node/list-files.ts';
import type { NodeServer } from '../../worker/platform/node/server.ts';
import { apiAt } from '../typed-api.ts';
import { signIn, startServer, tempDir } from './test-server.ts';

// Edits cost what they change: after a one-cabin edit the rebuild renders only the
// pages that show that cabin's data and keeps the rest of the live site; what it leaves live is
// byte for byte what a full build makes from the same data. Real Astro (kept loaded between
// builds, as the servers run it) against a real Node server with the demo content.

const PASSWORD = 'partial-build-password-1';
const dataDir = tempDir('partial');
let server: NodeServer;
let cookie: string;
const warm = warmAstro({ idleMs: 5_000 });

beforeAll(async () => {
  server = await startServer({
    dataDir: dataDir(),
    adminPassword: PASSWORD,
    shutdownGraceMs: 500,
  });
  await seedIfEmpty(server.storage.bindings);
  cookie = await signIn(server.url, PASSWORD, { origin: server.url });
  // Seeding draws the demo photos when their cache is cold (a fresh clone): ~30 s.
}, 120_000);
afterAll(async () => {
  warm.close();
  await server?.close();
});

const build = (outDir: string, extra: Partial<BuildOptions> = {}) =>
  buildSite({
    apiUrl: server.url,
    outDir,
    stagingDir: `${outDir}-staging`,
    quiet: true,
    render: warm.render,
    ...extra,
  });

async function edit(route: string, body: unknown) {
  const res = await fetch(`${server.url}/api${route}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', origin: server.url, cookie },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

/** Every file of a built site and its bytes, but build.json (it carries the build's time). */
async function files(dir: string): Promise<Map<string, Buffer>> {
  const names = (await listFiles(dir)).filter((f) => !/^build\.json/.test(f)).sort();
  return new Map(await Promise.all(names.map(async (f) => [f, await readFile(path.join(dir, f))] as const)));
}

/**
 * /site-pages.json of a built site, after checking it names exactly the sitemap's addresses, each
 * with the digest of its page's HTML as served.
 */
async function sitePages(dir: string): Promise<Record<string, string>> {
  const { pages } = JSON.parse(await readFile(path.join(dir, 'site-pages.json'), 'utf8')) as SitePages;
  const sitemap = await readFile(path.join(dir, 'sitemap.xml'), 'utf8');
  const listed = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  expect(Object.keys(pages).sort()).toEqual(listed.sort());
  expect(listed).toContain('/');
  expect(listed.some((p) => /^\/(?:shell|b)\/|404|admin/.test(p))).toBe(false);
  for (const [p, digest] of Object.entries(pages)) {
    const html = await readFile(path.join(dir, htmlFileOf(p)));
    expect(digest, p).toBe(createHash('sha256').update(html).digest('base64url').slice(0, 22));
  }
  return pages;
}

/** The site built by the partial path and one built whole from the same data are the same files, byte for byte. */
async function expectSameSite(partialDir: string, label: string) {
  const fullDir = path.join(dataDir(), `full-${label}`);
  // Astro's cache of the live site (its photos optimised once), not a cold one: the bytes compared are the same.
  const live = path.join(dataDir(), 'site');
  expect((await build(fullDir, { cacheDir: astroCacheDir(live, `${live}-staging`) })).partial).toBe(false);
  const [a, b] = await Promise.all([files(partialDir), files(fullDir)]);
  expect([...a.keys()]).toEqual([...b.keys()]);
  const differ = [...a].filter(([f, bytes]) => !bytes.equals(b.get(f)!)).map(([f]) => f);
  expect(differ).toEqual([]);
  // Every kind of page is in the comparison.
  for (const kind of [
    'index.html',
    'cabins.html',
    'cabins/2.html',
    'reviews.html',
    'contacts.html',
    'sitemap.xml',
    'build-pages.json',
    'site-pages.json',
  ])
    expect(a.has(kind), kind).toBe(true);
  expect([...a.keys()].some((f) => /^cabin\/\d+\.html$/.test(f))).toBe(true);
  expect([...a.keys()].some((f) => /^shell\/cards\/\d+\.html$/.test(f))).toBe(true);
}

describe('A rebuild after an edit', () => {
  it("should render only the edited cabin's pages, drop a hidden cabin's, and leave the same site a full build makes", async () => {
    const live = path.join(dataDir(), 'site');
    const first = await build(live);
    expect(first.partial).toBe(false);
    const cabins = await (await apiAt(server.url).cabins.$get({ query: {} })).json();
    expect(cabins.length).toBeGreaterThan(12);
    const [edited, hidden] = [cabins[0]!, cabins.at(-1)!];
    const before = await sitePages(live);

    await edit(`/cabins/${edited.id}`, { pricePerNight: 43_210 });
    await edit(`/cabins/${hidden.id}`, { active: false });
    const second = await build(live);
    expect(second.partial).toBe(true);
    // The edited cabin's page and card, the catalogue pages that list the two, and the pages made
    // once per site (home, catalogue, reviews…): not the other cabins' pages.
    expect(second.pages).toBeLessThan(first.pages / 2);
    expect(await readFile(path.join(live, `cabin/${edited.id}.html`), 'utf8')).toContain('43 210');
    for (const gone of [`cabin/${hidden.id}.html`, `shell/cards/${hidden.id}.html`]) {
      await expect(readFile(path.join(live, gone)), gone).rejects.toThrow();
    }
    await expectSameSite(live, 'cabin');
    // The pages' digests (what IndexNow is told from): the edited cabin's page changed, the hidden
    // one's is gone, another cabin's page kept its digest through a partial build.
    const after = await sitePages(live);
    expect(after[`/cabin/${edited.id}`]).not.toBe(before[`/cabin/${edited.id}`]);
    expect(before[`/cabin/${hidden.id}`]).toBeDefined();
    expect(after[`/cabin/${hidden.id}`]).toBeUndefined();
    const kept = cabins.slice(1, -1).map((c) => `/cabin/${c.id}`);
    expect(kept.map((p) => after[p])).toEqual(kept.map((p) => before[p]));
    // Two whole builds and a partial one; the first in a fresh clone is cold (Astro itself, every
    // demo photo's sizes): 100 s of it on an idle two-core machine.
  }, 360_000);

  it('should render every page after an edit of what every page shows (the phone in the header)', async () => {
    const live = path.join(dataDir(), 'site');
    await edit('/settings', { phone: '+7 (999) 000-11-22' });
    const result = await build(live);
    expect(result.partial).toBe(false);
    const cabinPages = (await listFiles(live)).filter((f) => /^cabin\/\d+\.html$/.test(f));
    for (const page of cabinPages) expect(await readFile(path.join(live, page), 'utf8'), page).toContain('000-11-22');
  }, 180_000);

  it('should build every page when the live site lost a page, and say so', async () => {
    const live = path.join(dataDir(), 'site');
    const [cabin] = await (await apiAt(server.url).cabins.$get({ query: {} })).json();
    // Another cabin's page than the one edited below (that one is rendered anyway).
    const victim = (await listFiles(live)).find(
      (f) => /^cabin\/\d+\.html$/.test(f) && f !== `cabin/${cabin!.id}.html`,
    )!;
    await rm(path.join(live, victim));
    await edit(`/cabins/${cabin!.id}`, { pricePerNight: 12_345 });
    // Through the rebuild service, whose state the panel shows.
    const rebuilder = createRebuilder({
      apiUrl: server.url,
      outDir: live,
      stagingDir: `${live}-staging`,
      render: warm.render,
      settleMs: 0,
      retryDelaysMs: [],
    });
    await rebuilder.request();
    expect(rebuilder.status).toMatchObject({ state: 'idle', lastBuildPartial: false });
    expect(rebuilder.status.fallback).toContain(victim);
    expect(await readFile(path.join(live, victim), 'utf8')).toContain('<html');
    expect(await readFile(path.join(live, `cabin/${cabin!.id}.html`), 'utf8')).toContain('12 345');
  }, 180_000);
});
