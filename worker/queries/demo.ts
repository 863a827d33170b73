import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { DEMO_CONTACT_FIELDS, type DemoRecord, type DemoSummary } from '../../schema/onboarding.ts';
import { bookings, cabins, reviews, siteState } from '../../schema/tables.ts';
import type { SettingsUpdate } from '../../schema/settings.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort, MediaPort } from '../platform/ports.ts';
import { readStoredSettings, updateSettings } from './settings.ts';

type DbEnv = { DB: DatabasePort };
const KEY = 'demo';

/** A row's fingerprint: the same row gives the same text, any change to it another. */
export async function fingerprint(row: unknown): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(row)));
  return [...new Uint8Array(digest).slice(0, 12)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const byId = async <T extends { id: number }>(rows: T[]) =>
  Object.fromEntries(await Promise.all(rows.map(async (r) => [String(r.id), await fingerprint(r)] as const)));

/** Written by the seeding once the demo is in: what it put there, as it put it. */
export async function recordDemo(
  env: DbEnv,
  made: { bookings: number[]; photos: string[]; settings: SettingsUpdate },
): Promise<void> {
  const db = getDb(env);
  const record: DemoRecord = {
    cabins: await byId(await db.select().from(cabins)),
    reviews: await byId(await db.select().from(reviews)),
    bookings: made.bookings,
    photos: made.photos,
    settings: made.settings as Record<string, unknown>,
  };
  await db
    .insert(siteState)
    .values({ key: KEY, value: JSON.stringify(record) })
    .onConflictDoUpdate({ target: siteState.key, set: { value: JSON.stringify(record) } });
}

async function readRecord(env: DbEnv): Promise<DemoRecord | null> {
  const row = await getDb(env).select().from(siteState).where(eq(siteState.key, KEY)).get();
  if (!row) return null;
  try {
    return JSON.parse(row.value) as DemoRecord;
  } catch {
    return null;
  }
}

export type DemoLeft = {
  record: DemoRecord;
  cabins: number[];
  reviews: number[];
  bookings: number[];
  photos: string[];
  settings: SettingsUpdate;
};

/** What of the demo is still as seeded: cabins and reviews the owner has not changed, the demo's bookings, photos no kept cabin shows, and contact settings still the demo's. */
export async function demoLeft(env: DbEnv): Promise<DemoLeft | null> {
  const record = await readRecord(env);
  if (!record) return null;
  const db = getDb(env);
  const ids = (o: Record<string, string>) => Object.keys(o).map(Number);
  const demoIds = ids(record.cabins);
  const [cabinRows, allCabins, reviewRows, bookingRows, stored] = await Promise.all([
    ids(record.cabins).length
      ? db
          .select()
          .from(cabins)
          .where(inArray(cabins.id, ids(record.cabins)))
      : [],
    db.select({ id: cabins.id, images: cabins.images }).from(cabins),
    ids(record.reviews).length
      ? db
          .select()
          .from(reviews)
          .where(inArray(reviews.id, ids(record.reviews)))
      : [],
    record.bookings.length
      ? db
          .select({
            id: bookings.id,
            cabinId: bookings.cabinId,
            paid: sql<number>`exists (select 1 from payments p where p.booking_id = bookings.id)`,
          })
          .from(bookings)
          .where(inArray(bookings.id, record.bookings))
      : [],
    readStoredSettings(env),
  ]);
  const unchanged = async <T extends { id: number }>(rows: T[], prints: Record<string, string>) =>
    (await Promise.all(rows.map(async (r) => ((await fingerprint(r)) === prints[String(r.id)] ? r.id : null)))).filter(
      (id): id is number => id !== null,
    );
  // A demo cabin that holds a booking of a real guest (not one the demo made) is the owner's now: it stays, with its bookings.
  const realBookings = demoIds.length
    ? await db
        .select({ cabinId: bookings.cabinId })
        .from(bookings)
        .where(
          and(
            inArray(bookings.cabinId, demoIds),
            record.bookings.length ? notInArray(bookings.id, record.bookings) : sql`1`,
          ),
        )
    : [];
  // A demo booking someone started paying for (a payment link tried out) is a record of money: it stays, and so does its cabin.
  const paidDemo = bookingRows.filter((b) => b.paid);
  const withGuests = new Set([...realBookings, ...paidDemo].map((b) => b.cabinId));
  const demoCabins = (await unchanged(cabinRows, record.cabins)).filter((id) => !withGuests.has(id));
  // A demo photo stays while a cabin that stays (the owner's, or a demo one they changed) or their gallery still shows it.
  const shown = new Set<string>(allCabins.filter((c) => !demoCabins.includes(c.id)).flatMap((c) => c.images));
  const settings: SettingsUpdate = {};
  for (const field of DEMO_CONTACT_FIELDS) {
    const now = (stored as Record<string, unknown>)[field];
    const empty = field === 'galleryImages' ? [] : '';
    if (
      now !== undefined &&
      JSON.stringify(now) === JSON.stringify(record.settings[field]) &&
      JSON.stringify(now) !== JSON.stringify(empty)
    )
      (settings as Record<string, unknown>)[field] = empty;
    else if (field === 'galleryImages' && Array.isArray(now)) for (const src of now) shown.add(String(src));
  }
  return {
    record,
    cabins: demoCabins,
    reviews: await unchanged(reviewRows, record.reviews),
    bookings: bookingRows.filter((b) => !b.paid).map((b) => b.id),
    photos: record.photos.filter((src) => !shown.has(src)),
    settings,
  };
}

/** What «Убрать демо-данные» would take away; null when nothing of the demo is left. */
export async function demoSummary(env: DbEnv, known?: DemoLeft | null): Promise<DemoSummary | null> {
  const left = known === undefined ? await demoLeft(env) : known;
  if (!left) return null;
  const summary = {
    cabins: left.cabins.length,
    reviews: left.reviews.length,
    bookings: left.bookings.length,
    photos: left.photos.length,
    settings: Object.keys(left.settings).length,
  };
  return Object.values(summary).some((n) => n > 0) ? summary : null;
}

/**
 * Takes the demo away and keeps the owner's work: the unchanged demo cabins that hold no real
 * guest's booking (their seasons, blocks, feeds and the demo's bookings go with them), the unchanged demo reviews, the demo's bookings
 * (not one with a payment, a record of money: it stays with its cabin), the demo photos nothing kept shows, and the demo's contacts and register number (emptied, for the
 * owner's own). The record goes too, so it happens once.
 */
export async function removeDemo(env: DbEnv & { MEDIA: MediaPort }): Promise<DemoSummary | null> {
  const left = await demoLeft(env);
  if (!left) return null;
  const db = getDb(env);
  if (left.bookings.length) await db.delete(bookings).where(inArray(bookings.id, left.bookings));
  if (left.cabins.length) await db.delete(cabins).where(inArray(cabins.id, left.cabins));
  if (left.reviews.length) await db.delete(reviews).where(inArray(reviews.id, left.reviews));
  if (Object.keys(left.settings).length) await updateSettings(env, left.settings);
  await db.delete(siteState).where(eq(siteState.key, KEY));
  // Photos last: a failure here leaves files nobody shows, never a page without its photo.
  for (const src of left.photos) {
    const key = src.replace(/^\/media\//, '');
    await env.MEDIA.delete(key).catch((err) => console.error(`Demo photo ${key} could not be removed:`, err));
  }
  return {
    cabins: left.cabins.length,
    reviews: left.reviews.length,
    bookings: left.bookings.length,
    photos: left.photos.length,
    settings: Object.keys(left.settings).length,
  };
}
