import { createHash } from 'node:crypto';
import { copyFile, cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { listFiles } from '../worker/platform/node/list-files.ts';
import { GALLERY_ROTATION_CHUNK, GALLERY_ROTATION_MARKER } from '../schema/gallery.ts';
import { SEARCH_PICKER_CHUNK, SEARCH_PICKER_MARKER } from '../schema/search-page.ts';
import { VISIT_COUNT_CHUNK, VISIT_COUNT_MARKER } from '../schema/visits.ts';
import { htmlFileOf, SITE_PAGES_PATH, type SitePages } from '../schema/site-pages.ts';
import { METRIKA_CONSENT_CHUNK, METRIKA_CONSENT_MARKER } from '../schema/metrika.ts';
import { GUEST_MODULE_CHUNK, GUEST_MODULE_MARKER } from '../schema/guest-page.ts';
import { REVIEWS_MODULE_CHUNK, REVIEWS_MODULE_MARKER } from '../schema/reviews-page.ts';
import { ownHashesOnly } from './lib/page-csp.ts';
import type { PagesManifest } from '../site/lib/page-keys.ts';
import { addToPool, fillFromPool } from './lib/image-pool.ts';
import { ROOT, quietEnv, run } from './lib/tools.ts';

export type BuildOptions = {
  /** Where the build reads content: a running worker. */
  apiUrl: string;
  /** The directory the worker serves; replaced only after a successful build. */
  outDir: string;
  /** The public address for canonical links (defaults to apiUrl). */
  siteUrl?: string;
  quiet?: boolean;
  /** Where the build is made before it goes live; best on the same disk as outDir (atomic renames). */
  stagingDir?: string;
  /** Runs on the finished build in staging, before it goes live (the Node server precompresses). */
  postBuild?: (stagingDir: string) => Promise<void>;
  /** Runs as a build starts (the Node server stops making its twins best, so the build has the CPU). */
  beforeRender?: () => Promise<void>;
  /** Runs once the build is live (the Node server brings its quick twins to their best then). */
  afterLive?: (outDir: string) => void;
  /**
   * Runs once every new file is in outDir, before build.json names the new version: `wrangler dev`
   * serves a new page only after it has rescanned the directory, while build.json, already
   * listed, is read from disk at once; the stack waits here for that rescan (lib/served-check.ts).
   */
  beforeVersion?: (outDir: string) => Promise<void>;
  /**
   * Yandex Metrika's host the pages load the counter from once a visitor agrees (METRIKA_URL;
   * Yandex's own when empty). A test stack names its stand-in here.
   */
  metrikaUrl?: string;
  /** Stops a build that has not started going live (the server is stopping); a swap under way finishes. */
  signal?: AbortSignal;
  /**
   * Astro's cache of another site built before this one, never at the same time (see
   * astroCacheDir): its optimised photos are reused instead of made again.
   */
  cacheDir?: string;
  /**
   * Renders the pages into `outDir` (by default `astro build`, a minute or more). Tests give a
   * stand-in that writes a few pages, to run every later step of a real build in seconds.
   */
  render?: (outDir: string, env: Record<string, string>, opts: BuildOptions) => Promise<void>;
  /**
   * Render only the pages whose data changed since the live build and keep the rest of it
   * (site/lib/page-keys.ts); on by default. false always renders every page (a deploy).
   */
  partial?: boolean;
};

/** What a build did: the content version it made live, how long it took, whether it rendered only what changed. */
export type BuildResult = {
  contentVersion: number;
  ms: number;
  /** Only the changed pages were rendered; the rest of the live site was kept. */
  partial: boolean;
  /** Pages (HTML files) rendered by this build. */
  pages: number;
  /** Why the partial render failed and a full build was made instead (the panel says so). */
  fallback: string | null;
};

/** The real rendering: Astro, in a production build, with the content read from the API. */
async function astroBuild(outDir: string, env: Record<string, string>, opts: BuildOptions): Promise<void> {
  await run('astro', ['build'], {
    quiet: opts.quiet,
    signal: opts.signal,
    env: quietEnv({ ...env, SITE_OUT_DIR: outDir }),
  });
}

/**
 * Builds the site into a staging directory and, only if that succeeds, makes outDir match it.
 * A failed build leaves the live site as it was, and its half-made copies are removed: on a
 * full disk they would hold the very space the next build needs. When the live site has a page
 * manifest, the build renders only the pages whose data changed and keeps the others; if that
 * fails, it builds every page once more before it gives up.
 */
export async function buildSite(opts: BuildOptions): Promise<BuildResult> {
  const started = Date.now();
  const live = opts.partial !== false && (await hasBuild(opts.outDir)) ? await readLiveManifest(opts.outDir) : null;
  if (!live) return { ...(await buildOnce(opts, null)), ms: Date.now() - started, fallback: null };
  try {
    return { ...(await buildOnce(opts, live)), ms: Date.now() - started, fallback: null };
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    const why = err instanceof Error ? err.message : String(err);
    console.error(`[build] the partial build failed; building every page instead.\n${why}`);
    return {
      ...(await buildOnce(opts, null)),
      ms: Date.now() - started,
      fallback: why.split('\n').filter(Boolean).slice(-5).join('\n'),
    };
  }
}

/** One build: every page (live null), or only the changed ones on top of the live site. */
async function buildOnce(opts: BuildOptions, live: LiveManifest | null): Promise<Omit<BuildResult, 'ms' | 'fallback'>> {
  opts.signal?.throwIfAborted();
  // The version is read before any content, so a write during the build shows as "not yet live".
  const info = await readBuildInfo(opts.apiUrl);
  const staging = opts.stagingDir ?? path.join(ROOT, 'node_modules/.cache/site-staging', path.basename(opts.outDir));
  const astroOut = astroOutDir(staging);
  const clean = () =>
    Promise.all([rm(staging, { recursive: true, force: true }), rm(astroOut, { recursive: true, force: true })]);
  await clean();
  await opts.beforeRender?.();
  const cacheDir = opts.cacheDir ?? astroCacheDir(opts.outDir, staging);
  const pool = process.env.SITE_IMAGE_POOL;
  if (pool) await fillFromPool(pool, cacheDir);
  try {
    await (opts.render ?? astroBuild)(
      astroOut,
      {
        // A production build even when started from a test runner (vitest sets NODE_ENV=test,
        // which would give the site React's development build).
        NODE_ENV: 'production',
        API_URL: opts.apiUrl,
        SITE_URL: opts.siteUrl ?? opts.apiUrl,
        BUILD_CONTENT_VERSION: String(info.contentVersion),
        BUILD_CODE_KEY: await codeKey(),
        // Empty: the pages read no live manifest and all of them are rendered.
        BUILD_LIVE_PAGES: live?.file ?? '',
        SITE_CACHE_DIR: cacheDir,
        METRIKA_URL: opts.metrikaUrl ?? process.env.METRIKA_URL ?? '',
      },
      opts,
    );
    if (pool) await addToPool(pool, cacheDir);
    await moveDir(astroOut, staging);
    const made = await readManifest(staging);
    // The pages use the live manifest only when it was made with the same code and settings
    // (its site key); otherwise they were all rendered, and the live site is replaced as a whole.
    const partial = !!live && !!made && made.site === live.manifest.site;
    if (live && !partial && made) console.log('[build] the settings or the code changed: every page was rendered.');
    const pages = (await listFiles(staging)).filter((f) => f.endsWith('.html')).length;
    await finishPages(staging);
    await writeSitePages(staging, opts.outDir);
    await writeFile(
      path.join(staging, 'build.json'),
      JSON.stringify({ contentVersion: info.contentVersion, builtAt: new Date().toISOString() }),
    );
    // Every file this build has (what a full build keeps); those already live as they are need no
    // compression and no move.
    const built = await listFiles(staging);
    await dropUnchanged(staging, opts.outDir, built);
    await opts.postBuild?.(staging);
    if (partial) await checkWhole(made!, staging, opts.outDir);
    // A full build makes exactly the photos its pages use; a partial one must remove those of a
    // photo replaced or a cabin hidden, once no page names them.
    const gone = partial ? goneFiles(live!.manifest, made!) : null;
    const maybeUnused = gone ? await imagesOfReplacedPages(staging, opts.outDir, gone.gone) : new Set<string>();
    opts.signal?.throwIfAborted();
    await syncDir(staging, opts.outDir, gone ?? { keep: built }, opts.beforeVersion);
    await removeUnusedImages(opts.outDir, maybeUnused);
    opts.afterLive?.(opts.outDir);
    return { contentVersion: info.contentVersion, partial, pages };
  } finally {
    // After a success staging holds only what was already live (moved files are gone from it).
    await clean().catch((err: Error) =>
      console.error(`Could not remove the build's leftovers in ${staging}: ${err.message}`),
    );
  }
}

type LiveManifest = { file: string; manifest: PagesManifest };

/** The live site's page manifest, or null (none, or unreadable: then every page is rendered). */
async function readLiveManifest(outDir: string): Promise<LiveManifest | null> {
  const manifest = await readManifest(outDir);
  return manifest ? { file: path.join(outDir, MANIFEST), manifest } : null;
}

const MANIFEST = 'build-pages.json';

async function readManifest(dir: string): Promise<PagesManifest | null> {
  try {
    const m = JSON.parse(await readFile(path.join(dir, MANIFEST), 'utf8')) as PagesManifest;
    return typeof m.site === 'string' && m.pages && typeof m.pages === 'object' ? m : null;
  } catch {
    return null;
  }
}

/** A keyed page's file, as Astro writes it with `build.format: 'file'`. */
const pageFile = (pagePath: string) => `${pagePath.slice(1)}.html`;

/** The files of the pages the live site has and this build no longer makes (a cabin hidden or removed), with their compressed twins. */
function goneFiles(live: PagesManifest, made: PagesManifest): { gone: string[] } {
  const gone = Object.keys(live.pages).filter((p) => !(p in made.pages));
  return { gone: gone.flatMap((p) => [pageFile(p), `${pageFile(p)}.br`, `${pageFile(p)}.gz`]) };
}

/**
 * A partial build is whole only if every page it kept is really in the live site (one removed
 * by hand would stay missing): otherwise it fails, and a full build is made.
 */
async function checkWhole(made: PagesManifest, staging: string, outDir: string): Promise<void> {
  for (const p of Object.keys(made.pages)) {
    const file = pageFile(p);
    if (!(await exists(path.join(staging, file))) && !(await exists(path.join(outDir, file)))) {
      throw new Error(`The live site has no ${file}, which the partial build kept`);
    }
  }
}

/** Image variants Astro writes into _astro/ (scripts and styles are the same for every build of the same code). */
const IMAGE = /\.(?:avif|webp|jpe?g|png|gif|svg)$/;
/** The text files that can name an image: pages, the home gallery's JSON, sitemap, styles and scripts. */
const NAMES_IMAGES = /\.(?:html|json|css|js|xml)$/;

/** The _astro/ images the files name (in attributes, srcsets, styles and escaped island props alike). */
async function namedImages(dir: string, files: string[]): Promise<Set<string>> {
  const named = new Set<string>();
  for (const file of files.filter((f) => NAMES_IMAGES.test(f))) {
    const text = await readFile(path.join(dir, file), 'latin1').catch(() => '');
    for (const m of text.matchAll(/\/_astro\/([\w.-]+)/g)) if (IMAGE.test(m[1]!)) named.add(`_astro/${m[1]}`);
  }
  return named;
}

/**
 * The photos a partial build may leave behind: those the pages it replaces or removes named in
 * their live version (a photo replaced, a cabin hidden). Read before the new pages go live.
 */
async function imagesOfReplacedPages(staging: string, outDir: string, gone: string[]): Promise<Set<string>> {
  const replaced = (await listFiles(staging)).filter((f) => NAMES_IMAGES.test(f));
  const before = await namedImages(outDir, [...replaced, ...gone]);
  const still = await namedImages(staging, replaced);
  return new Set([...before].filter((f) => !still.has(f)));
}

/** Removes those of the candidates that no file of the live site names any more, with their compressed twins. */
async function removeUnusedImages(outDir: string, candidates: Set<string>): Promise<void> {
  if (candidates.size === 0) return;
  const used = await namedImages(outDir, await listFiles(outDir));
  const unused = [...candidates].filter((f) => !used.has(f));
  await Promise.all(
    unused.flatMap((f) => [f, `${f}.br`, `${f}.gz`]).map((f) => rm(path.join(outDir, f), { force: true })),
  );
}

const exists = (file: string) =>
  stat(file).then(
    (s) => s.isFile(),
    () => false,
  );

/**
 * Removes from staging every file the live site already has with the same bytes. Astro names what
 * it writes into _astro/ by a digest of what makes it (a script's code, a photo's source and
 * sizes), so such a file, live under the same name and size, is not read again: a partial build
 * copies a hundred photos and scripts there, and reading both copies took 100 ms of each edit.
 */
async function dropUnchanged(staging: string, outDir: string, files: string[]): Promise<void> {
  for (const file of files) {
    const unchanged = file.startsWith('_astro/')
      ? await sameSize(path.join(staging, file), path.join(outDir, file))
      : await sameContent(path.join(staging, file), path.join(outDir, file));
    if (unchanged) await rm(path.join(staging, file));
  }
}

async function sameSize(a: string, b: string): Promise<boolean> {
  const [sa, sb] = await Promise.all([stat(a), stat(b).catch(() => null)]);
  return !!sb?.isFile() && sa.size === sb.size;
}

/**
 * What the pages are made with besides the content: the sources the build imports (the site,
 * schema/, the one helper of worker/lib it uses; the API's own code reaches the pages only as
 * data) and the packages. A changed template must render every page, though no data changed.
 * By content, not by time of change (a fresh checkout, as in the deploy workflow, changes every
 * time and nothing else); each file's digest is kept while its size and time stay, so an edit
 * after the first reads no source again (reading ~2 MB took 100 ms of every edit's wait).
 */
async function codeKey(): Promise<string> {
  const hash = createHash('sha256');
  const files = ['astro.config.mjs', 'package-lock.json'];
  for (const dir of ['site', 'schema', 'worker/lib'])
    files.push(...(await listFiles(path.join(ROOT, dir))).map((f) => `${dir}/${f}`));
  for (const file of files.sort()) hash.update(`${file}\0${await fileDigest(path.join(ROOT, file))}\n`);
  return hash.digest('base64url').slice(0, 22);
}

const digests = new Map<string, { size: number; mtimeMs: number; digest: string }>();

async function fileDigest(file: string): Promise<string> {
  const s = await stat(file).catch(() => null);
  if (!s) return 'none';
  const known = digests.get(file);
  if (known && known.size === s.size && known.mtimeMs === s.mtimeMs) return known.digest;
  const digest = createHash('sha256')
    .update(await readFile(file))
    .digest('base64url');
  digests.set(file, { size: s.size, mtimeMs: s.mtimeMs, digest });
  return digest;
}

/** The modules pages load late, from an address the build writes in: [marker in the pages, the built file's name]. */
const LATE_MODULES: [marker: string, chunk: RegExp][] = [
  [SEARCH_PICKER_MARKER, SEARCH_PICKER_CHUNK],
  [GALLERY_ROTATION_MARKER, GALLERY_ROTATION_CHUNK],
  [VISIT_COUNT_MARKER, VISIT_COUNT_CHUNK],
  [METRIKA_CONSENT_MARKER, METRIKA_CONSENT_CHUNK],
  [GUEST_MODULE_MARKER, GUEST_MODULE_CHUNK],
  [REVIEWS_MODULE_MARKER, REVIEWS_MODULE_CHUNK],
];

/**
 * The last touches of every page, which only the whole build can give: the built addresses of the
 * modules loaded late (the search form's date picker, the home gallery's rotation, the pages'
 * counting of their views, Metrika's consent banner, the guest page's buttons, the reviews page's
 * places), and a CSP that lists the page's own inline scripts and styles only. A module the
 * bundle did not write leaves an empty address, which the page's lines take as «nothing to load».
 */
async function finishPages(dir: string): Promise<void> {
  const built = await readdir(path.join(dir, '_astro')).catch(() => [] as string[]);
  const addresses = LATE_MODULES.map(([marker, chunk]) => {
    const file = built.find((f) => chunk.test(f));
    return [marker, file ? `/_astro/${file}` : ''] as const;
  });
  for (const file of (await listFiles(dir)).filter((f) => f.endsWith('.html'))) {
    const before = await readFile(path.join(dir, file), 'utf8');
    const after = ownHashesOnly(addresses.reduce((html, [marker, url]) => html.replaceAll(marker, url), before));
    if (after !== before) await writeFile(path.join(dir, file), after);
  }
}

/**
 * /site-pages.json: every address of the sitemap with a digest of its page's finished HTML (the
 * schedule tells search engines which of them changed, worker/indexnow/). A partial build has only
 * the pages it rendered in staging; the others are the live ones, which it keeps as they are.
 * Nothing a build makes differs between two builds of the same data (partial-build.test.ts
 * compares them byte for byte), so an unchanged page keeps its digest.
 */
async function writeSitePages(staging: string, outDir: string): Promise<void> {
  const sitemap =
    (await readFile(path.join(staging, 'sitemap.xml'), 'utf8').catch(() => null)) ??
    (await readFile(path.join(outDir, 'sitemap.xml'), 'utf8').catch(() => ''));
  const pages: SitePages['pages'] = {};
  for (const m of sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)) {
    const pagePath = new URL(m[1]!).pathname;
    const file = htmlFileOf(pagePath);
    const html =
      (await readFile(path.join(staging, file)).catch(() => null)) ??
      (await readFile(path.join(outDir, file)).catch(() => null));
    // A page missing from both is left out (then it counts as removed): a partial build without
    // it fails its own check further on and is made whole.
    if (html) pages[pagePath] = createHash('sha256').update(html).digest('base64url').slice(0, 22);
  }
  await writeFile(path.join(staging, SITE_PAGES_PATH.slice(1)), JSON.stringify({ pages } satisfies SitePages));
}

/** The content version, or a rejection (before Astro starts) when the API cannot give it. */
async function readBuildInfo(apiUrl: string): Promise<{ contentVersion: number }> {
  const res = await fetch(new URL('/api/build-info', apiUrl));
  if (!res.ok) throw new Error(`API Error: ${res.status} ${res.statusText} (build info)`);
  const info = (await res.json()) as { contentVersion?: unknown };
  if (!Number.isInteger(info.contentVersion)) throw new Error('API Error: no content version in the build info');
  return info as { contentVersion: number };
}

/**
 * What goes live first: assets (a new page must find its new scripts), then pages, then the page
 * manifests (the pages' digests name pages already live), and build.json last, so the admin's
 * «up to date» never shows before the pages are in.
 */
const VERSION_RANK = 3;
const goLiveRank = (file: string) =>
  /^build\.json(?:\.br|\.gz)?$/.test(file)
    ? VERSION_RANK
    : /^(?:build|site)-pages\.json(?:\.br|\.gz)?$/.test(file)
      ? 2
      : /\.html(?:\.br|\.gz)?$/.test(file)
        ? 1
        : 0;

/**
 * Moves the new and changed files in (staging holds only those), then removes the files that are
 * gone: after a full build every file it did not make (`keep`: what it made, with the compressed
 * twins of each), after a partial one the pages it no longer makes. The live dir never
 * disappears, and each changed file replaces the old one by an atomic rename, so `wrangler dev`,
 * which rescans the directory while it changes, never finds a listed file missing (it stops on ENOENT).
 */
async function syncDir(
  from: string,
  to: string,
  remove: { keep: string[] } | { gone: string[] },
  beforeVersion?: (outDir: string) => Promise<void>,
): Promise<void> {
  await mkdir(to, { recursive: true });
  const files = (await listFiles(from)).sort((a, b) => goLiveRank(a) - goLiveRank(b));
  let versionNext = false;
  for (const file of files) {
    if (!versionNext && goLiveRank(file) === VERSION_RANK) {
      versionNext = true;
      await beforeVersion?.(to);
    }
    const dest = path.join(to, file);
    await mkdir(path.dirname(dest), { recursive: true });
    await rename(path.join(from, file), dest).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EXDEV') throw err;
      await copyFile(path.join(from, file), dest);
    });
  }
  let stale: string[];
  if ('keep' in remove) {
    const keep = new Set([...remove.keep, ...files].flatMap((f) => [f, `${f}.br`, `${f}.gz`]));
    stale = (await listFiles(to)).filter((file) => !keep.has(file));
  } else {
    stale = (await Promise.all(remove.gone.map(async (f) => ((await exists(path.join(to, f))) ? f : null)))).filter(
      (f) => f !== null,
    );
  }
  if (stale.length === 0) return;
  // `wrangler dev` rescans the directory after the renames above; a file removed while that scan
  // runs stopped it on ENOENT (the local site went down until it was restarted). The files that
  // are gone go once that scan is over, all at once.
  await new Promise((r) => setTimeout(r, STALE_GRACE_MS));
  await Promise.all(stale.map((file) => rm(path.join(to, file), { force: true })));
}

/** How long files no longer in the site stay after the new ones are in (long enough for a rescan). */
export const STALE_GRACE_MS = 1500;

async function sameContent(a: string, b: string): Promise<boolean> {
  const [sa, sb] = await Promise.all([stat(a), stat(b).catch(() => null)]);
  if (!sb?.isFile() || sa.size !== sb.size) return false;
  const [ba, bb] = await Promise.all([readFile(a), readFile(b)]);
  return ba.equals(bb);
}

/**
 * Where Astro itself writes a build: always a folder of its own inside the project, whatever
 * DATA_DIR is. Astro renders the pages from chunks it writes below its outDir (`.prerender/`),
 * which import the project's packages by name, so Node must find node_modules above them. Astro
 * moves those chunks into the project only when outDir is "outside" it, and decides that by
 * comparing path strings: DATA_DIR=/srv/kaspiy-data "starts with" the project /srv/kaspiy, the
 * chunks stayed in DATA_DIR and the build died on the first package import. One folder per
 * staging path, so servers of the same project (tests, two sites) never build into each other.
 */
function astroOutDir(staging: string): string {
  const key = createHash('sha256').update(path.resolve(staging)).digest('hex').slice(0, 16);
  return path.join(ROOT, 'node_modules/.cache/astro-out', key);
}

/**
 * Astro's cache (its optimised photos, Vite's prebundled packages), kept between a site's builds.
 * Astro writes a cache entry in place, not by a rename, so two builds sharing one cache read each
 * other's half-written entries: tests start several servers at once, and their builds failed
 * with «Unexpected end of JSON input». So every site built (a self-hosted DATA_DIR, a test's)
 * has a cache of its own, one per staging path as astroOutDir is. The project's own `dist` (npm
 * start, deploy) keeps Astro's usual `node_modules/.astro`, the path hosted CI caches between
 * deploys (Workers Builds, .github/workflows/deploy.yml).
 */
export function astroCacheDir(outDir: string, staging: string): string {
  if (path.resolve(outDir) === path.join(ROOT, 'dist')) return path.join(ROOT, 'node_modules/.astro');
  const key = createHash('sha256').update(path.resolve(staging)).digest('hex').slice(0, 16);
  return path.join(ROOT, 'node_modules/.cache/astro-cache', key);
}

/** Moves a finished build into staging: a rename on one disk, else a copy (DATA_DIR on another disk). */
async function moveDir(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true });
  await rename(from, to).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EXDEV') throw err;
    await cp(from, to, { recursive: true });
    await rm(from, { recursive: true, force: true });
  });
}

export async function hasBuild(outDir: string): Promise<boolean> {
  return stat(path.join(outDir, 'build.json')).then(
    () => true,
    () => false,
  );
}

if (import.meta.main) {
  const apiUrl = process.env.API_URL ?? 'http://127.0.0.1:8787';
  const result = await buildSite({ apiUrl, outDir: path.join(ROOT, 'dist'), siteUrl: process.env.SITE_URL });
  console.log(
    `Built content version ${result.contentVersion} in ${(result.ms / 1000).toFixed(1)} s (${result.partial ? `${result.pages} changed pages` : 'every page'})`,
  );
}
