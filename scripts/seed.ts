import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { cabins, reviews, settings } from '../schema/tables.ts';
import { getDb } from '../worker/lib/db.ts';
import type { DatabasePort, MediaPort } from '../worker/platform/ports.ts';
import { createCabin } from '../worker/queries/cabins.ts';
import { updateSettings } from '../worker/queries/settings.ts';
import { recordDemo } from '../worker/queries/demo.ts';
import { addBlock, replaceFeeds, replaceSeasons, storeImport } from '../worker/queries/calendar.ts';
import { DEMO_FEED_NAME, demoBlocks, demoBookings, demoFeedEvents, demoSeasons } from './demo/calendar.ts';
import { priceRequest } from '../worker/calendar/quote.ts';
import { createBooking, setBookingStatus } from '../worker/queries/bookings.ts';
import { DEMO_CABINS, DEMO_GALLERY, DEMO_REVIEWS, DEMO_SETTINGS } from './demo/content.ts';
import { makeDemoPhoto, type PhotoKind } from './demo/photos.ts';
import { withLocalBindings } from './lib/local-bindings.ts';
import { applyLocalD1Migrations } from './lib/local-migrations.ts';
import { ROOT } from './lib/tools.ts';

type SeedEnv = { DB: DatabasePort; MEDIA: MediaPort };

export type SeedOptions = {
  /** Where the demo calendar feed is served (`npm start` serves one); without it, no feed. */
  demoFeedUrl?: string;
};

/** Fills an empty database with the demo site; leaves a database with any content alone. */
export async function seedIfEmpty(env: SeedEnv, opts: SeedOptions = {}): Promise<boolean> {
  const db = getDb(env);
  const [c] = await db.select({ n: count() }).from(cabins);
  const [r] = await db.select({ n: count() }).from(reviews);
  const [s] = await db.select({ n: count() }).from(settings);
  if (c!.n + r!.n + s!.n > 0) return false;

  let photoNo = 0;
  const photos: string[] = [];
  const bookingIds: number[] = [];
  const storePhoto = async (kind: PhotoKind) => {
    photoNo += 1;
    const key = `demo-${String(photoNo).padStart(3, '0')}-${kind}.jpg`;
    await env.MEDIA.put(key, await cachedDemoPhoto(photoNo * 7919, kind), {
      httpMetadata: { contentType: 'image/jpeg' },
    });
    photos.push(`/media/${key}`);
    return `/media/${key}`;
  };

  for (const [index, { photos, ...cabin }] of DEMO_CABINS.entries()) {
    const images: string[] = [];
    for (const kind of photos) images.push(await storePhoto(kind));
    const { id } = await createCabin(env, { ...cabin, images });
    bookingIds.push(...(await seedCalendar(env, index, id, cabin.pricePerNight, opts)));
  }
  const galleryImages: string[] = [];
  for (const kind of DEMO_GALLERY) galleryImages.push(await storePhoto(kind));
  await updateSettings(env, { ...DEMO_SETTINGS, galleryImages });

  const day = 24 * 60 * 60 * 1000;
  const rows = DEMO_REVIEWS.map(({ daysAgo, ...review }, i) => ({
    ...review,
    created_at: new Date(Date.now() - daysAgo * day - i * 3_600_000).toISOString(),
  }));
  // D1 binds at most 100 parameters a statement: 15 reviews of 7 columns (verified_stay since 0009) take 105.
  for (let i = 0; i < rows.length; i += 10) await db.insert(reviews).values(rows.slice(i, i + 10));
  // What the demo is, as seeded: «Убрать демо-данные» takes exactly that away, and keeps whatever the owner changes.
  await recordDemo(env, { bookings: bookingIds, photos, settings: { ...DEMO_SETTINGS, galleryImages } });
  return true;
}

/** A demo cabin's seasons, blocks, booking requests and (the first cabin, when served) the demo feed with its import; the bookings' ids. */
async function seedCalendar(
  env: SeedEnv,
  index: number,
  cabinId: number,
  pricePerNight: number,
  opts: SeedOptions,
): Promise<number[]> {
  const ids: number[] = [];
  const seasons = demoSeasons(index, pricePerNight);
  if (seasons.length) await replaceSeasons(env, cabinId, seasons, index < 4 ? 2 : 1);
  for (const block of demoBlocks(index)) await addBlock(env, cabinId, block);
  for (const { status, ...request } of demoBookings(index)) {
    // Priced as the server prices a guest's request, with the demo's seasons already in place.
    const priced = await priceRequest(env, {
      cabinId,
      checkIn: request.checkIn,
      checkOut: request.checkOut,
      guests: request.guests,
    });
    if (!priced.ok) throw new Error(`The demo booking of cabin ${cabinId} could not be priced: ${priced.error}`);
    const booking = await createBooking(env, { cabinId, ...request }, priced.priced.quote);
    ids.push(booking.id);
    if (status === 'confirmed') await setBookingStatus(env, booking.id, 'confirmed');
  }
  if (index === 0 && opts.demoFeedUrl) {
    const [feed] = await replaceFeeds(env, cabinId, [{ name: DEMO_FEED_NAME, url: opts.demoFeedUrl }]);
    await storeImport(env, feed!, demoFeedEvents());
  }
  return ids;
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
  createHash('sha1')
    .update(await readFile(path.join(ROOT, 'scripts/demo/photos.ts')))
    .digest('hex')
    .slice(0, 10);

/**
 * Migrates, then seeds, the local D1 and R2 that `wrangler dev` uses (.wrangler/state), or the
 * one given.
 */
export async function seedLocal(persistTo?: string, opts: SeedOptions = {}): Promise<boolean> {
  return withLocalBindings(persistTo, async (env) => {
    await applyLocalD1Migrations(env.DB);
    return seedIfEmpty(env, opts);
  });
}

if (import.meta.main) {
  console.log((await seedLocal()) ? 'Demo content added.' : 'The database has content already: nothing seeded.');
}
