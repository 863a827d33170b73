import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { ChannelName } from '../../schema/channels.ts';
import { todayInMoscow } from '../../schema/dates.ts';
import {
  avitoAccount,
  cabins,
  channelLinks,
  channelStays,
  conflictAlerts,
  type AvitoAccountRow,
  type ChannelLink,
} from '../../schema/tables.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = { DB: DatabasePort };
const nowIso = () => new Date(now()).toISOString();

// ——— The Avito account (one row).

export async function getAvitoAccount(env: DbEnv): Promise<AvitoAccountRow | undefined> {
  return getDb(env).select().from(avitoAccount).where(eq(avitoAccount.id, 1)).get();
}

/**
 * Stores the keys Avito just accepted, with the token it gave. A new account (another user id)
 * makes every listing's pushed state unknown, so the next tick pushes everything again.
 */
export async function saveAvitoAccount(
  env: DbEnv,
  a: { clientId: string; clientSecret: string; userId: number; accessToken: string; tokenExpiresAt: number },
) {
  const db = getDb(env);
  // Other keys may have another plan: their chats are tried afresh (the webhook's secret path is kept).
  const row = {
    ...a,
    lastError: null,
    connectedAt: nowIso(),
    chatsRefused: null,
    chatsError: null,
    chatsFailures: 0,
    chatsRetryAt: null,
    hookUrl: null,
  };
  await db.batch([
    db
      .insert(avitoAccount)
      .values({ id: 1, ...row })
      .onConflictDoUpdate({ target: avitoAccount.id, set: row }),
    db.update(channelLinks).set({ pushedBusy: null, pushedPrices: null, lastError: null, failures: 0, retryAt: null }),
  ]);
}

/**
 * Disconnects Avito: the keys go, and so do the stays read from it (nothing would keep them true
 * any more); the cabins keep their listing numbers for a later reconnection.
 */
export async function deleteAvitoAccount(env: DbEnv) {
  const db = getDb(env);
  await db.batch([
    db.delete(avitoAccount).where(eq(avitoAccount.id, 1)),
    db.delete(channelStays).where(eq(channelStays.channel, 'avito')),
    db.update(channelLinks).set({ pushedBusy: null, pushedPrices: null, lastError: null, failures: 0, retryAt: null }),
  ]);
}

export async function setAvitoToken(env: DbEnv, accessToken: string, tokenExpiresAt: number) {
  await getDb(env).update(avitoAccount).set({ accessToken, tokenExpiresAt }).where(eq(avitoAccount.id, 1));
}

/** The account's own failure (a revoked key), or null once it works again. */
export async function setAvitoAccountError(env: DbEnv, lastError: string | null) {
  await getDb(env).update(avitoAccount).set({ lastError }).where(eq(avitoAccount.id, 1));
}

// ——— Each cabin's listing.

export async function listLinks(env: DbEnv, cabinId?: number): Promise<ChannelLink[]> {
  const q = getDb(env).select().from(channelLinks);
  return (cabinId === undefined ? q : q.where(eq(channelLinks.cabinId, cabinId))).orderBy(asc(channelLinks.cabinId));
}

/** The cabin already linked to this listing, if another one is. */
export async function cabinOfItem(env: DbEnv, itemId: number): Promise<number | undefined> {
  return (
    await getDb(env)
      .select({ cabinId: channelLinks.cabinId })
      .from(channelLinks)
      .where(eq(channelLinks.avitoItemId, itemId))
      .get()
  )?.cabinId;
}

/** Links a cabin to its listing (a new listing starts unpushed), or unlinks it with its stays read from Avito. */
export async function setAvitoItem(env: DbEnv, cabinId: number, itemId: number | null) {
  const db = getDb(env);
  if (itemId === null) {
    await db.batch([
      db.delete(channelLinks).where(eq(channelLinks.cabinId, cabinId)),
      db.delete(channelStays).where(and(eq(channelStays.cabinId, cabinId), eq(channelStays.channel, 'avito'))),
    ]);
    return;
  }
  const fresh = {
    avitoItemId: itemId,
    pushedBusy: null,
    pushedPrices: null,
    lastPushAt: null,
    lastPullAt: null,
    lastError: null,
    failures: 0,
    retryAt: null,
  };
  await db
    .insert(channelLinks)
    .values({ cabinId, ...fresh })
    // The same listing again keeps its state; another listing starts afresh.
    .onConflictDoUpdate({
      target: channelLinks.cabinId,
      set: fresh,
      setWhere: sql`${channelLinks.avitoItemId} <> ${itemId}`,
    });
}

/** A push Avito accepted: what it now holds. */
export async function recordPush(env: DbEnv, cabinId: number, pushed: { busy?: string; prices?: string }) {
  await getDb(env)
    .update(channelLinks)
    .set({
      ...(pushed.busy === undefined ? {} : { pushedBusy: pushed.busy }),
      ...(pushed.prices === undefined ? {} : { pushedPrices: pushed.prices }),
      lastPushAt: nowIso(),
      lastError: null,
      failures: 0,
      retryAt: null,
    })
    .where(eq(channelLinks.cabinId, cabinId));
}

/** A failed push or pull: its cause, and when to try again. */
export async function recordLinkFailure(env: DbEnv, cabinId: number, error: string, retryAt: number) {
  await getDb(env)
    .update(channelLinks)
    .set({ lastError: error, failures: sql`${channelLinks.failures} + 1`, retryAt })
    .where(eq(channelLinks.cabinId, cabinId));
}

// ——— Stays read from a platform's API.

export type ChannelStayInput = {
  externalId: string;
  start: string;
  end: string;
  guests: number;
  price: number;
  status: string;
  guestName: string;
};

/** D1 binds at most 100 values to one statement: lists are written in slices under it. */
const SLICE = 90;
const slices = <T>(list: T[], size: number) =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

/**
 * Sets a cabin's stays from one platform to what it answered, in one batch: gone ones are
 * deleted (Avito dropped or cancelled them), changed ones updated, new ones inserted, and the
 * pull noted on the link. Unchanged rows are not written, so public reads keep their stamp. A
 * stay over before today (Moscow) stays though the answer no longer has it (the API lists stays
 * not yet over): «Сводка» counts the nights it sold.
 */
export async function replaceChannelStays(
  env: DbEnv,
  cabinId: number,
  channel: ChannelName,
  stays: ChannelStayInput[],
) {
  const db = getDb(env);
  const at = nowIso();
  const current = await db
    .select()
    .from(channelStays)
    .where(and(eq(channelStays.cabinId, cabinId), eq(channelStays.channel, channel)));
  const wanted = new Map(stays.map((s) => [s.externalId, s]));
  const same = (row: (typeof current)[number], s: ChannelStayInput) =>
    row.start === s.start &&
    row.end === s.end &&
    row.guests === s.guests &&
    row.price === s.price &&
    row.status === s.status &&
    row.guestName === s.guestName;
  const today = todayInMoscow(now());
  const gone = current.filter((row) => !wanted.has(row.externalId) && row.end > today).map((row) => row.id);
  const changed = stays.filter((s) => {
    const row = current.find((r) => r.externalId === s.externalId);
    return !row || !same(row, s);
  });
  const statements = [
    ...slices(gone, SLICE).map((ids) => db.delete(channelStays).where(inArray(channelStays.id, ids))),
    ...changed.map((s) =>
      db
        .insert(channelStays)
        .values({ cabinId, channel, ...s, updatedAt: at })
        // The same booking moved to another listing of the account: it follows.
        .onConflictDoUpdate({
          target: [channelStays.channel, channelStays.externalId],
          set: {
            cabinId,
            start: s.start,
            end: s.end,
            guests: s.guests,
            price: s.price,
            status: s.status,
            guestName: s.guestName,
            updatedAt: at,
          },
        }),
    ),
    db
      .update(channelLinks)
      .set({ lastPullAt: at, lastError: null, failures: 0, retryAt: null })
      .where(eq(channelLinks.cabinId, cabinId)),
  ];
  await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
}

/** Every stay read from a platform, newest arrival first, with its cabin's name («Заявки»). */
export async function listChannelStays(env: DbEnv, fromDate: string) {
  return getDb(env)
    .select({
      id: channelStays.id,
      cabinId: channelStays.cabinId,
      cabinName: cabins.name,
      channel: channelStays.channel,
      externalId: channelStays.externalId,
      start: channelStays.start,
      end: channelStays.end,
      guests: channelStays.guests,
      price: channelStays.price,
      status: channelStays.status,
      guestName: channelStays.guestName,
      updatedAt: channelStays.updatedAt,
    })
    .from(channelStays)
    .innerJoin(cabins, eq(channelStays.cabinId, cabins.id))
    .where(sql`${channelStays.end} > ${fromDate}`)
    .orderBy(asc(channelStays.start));
}

// ——— Conflicts alerted.

/**
 * Claims the conflicts of `keys` not alerted before and answers them: an insert that skips the
 * known ones, so of two runs at once only one alerts. Conflicts no longer in `keys` (resolved or
 * past) are forgotten, so one that comes back is alerted again.
 */
export async function claimNewConflicts(env: DbEnv, keys: string[]): Promise<Set<string>> {
  const db = getDb(env);
  const known = new Set((await db.select({ key: conflictAlerts.key }).from(conflictAlerts)).map((r) => r.key));
  const current = new Set(keys);
  const stale = [...known].filter((k) => !current.has(k));
  const fresh = [...current].filter((k) => !known.has(k));
  for (const part of slices(stale, SLICE)) await db.delete(conflictAlerts).where(inArray(conflictAlerts.key, part));
  const at = nowIso();
  const claimed = new Set<string>();
  for (const part of slices(fresh, SLICE / 2)) {
    const rows = await db
      .insert(conflictAlerts)
      .values(part.map((key) => ({ key, alertedAt: at })))
      .onConflictDoNothing()
      .returning({ key: conflictAlerts.key });
    for (const r of rows) claimed.add(r.key);
  }
  return claimed;
}
