import { createHash } from 'node:crypto';
import { copyFile, cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { listFiles } from '../worker/platform/node/list-files.ts';
import { GALLERY_ROTATION_CHUNK, GALLERY_ROTATION_MARKER } from '../schema/gallery.ts';
import { SEARCH_PICKER_CHUNK, SEARCH_PICKER_MARKER } from '../schema/search-page.ts';
import { ownHashesOnly } from './lib/page-csp.ts';
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
  /** Stops a build that has not started going live (the server is stopping); a swap under way finishes. */
  signal?: AbortSignal;
  /**
   * Renders the pages into `outDir` (by default `astro build`, a minute or more). Tests give a
   * stand-in that writes a few pages, to run every later step of a real build in seconds.
   */
  render?: (outDir: string, env: Record<string, string>, opts: BuildOptions) => Promise<void>;
};

/** The real rendering: Astro, in a production build, with the content read from the API. */
async function astroBuild(outDir: string, env: Record<string, string>, opts: BuildOptions): Promise<void> {
  await run('astro', ['build'], { quiet: opts.quiet, signal: opts.signal, env: quietEnv({ ...env, SITE_OUT_DIR: outDir }) });
}

/**
 * Builds the site into a staging directory and, only if that succeeds, makes outDir match it.
 * A failed build leaves the live site as it was, and its half-made copies are removed: on a
 * full disk they would hold the very space the next build needs.
 */
export async function buildSite(opts: BuildOptions): Promise<{ contentVersion: number; ms: number }> {
  const started = Date.now();
  opts.signal?.throwIfAborted();
  // The version is read before any content, so a write during the build shows as "not yet live".
  const info = await readBuildInfo(opts.apiUrl);
  const staging = opts.stagingDir ?? path.join(ROOT, 'node_modules/.cache/site-staging', path.basename(opts.outDir));
  const astroOut = astroOutDir(staging);
  const clean = () => Promise.all([rm(staging, { recursive: true, force: true }), rm(astroOut, { recursive: true, force: true })]);
  await clean();
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
      },
      opts,
    );
    await moveDir(astroOut, staging);
    await finishPages(staging);
    await writeFile(
      path.join(staging, 'build.json'),
      JSON.stringify({ contentVersion: info.contentVersion, builtAt: new Date().toISOString() }),
    );
    await opts.postBuild?.(staging);
    opts.signal?.throwIfAborted();
    await syncDir(staging, opts.outDir);
  } finally {
    // After a success staging holds only what was already live (moved files are gone from it).
    await clean().catch((err: Error) => console.error(`Could not remove the build's leftovers in ${staging}: ${err.message}`));
  }
  return { contentVersion: info.contentVersion, ms: Date.now() - started };
}

/** The modules pages load late, from an address the build writes in: [marker in the pages, the built file's name]. */
const LATE_MODULES: [marker: string, chunk: RegExp][] = [
  [SEARCH_PICKER_MARKER, SEARCH_PICKER_CHUNK],
  [GALLERY_ROTATION_MARKER, GALLERY_ROTATION_CHUNK],
];

/**
 * The last touches of every page, which only the whole build can give: the built addresses of the
 * modules loaded late (the search form's date picker, the home gallery's rotation), and a CSP
 * that lists the page's own inline scripts and styles only. A module the bundle did not write
 * leaves an empty address, which the page's lines take as «nothing to load».
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

/** The content version, or a rejection (before Astro starts) when the API cannot give it. */
async function readBuildInfo(apiUrl: string): Promise<{ contentVersion: number }> {
  const res = await fetch(new URL('/api/build-info', apiUrl));
  if (!res.ok) throw new Error(`API Error: ${res.status} ${res.statusText} (build info)`);
  const info = (await res.json()) as { contentVersion?: unknown };
  if (!Number.isInteger(info.contentVersion)) throw new Error('API Error: no content version in the build info');
  return info as { contentVersion: number };
}

/**
 * What goes live first: assets (a new page must find its new scripts), then pages, and
 * build.json last, so the admin's «up to date» never shows before the pages are in.
 */
const goLiveRank = (file: string) => (/^build\.json(?:\.br|\.gz)?$/.test(file) ? 2 : /\.html(?:\.br|\.gz)?$/.test(file) ? 1 : 0);

/**
 * Moves new and changed files in, then removes files that are gone: the live dir never
 * disappears. Unchanged files (every content-hashed asset still in use) are left alone and
 * each changed file replaces the old one by an atomic rename, so `wrangler dev`, which rescans
 * the directory while it changes, never finds a listed file missing (it stops on ENOENT).
 */
async function syncDir(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  const files = (await listFiles(from)).sort((a, b) => goLiveRank(a) - goLiveRank(b));
  for (const file of files) {
    const src = path.join(from, file);
    const dest = path.join(to, file);
    if (await sameContent(src, dest)) continue;
    await mkdir(path.dirname(dest), { recursive: true });
    await rename(src, dest).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EXDEV') throw err;
      await copyFile(src, dest);
    });
  }
  const keep = new Set(files);
  const stale = (await listFiles(to)).filter((file) => !keep.has(file));
  if (stale.length === 0) return;
  // `wrangler dev` rescans the directory after the renames above; a file removed while that scan
  // runs stopped it on ENOENT (the local site went down until it was restarted). The files that
  // are gone go once that scan is over, all at once.
  await new Promise((r) => setTimeout(r, STALE_GRACE_MS));
  await Promise.all(stale.map((file) => rm(path.join(to, file), { force: true })));
}

/** How long files no longer in the site stay after the new ones are in (long enough for a rescan). */
const STALE_GRACE_MS = 1500;

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
  return stat(path.join(outDir, 'build.json')).then(() => true, () => false);
}

if (import.meta.main) {
  const apiUrl = process.env.API_URL ?? 'http://127.0.0.1:8787';
  const result = await buildSite({ apiUrl, outDir: path.join(ROOT, 'dist'), siteUrl: process.env.SITE_URL });
  console.log(`Built content version ${result.contentVersion} in ${(result.ms / 1000).toFixed(1)} s`);
}
