import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { cabins, reviews, settings } from '../schema/tables.ts';
import { getDb } from '../worker/lib/db.ts';
import type { DatabasePort, MediaPort } from '../worker/platform/ports.ts';
import { createCabin } from '../worker/queries/cabins.ts';
import { updateSettings } from '../worker/queries/settings.ts';
import { DEMO_CABINS, DEMO_GALLERY, DEMO_REVIEWS, DEMO_SETTINGS } from './demo/content.ts';
import { makeDemoPhoto, type PhotoKind } from './demo/photos.ts';
import { withLocalBindings } from './lib/local-bindings.ts';
import { ROOT } from './lib/tools.ts';

type SeedEnv = { DB: DatabasePort; MEDIA: MediaPort };

/** Fills an empty database with the demo site; leaves a database with any content alone. */
export async function seedIfEmpty(env: SeedEnv): Promise<boolean> {
  const db = getDb(env);
  const [c] = await db.select({ n: count() }).from(cabins);
  const [r] = await db.select({ n: count() }).from(reviews);
  const [s] = await db.select({ n: count() }).from(settings);
  if (c!.n + r!.n + s!.n > 0) return false;

  let photoNo = 0;
  const storePhoto = async (kind: PhotoKind) => {
    photoNo += 1;
    const key = `demo-${String(photoNo).padStart(3, '0')}-${kind}.jpg`;
    await env.MEDIA.put(key, await cachedDemoPhoto(photoNo * 7919, kind), { httpMetadata: { contentType: 'image/jpeg' } });
    return `/media/${key}`;
  };

  for (const { photos, ...cabin } of DEMO_CABINS) {
    const images: string[] = [];
    for (const kind of photos) images.push(await storePhoto(kind));
    await createCabin(env, { ...cabin, images });
  }
  const galleryImages: string[] = [];
  for (const kind of DEMO_GALLERY) galleryImages.push(await storePhoto(kind));
  await updateSettings(env, { ...DEMO_SETTINGS, galleryImages });

  const day = 24 * 60 * 60 * 1000;
  await db.insert(reviews).values(
    DEMO_REVIEWS.map(({ daysAgo, ...review }, i) => ({
      ...review,
      created_at: new Date(Date.now() - daysAgo * day - i * 3_600_000).toISOString(),
    })),
  );
  return true;
}

/** Generating a photo takes a while; the same (seed, kind) is the same picture, so keep it. */
async function cachedDemoPhoto(seed: number, kind: PhotoKind): Promise<Uint8Array> {
  const file = path.join(ROOT, 'node_modules/.cache/demo-photos', await generatorVersion(), `${seed}-${kind}.jpg`);
  const cached = await readFile(file).catch(() => null);
  if (cached) return cached;
  const photo = await makeDemoPhoto(seed, kind);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, photo);
  return photo;
}

/** Changes whenever the photo generator does, so the cache never serves an older look. */
const generatorVersion = async () =>
  createHash('sha1').update(await readFile(path.join(ROOT, 'scripts/demo/photos.ts'))).digest('hex').slice(0, 10);

/** Seeds the local D1 and R2 that `wrangler dev` uses (.wrangler/state), or the one given. */
export async function seedLocal(persistTo?: string): Promise<boolean> {
  return withLocalBindings(persistTo, seedIfEmpty);
}

if (import.meta.main) {
  console.log((await seedLocal()) ? 'Demo content added.' : 'The database has content already: nothing seeded.');
}
