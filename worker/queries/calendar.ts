import { and, asc, count, eq, gt, gte, lt, lte } from 'drizzle-orm';
import type { BatchResponse } from 'drizzle-orm/batch';
import { addMonths, todayInMoscow, type IsoDate } from '../../schema/dates.ts';
import { CALENDAR_HORIZON_MONTHS, type BlockInput, type FeedInput, type SeasonToStore } from '../../schema/calendar.ts';
import { CHANNEL_LABELS, type ChannelName } from '../../schema/channels.ts';
import {
  cabins,
  cabinCalendars,
  calendarBlocks,
  calendarFeeds,
  channelStays,
  datePrices,
  feedEvents,
  seasons,
} from '../../schema/tables.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { busyStaysQuery } from './bookings.ts';

type DbEnv = { DB: DatabasePort };
export type BusyRange = { start: IsoDate; end: IsoDate };
export type BusySource = 'booking' | 'hold' | 'block' | 'feed' | 'channel';
/**
 * A busy range and where it comes from. `key` names the stay across reads (a feed's events are
 * stored anew at each import, so theirs is the feed and the event's UID); a channel's stay carries
 * the platform's guests and price.
 */
export type SourcedRange = BusyRange & {
  source: BusySource;
  id: number;
  label: string;
  key: string;
  feedId?: number;
  guests?: number;
  price?: number;
};

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
export async function replaceSeasons(env: DbEnv, cabinId: number, list: SeasonToStore[], minNights?: number) {
  const db = getDb(env);
  const statements = [
    db.delete(seasons).where(eq(seasons.cabinId, cabinId)),
    ...list.map((s) => db.insert(seasons).values({ cabinId, ...s })),
    ...(minNights === undefined
      ? []
      : [
          db
            .insert(cabinCalendars)
            .values({ cabinId, minNights })
            .onConflictDoUpdate({ target: cabinCalendars.cabinId, set: { minNights } }),
        ]),
  ];
  await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
}

export async function listBlocks(env: DbEnv, cabinId: number) {
  return getDb(env)
    .select()
    .from(calendarBlocks)
    .where(eq(calendarBlocks.cabinId, cabinId))
    .orderBy(asc(calendarBlocks.start));
}

export async function addBlock(env: DbEnv, cabinId: number, input: BlockInput) {
  const [row] = await getDb(env)
    .insert(calendarBlocks)
    .values({ cabinId, ...input, createdAt: new Date(now()).toISOString() })
    .returning();
  return row!;
}

export async function deleteBlock(env: DbEnv, id: number): Promise<boolean> {
  return (
    (await getDb(env).delete(calendarBlocks).where(eq(calendarBlocks.id, id)).returning({ id: calendarBlocks.id }))
      .length > 0
  );
}

/** Every busy range of a cabin that touches [from, to), with where it comes from (for the owner). */
export async function sourcedBusy(env: DbEnv, cabinId: number, from: IsoDate, to: IsoDate): Promise<SourcedRange[]> {
  return (await busyRanges(env, from, to, cabinId)).map(({ cabinId: _, ...range }) => range);
}

/**
 * The busy ranges touching [from, to) of one cabin, or of every cabin when none is named (search,
 * the owner's chart): one query per source, never one per cabin. The sources are the one rule of a
 * busy night (worker/queries/bookings.ts nightsBusy): confirmed bookings and holds being paid for,
 * blocks, imported events and stays read from a platform's API (Avito).
 */
export async function busyRanges(
  env: DbEnv,
  from: IsoDate,
  to: IsoDate,
  cabinId?: number,
): Promise<(SourcedRange & { cabinId: number })[]> {
  return busyRangesFrom(await getDb(env).batch(busyRangeQueries(env, from, to, cabinId)));
}

/** busyRanges' queries, one per source, not yet run: a route reads them in its one batch. */
export function busyRangeQueries(env: DbEnv, from: IsoDate, to: IsoDate, cabinId?: number) {
  const db = getDb(env);
  const of = (column: typeof calendarBlocks.cabinId | typeof feedEvents.cabinId | typeof channelStays.cabinId) =>
    cabinId === undefined ? undefined : eq(column, cabinId);
  return [
    busyStaysQuery(env, from, to, cabinId),
    db
      .select()
      .from(calendarBlocks)
      .where(and(of(calendarBlocks.cabinId), lt(calendarBlocks.start, to), gt(calendarBlocks.end, from))),
    db
      .select({
        id: feedEvents.id,
        feedId: feedEvents.feedId,
        uid: feedEvents.uid,
        cabinId: feedEvents.cabinId,
        start: feedEvents.start,
        end: feedEvents.end,
        name: calendarFeeds.name,
      })
      .from(feedEvents)
      .innerJoin(calendarFeeds, eq(feedEvents.feedId, calendarFeeds.id))
      .where(and(of(feedEvents.cabinId), lt(feedEvents.start, to), gt(feedEvents.end, from))),
    db
      .select()
      .from(channelStays)
      .where(and(of(channelStays.cabinId), lt(channelStays.start, to), gt(channelStays.end, from))),
  ] as const;
}

type BusyRows = BatchResponse<ReturnType<typeof busyRangeQueries>>;

/** The rows of busyRangeQueries as busy ranges, each with its source, by start. */
export function busyRangesFrom([stays, blocks, events, channel]: BusyRows): (SourcedRange & { cabinId: number })[] {
  const byStart = (a: { start: string; end: string }, b: { start: string; end: string }) =>
    a.start < b.start ? -1 : a.start > b.start ? 1 : a.end < b.end ? -1 : a.end > b.end ? 1 : 0;
  return [
    ...stays.map((b) => ({
      cabinId: b.cabinId,
      start: b.start,
      end: b.end,
      source: b.status === 'confirmed' ? ('booking' as const) : ('hold' as const),
      id: b.id,
      label: b.name,
      key: `booking-${b.id}`,
    })),
    ...blocks.map((b) => ({
      cabinId: b.cabinId,
      start: b.start,
      end: b.end,
      source: 'block' as const,
      id: b.id,
      label: b.note,
      key: `block-${b.id}`,
    })),
    ...events.map((e) => ({
      cabinId: e.cabinId,
      start: e.start,
      end: e.end,
      source: 'feed' as const,
      id: e.id,
      label: e.name,
      key: `feed-${e.feedId}-${e.uid}`,
      feedId: e.feedId,
    })),
    ...channel.map((s) => ({
      cabinId: s.cabinId,
      start: s.start,
      end: s.end,
      source: 'channel' as const,
      id: s.id,
      label: CHANNEL_LABELS[s.channel as ChannelName] ?? s.channel,
      key: `${s.channel}-${s.externalId}`,
      guests: s.guests,
      price: s.price,
    })),
  ].sort(byStart);
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
    ...current
      .filter((f) => keep.has(f.url))
      .map((f) =>
        db
          .update(calendarFeeds)
          .set({ name: keep.get(f.url)!.name })
          .where(eq(calendarFeeds.id, f.id)),
      ),
    ...feeds
      .filter((f) => !current.some((c) => c.url === f.url))
      .map((f) => db.insert(calendarFeeds).values({ cabinId, name: f.name, url: f.url })),
  ];
  if (statements.length) await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
  return listFeeds(env, cabinId);
}

/**
 * A feed's good import: its events replaced and its status set, in one batch, with the validators
 * of the answer it came in (sent back next time, for a 304). Events over before today (Moscow) are
 * kept though the feed no longer lists them: most platforms drop a stay from their feed once it
 * is over, and «Сводка» counts the nights it sold. One the feed still lists is not stored twice.
 */
export async function storeImport(
  env: DbEnv,
  feed: { id: number; cabinId: number },
  events: { uid: string; start: IsoDate; end: IsoDate }[],
  validators: { etag: string | null; lastModified: string | null } = { etag: null, lastModified: null },
) {
  const db = getDb(env);
  const at = new Date(now()).toISOString();
  const today = todayInMoscow(now());
  const key = (e: { uid: string; start: string; end: string }) => `${e.uid}\n${e.start}\n${e.end}`;
  const past = new Set(
    (
      await db
        .select({ uid: feedEvents.uid, start: feedEvents.start, end: feedEvents.end })
        .from(feedEvents)
        .where(and(eq(feedEvents.feedId, feed.id), lte(feedEvents.end, today)))
    ).map(key),
  );
  const statements = [
    db.delete(feedEvents).where(and(eq(feedEvents.feedId, feed.id), gt(feedEvents.end, today))),
    ...events
      .filter((e) => !past.has(key(e)))
      .map((e) => db.insert(feedEvents).values({ feedId: feed.id, cabinId: feed.cabinId, ...e })),
    db
      .update(calendarFeeds)
      .set({
        lastSyncAt: at,
        lastSuccessAt: at,
        lastError: null,
        alertedError: null,
        eventCount: events.length,
        etag: validators.etag,
        lastModified: validators.lastModified,
      })
      .where(eq(calendarFeeds.id, feed.id)),
  ];
  await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
}

/** The feed answered 304: its import is still what it holds. */
export async function storeNotModified(env: DbEnv, feedId: number) {
  const at = new Date(now()).toISOString();
  await getDb(env)
    .update(calendarFeeds)
    .set({ lastSyncAt: at, lastSuccessAt: at, lastError: null, alertedError: null })
    .where(eq(calendarFeeds.id, feedId));
}

/**
 * A failed attempt: the last good import stays; the error and the time are noted. The validators
 * go, so the next read is a whole one (a feed held empty must not pass as unchanged by a 304).
 */
export async function storeFeedError(env: DbEnv, feedId: number, error: string) {
  await getDb(env)
    .update(calendarFeeds)
    .set({ lastSyncAt: new Date(now()).toISOString(), lastError: error, etag: null, lastModified: null })
    .where(eq(calendarFeeds.id, feedId));
}

/** The error the owner was alerted of, so it is not sent again at every read. */
export async function noteFeedAlerted(env: DbEnv, feedId: number, error: string) {
  await getDb(env).update(calendarFeeds).set({ alertedError: error }).where(eq(calendarFeeds.id, feedId));
}

/** How many of a feed's stored events still have nights from `from` on. */
export async function futureEventCount(env: DbEnv, feedId: number, from: IsoDate): Promise<number> {
  const row = await getDb(env)
    .select({ n: count() })
    .from(feedEvents)
    .where(and(eq(feedEvents.feedId, feedId), gt(feedEvents.end, from)))
    .get();
  return row?.n ?? 0;
}

/** A new secret export address for the cabin; the old one stops working at once. */
export async function renewIcalToken(env: DbEnv, cabinId: number): Promise<string> {
  const token = [...crypto.getRandomValues(new Uint8Array(24))].map((b) => b.toString(16).padStart(2, '0')).join('');
  await getDb(env)
    .insert(cabinCalendars)
    .values({ cabinId, icalToken: token })
    .onConflictDoUpdate({ target: cabinCalendars.cabinId, set: { icalToken: token } });
  return token;
}

/**
 * The export's version: a digest of its events and the moment they last changed. A read that
 * finds other events than last time notes the new digest and now, so Last-Modified moves only
 * when a night does (a platform polling every few minutes gets 304 in between).
 */
export async function exportVersion(
  env: DbEnv,
  cabinId: number,
  events: { uid: string; start: string; end: string }[],
): Promise<{ hash: string; changedAt: string }> {
  const bytes = new TextEncoder().encode(JSON.stringify(events));
  const hash = [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))]
    .slice(0, 16)
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');
  const row = await getDb(env)
    .select({ hash: cabinCalendars.exportHash, at: cabinCalendars.exportChangedAt })
    .from(cabinCalendars)
    .where(eq(cabinCalendars.cabinId, cabinId))
    .get();
  if (row?.hash === hash && row.at) return { hash, changedAt: row.at };
  const changedAt = new Date(now()).toISOString();
  await getDb(env)
    .update(cabinCalendars)
    .set({ exportHash: hash, exportChangedAt: changedAt })
    .where(eq(cabinCalendars.cabinId, cabinId));
  return { hash, changedAt };
}

/** Every cabin's export token, where it has one. */
export async function icalTokens(env: DbEnv): Promise<Map<number, string>> {
  const rows = await getDb(env)
    .select({ cabinId: cabinCalendars.cabinId, token: cabinCalendars.icalToken })
    .from(cabinCalendars);
  return new Map(rows.filter((r) => r.token).map((r) => [r.cabinId, r.token!]));
}

export async function cabinByIcalToken(env: DbEnv, token: string): Promise<number | undefined> {
  const row = await getDb(env)
    .select({ cabinId: cabinCalendars.cabinId })
    .from(cabinCalendars)
    .where(eq(cabinCalendars.icalToken, token))
    .get();
  return row?.cabinId;
}

export type PriceRange = { cabinId: number; min: number; max: number };

/**
 * Each active cabin's lowest and highest price per night over the public horizon: its base and
 * weekend prices, every season that still has nights ahead (its weekend price too) and every
 * single date's own price ahead. Pages show «от N ₽» from it, so it never promises less than a
 * night costs, nor hides a cheaper one.
 */
export async function priceRanges(env: DbEnv): Promise<PriceRange[]> {
  const { from, to } = horizon();
  const db = getDb(env);
  const [rows, ahead, dates] = await Promise.all([
    db
      .select({ id: cabins.id, price: cabins.pricePerNight, weekend: cabins.weekendPricePerNight })
      .from(cabins)
      .where(eq(cabins.active, true))
      .orderBy(asc(cabins.id)),
    db
      .select({ cabinId: seasons.cabinId, price: seasons.pricePerNight, weekend: seasons.weekendPricePerNight })
      .from(seasons)
      .where(and(gt(seasons.end, from), lt(seasons.start, to))),
    db
      .select({ cabinId: datePrices.cabinId, price: datePrices.price })
      .from(datePrices)
      .where(and(gte(datePrices.date, from), lt(datePrices.date, to))),
  ]);
  const pricesOf = new Map<number, number[]>();
  const add = (cabinId: number, ...prices: (number | null)[]) => {
    const list = pricesOf.get(cabinId) ?? [];
    for (const p of prices) if (p !== null) list.push(p);
    pricesOf.set(cabinId, list);
  };
  for (const r of rows) add(r.id, r.price, r.weekend);
  for (const s of ahead) add(s.cabinId, s.price, s.weekend);
  for (const d of dates) add(d.cabinId, d.price);
  return rows.map(({ id }) => {
    const prices = pricesOf.get(id)!;
    return { cabinId: id, min: Math.min(...prices), max: Math.max(...prices) };
  });
}
