import { and, asc, eq, gt, lt } from 'drizzle-orm';
import { addMonths, todayInMoscow, type IsoDate } from '../../schema/dates.ts';
import { CALENDAR_HORIZON_MONTHS, type BlockInput, type FeedInput, type SeasonInput } from '../../schema/calendar.ts';
import { cabins, cabinCalendars, calendarBlocks, calendarFeeds, feedEvents, seasons } from '../../schema/tables.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { busyStays } from './bookings.ts';

type DbEnv = { DB: DatabasePort };
export type BusyRange = { start: IsoDate; end: IsoDate };
export type SourcedRange = BusyRange & { source: 'booking' | 'hold' | 'block' | 'feed'; id: number; label: string };

/** Today in Moscow and the end of the horizon the public calendar shows. */
export function horizon(ms = now()): { from: IsoDate; to: IsoDate } {
  const from = todayInMoscow(ms);
  return { from, to: addMonths(from, CALENDAR_HORIZON_MONTHS) };
}

export async function getCalendarSettings(env: DbEnv, cabinId: number) {
  const row = await getDb(env).select().from(cabinCalendars).where(eq(cabinCalendars.cabinId, cabinId)).get();
  return { minNights: row?.minNights ?? 1, icalToken: row?.icalToken ?? null };
}

export async function listSeasons(env: DbEnv, cabinId: number) {
  return getDb(env).select().from(seasons).where(eq(seasons.cabinId, cabinId)).orderBy(asc(seasons.start));
}

/** Replaces the whole list of seasons (and the base minimum stay) in one batch. */
export async function replaceSeasons(env: DbEnv, cabinId: number, list: SeasonInput[], minNights?: number) {
  const db = getDb(env);
  const statements = [
    db.delete(seasons).where(eq(seasons.cabinId, cabinId)),
    ...list.map((s) => db.insert(seasons).values({ cabinId, ...s })),
    ...(minNights === undefined
      ? []
      : [db.insert(cabinCalendars).values({ cabinId, minNights }).onConflictDoUpdate({ target: cabinCalendars.cabinId, set: { minNights } })]),
  ];
  await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
}

export async function listBlocks(env: DbEnv, cabinId: number) {
  return getDb(env).select().from(calendarBlocks).where(eq(calendarBlocks.cabinId, cabinId)).orderBy(asc(calendarBlocks.start));
}

export async function addBlock(env: DbEnv, cabinId: number, input: BlockInput) {
  const [row] = await getDb(env).insert(calendarBlocks).values({ cabinId, ...input, createdAt: new Date(now()).toISOString() }).returning();
  return row!;
}

export async function deleteBlock(env: DbEnv, id: number): Promise<boolean> {
  return (await getDb(env).delete(calendarBlocks).where(eq(calendarBlocks.id, id)).returning({ id: calendarBlocks.id })).length > 0;
}

/** Every busy range of a cabin that touches [from, to), with where it comes from (for the owner). */
export async function sourcedBusy(env: DbEnv, cabinId: number, from: IsoDate, to: IsoDate): Promise<SourcedRange[]> {
  return (await busyRanges(env, from, to, cabinId)).map(({ cabinId: _, ...range }) => range);
}

/**
 * The busy ranges touching [from, to) of one cabin, or of every cabin when none is named (search,
 * the owner's chart): one query per source, never one per cabin. The sources are the one rule of a
 * busy night (worker/queries/bookings.ts nightsBusy): confirmed bookings and holds being paid for, blocks, imported events.
 */
export async function busyRanges(env: DbEnv, from: IsoDate, to: IsoDate, cabinId?: number): Promise<(SourcedRange & { cabinId: number })[]> {
  const db = getDb(env);
  const of = (column: typeof calendarBlocks.cabinId | typeof feedEvents.cabinId) => (cabinId === undefined ? undefined : eq(column, cabinId));
  const [stays, blocks, events] = await Promise.all([
    busyStays(env, from, to, cabinId),
    db.select().from(calendarBlocks).where(and(of(calendarBlocks.cabinId), lt(calendarBlocks.start, to), gt(calendarBlocks.end, from))),
    db
      .select({ id: feedEvents.id, cabinId: feedEvents.cabinId, start: feedEvents.start, end: feedEvents.end, name: calendarFeeds.name })
      .from(feedEvents)
      .innerJoin(calendarFeeds, eq(feedEvents.feedId, calendarFeeds.id))
      .where(and(of(feedEvents.cabinId), lt(feedEvents.start, to), gt(feedEvents.end, from))),
  ]);
  return [
    ...stays.map((b) => ({ cabinId: b.cabinId, start: b.start, end: b.end, source: b.status === 'confirmed' ? ('booking' as const) : ('hold' as const), id: b.id, label: b.name })),
    ...blocks.map((b) => ({ cabinId: b.cabinId, start: b.start, end: b.end, source: 'block' as const, id: b.id, label: b.note })),
    ...events.map((e) => ({ cabinId: e.cabinId, start: e.start, end: e.end, source: 'feed' as const, id: e.id, label: e.name })),
  ].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
}

/** Busy nights as merged ranges clipped to [from, to): no names, no sources (the public view). */
export function mergeRanges(ranges: BusyRange[], from: IsoDate, to: IsoDate): BusyRange[] {
  const clipped = ranges
    .map((r) => ({ start: r.start < from ? from : r.start, end: r.end > to ? to : r.end }))
    .filter((r) => r.start < r.end)
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const out: BusyRange[] = [];
  for (const r of clipped) {
    const last = out.at(-1);
    if (last && r.start <= last.end) {
      if (r.end > last.end) last.end = r.end;
    } else out.push({ ...r });
  }
  return out;
}

export async function listFeeds(env: DbEnv, cabinId?: number) {
  const q = getDb(env).select().from(calendarFeeds);
  return (cabinId === undefined ? q : q.where(eq(calendarFeeds.cabinId, cabinId))).orderBy(asc(calendarFeeds.id));
}

/**
 * Sets a cabin's feeds to the given list: a feed whose URL stays keeps its import and status
 * (its name may change), removed ones go with their events, new ones start empty. One batch.
 */
export async function replaceFeeds(env: DbEnv, cabinId: number, feeds: FeedInput[]) {
  const db = getDb(env);
  const current = await listFeeds(env, cabinId);
  const keep = new Map(feeds.map((f) => [f.url, f]));
  const statements = [
    ...current.filter((f) => !keep.has(f.url)).map((f) => db.delete(calendarFeeds).where(eq(calendarFeeds.id, f.id))),
    ...current.filter((f) => keep.has(f.url)).map((f) => db.update(calendarFeeds).set({ name: keep.get(f.url)!.name }).where(eq(calendarFeeds.id, f.id))),
    ...feeds.filter((f) => !current.some((c) => c.url === f.url)).map((f) => db.insert(calendarFeeds).values({ cabinId, name: f.name, url: f.url })),
  ];
  if (statements.length) await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
  return listFeeds(env, cabinId);
}

/** A feed's good import: its events replaced and its status set, in one batch. */
export async function storeImport(env: DbEnv, feed: { id: number; cabinId: number }, events: { uid: string; start: IsoDate; end: IsoDate }[]) {
  const db = getDb(env);
  const at = new Date(now()).toISOString();
  const statements = [
    db.delete(feedEvents).where(eq(feedEvents.feedId, feed.id)),
    ...events.map((e) => db.insert(feedEvents).values({ feedId: feed.id, cabinId: feed.cabinId, ...e })),
    db.update(calendarFeeds).set({ lastSyncAt: at, lastSuccessAt: at, lastError: null, eventCount: events.length }).where(eq(calendarFeeds.id, feed.id)),
  ];
  await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
}

/** A failed attempt: the last good import stays; only the error and the time are noted. */
export async function storeFeedError(env: DbEnv, feedId: number, error: string) {
  await getDb(env).update(calendarFeeds).set({ lastSyncAt: new Date(now()).toISOString(), lastError: error }).where(eq(calendarFeeds.id, feedId));
}

/** A new secret export address for the cabin; the old one stops working at once. */
export async function renewIcalToken(env: DbEnv, cabinId: number): Promise<string> {
  const token = [...crypto.getRandomValues(new Uint8Array(24))].map((b) => b.toString(16).padStart(2, '0')).join('');
  await getDb(env).insert(cabinCalendars).values({ cabinId, icalToken: token }).onConflictDoUpdate({ target: cabinCalendars.cabinId, set: { icalToken: token } });
  return token;
}

export async function cabinByIcalToken(env: DbEnv, token: string): Promise<number | undefined> {
  const row = await getDb(env).select({ cabinId: cabinCalendars.cabinId }).from(cabinCalendars).where(eq(cabinCalendars.icalToken, token)).get();
  return row?.cabinId;
}

export type PriceRange = { cabinId: number; min: number; max: number };

/**
 * Each active cabin's lowest and highest price per night over the public horizon: its base
 * price and every season that still has nights ahead. Pages show «от N ₽» from it.
 */
export async function priceRanges(env: DbEnv): Promise<PriceRange[]> {
  const { from, to } = horizon();
  const db = getDb(env);
  const [rows, ahead] = await Promise.all([
    db.select({ id: cabins.id, price: cabins.pricePerNight }).from(cabins).where(eq(cabins.active, true)).orderBy(asc(cabins.id)),
    db.select({ cabinId: seasons.cabinId, price: seasons.pricePerNight }).from(seasons).where(and(gt(seasons.end, from), lt(seasons.start, to))),
  ]);
  return rows.map(({ id, price }) => {
    const prices = [price, ...ahead.filter((s) => s.cabinId === id).map((s) => s.price)];
    return { cabinId: id, min: Math.min(...prices), max: Math.max(...prices) };
  });
}
