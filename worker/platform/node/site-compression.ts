import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BEST_BROTLI, brotliOf, compressFiles, compressibleFiles } from './static-site.ts';

/**
 * How many of a build's changed files get brotli's best twin before they go live: none. At the
 * best quality a page takes 40–80 ms here: over 3,000 pages at 1,500 cabins, a change every page
 * shows waited minutes for its twins, and even an edit of one cabin (~15 files) 200 ms. Every file
 * goes live with a quick twin (brotli 5: ~1 ms a page, 2–8 % larger) and is made best right after.
 */
const BEST_BEFORE_LIVE = 0;
const QUICK_BROTLI = 5;

/**
 * The twins of each build, for the self-hosted server: `beforeLive` is the build's postBuild (on
 * the changed files in staging), `afterLive` runs once they are live and brings the quick twins to
 * the best quality in the background, one file at a time, while visitors are served. The upgrade
 * never races a build: the next build stops it as it starts (`pause`, after the file in hand) and
 * it goes on once that build is live; a twin is replaced only if its page is still the one it
 * was made from.
 */
export function siteCompression(opts: { bestBeforeLive?: number } = {}) {
  const bestBeforeLive = opts.bestBeforeLive ?? BEST_BEFORE_LIVE;
  /** Quick twins of the last build, made best once it is live. */
  let quick: string[] = [];
  /** Quick twins of live files waiting for the best one. */
  const pending = new Set<string>();
  let upgrading: Promise<void> | null = null;
  let stop = false;

  /** A build starts: the upgrade stops after the file in hand, so the build has the CPU (2 cores on a VPS). */
  async function pause(): Promise<void> {
    stop = true;
    await upgrading;
  }

  async function beforeLive(staging: string): Promise<void> {
    await pause();
    const files = (await compressibleFiles(staging)).sort(byReach);
    // This build makes their twins itself.
    for (const f of files) pending.delete(f);
    const [best, rest] = [files.slice(0, bestBeforeLive), files.slice(bestBeforeLive)];
    await compressFiles(staging, best, BEST_BROTLI);
    await compressFiles(staging, rest, QUICK_BROTLI);
    quick = rest;
  }

  function afterLive(outDir: string): void {
    for (const f of quick) pending.add(f);
    quick = [];
    stop = false;
    if (pending.size > 0) upgrading ??= upgrade(outDir).finally(() => (upgrading = null));
  }

  async function upgrade(outDir: string): Promise<void> {
    // Beside the site, on its disk: a twin goes in by an atomic rename, never half written.
    const work = path.join(path.dirname(path.resolve(outDir)), '.site-compress');
    await rm(work, { recursive: true, force: true });
    await mkdir(work, { recursive: true });
    try {
      for (const rel of pending) {
        if (stop) return;
        pending.delete(rel);
        const file = path.join(outDir, rel);
        const before = await stat(file).catch(() => null);
        if (!before) continue;
        const twin = path.join(work, 'twin.br');
        await writeFile(twin, await brotliOf(await readFile(file), BEST_BROTLI));
        const after = await stat(file).catch(() => null);
        if (after?.size === before.size && after.mtimeMs === before.mtimeMs) await rename(twin, `${file}.br`);
      }
    } catch (err) {
      // A quick twin is a correct twin: the site is whole without the upgrade.
      console.error(`[build] could not bring the compressed pages to their best: ${(err as Error).message}`);
    } finally {
      await rm(work, { recursive: true, force: true }).catch(() => {});
    }
  }

  /** Resolves once no upgrade runs (tests). */
  const idle = (): Promise<void> => upgrading ?? Promise.resolve();
  /** Quick twins are being made best (the builder's status says so; the bench waits for it). */
  const busy = (): boolean => upgrading !== null;

  return { pause, beforeLive, afterLive, idle, busy };
}

/**
 * Which twins are best before going live: the pages made once per site (home, catalogue, reviews…)
 * and the scripts first, then by depth (a cabin's page before its /search card).
 */
const byReach = (a: string, b: string) => a.split('/').length - b.split('/').length || a.localeCompare(b);
