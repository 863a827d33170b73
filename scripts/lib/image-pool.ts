// The photos Astro has made for any site of this project, shared between the sites' caches.
//
// Every site built (a self-hosted DATA_DIR, each test's stack) has an Astro cache of its own,
// because Astro writes a cache entry in place and two builds sharing one read each other's
// half-written entries (astroCacheDir in scripts/build-site.ts). But the sites show the same
// photos: each test stack made the same ~430 variants of the demo photos again, which cost more
// CPU than the rest of its build. So a finished build adds what it made to one pool, by a copy
// under a temporary name and a rename (a file in the pool is always whole), and a build fills its
// own cache from the pool before it starts (a photo's entry is its variant and a `.json` beside
// it; the variant is copied first, so Astro never finds the record without the photo).
import { copyFile, mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** Where Astro keeps its optimised photos inside a cache directory. */
const ASSETS = 'assets';

async function names(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

/** A variant before its `.json` record, so a reader that finds the record finds the photo. */
const photosFirst = (list: string[]) =>
  [...list].sort((a, b) => Number(a.endsWith('.json')) - Number(b.endsWith('.json')) || a.localeCompare(b));

/** Copies into the site's cache the pool's photos it lacks. A failure only costs the photos made again. */
export async function fillFromPool(pool: string, cacheDir: string): Promise<number> {
  const from = path.join(pool, ASSETS);
  const to = path.join(cacheDir, ASSETS);
  const have = new Set(await names(to));
  const missing = photosFirst((await names(from)).filter((n) => !have.has(n) && !n.startsWith('.')));
  if (missing.length === 0) return 0;
  await mkdir(to, { recursive: true });
  let copied = 0;
  for (const name of missing) {
    await copyFile(path.join(from, name), path.join(to, name)).then(
      () => copied++,
      () => {},
    );
  }
  return copied;
}

/** Adds to the pool the photos of a finished build that it lacks, each whole by a rename. */
export async function addToPool(pool: string, cacheDir: string): Promise<number> {
  const from = path.join(cacheDir, ASSETS);
  const to = path.join(pool, ASSETS);
  const have = new Set(await names(to));
  const fresh = photosFirst((await names(from)).filter((n) => !have.has(n)));
  if (fresh.length === 0) return 0;
  await mkdir(to, { recursive: true });
  let added = 0;
  for (const name of fresh) {
    const temp = path.join(to, `.${process.pid}-${name}`);
    try {
      await copyFile(path.join(from, name), temp);
      await rename(temp, path.join(to, name));
      added++;
    } catch {
      await rm(temp, { force: true });
    }
  }
  return added;
}
