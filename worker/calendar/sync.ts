import { feedHostKind, FEED_MAX_BYTES, FEED_TIMEOUT_MS } from '../../schema/calendar.ts';
import { MSG } from '../../schema/messages.ts';
import type { CalendarFeed } from '../../schema/tables.ts';
import { FeedAddressRefused, type DatabasePort, type FeedFetchPort } from '../platform/ports.ts';
import { horizon, listFeeds, storeFeedError, storeImport } from '../queries/calendar.ts';
import { parseFeed } from './ical.ts';

type SyncEnv = { DB: DatabasePort; ALLOW_LOOPBACK_FEEDS?: string; FEED_FETCH?: FeedFetchPort };
export type FeedResult = { id: number; cabinId: number; name: string; ok: boolean; events: number; error: string | null };

class FeedError extends Error {}

/** Whether this host may be fetched: never inside the network; loopback only where allowed (local runs). */
export function feedUrlRefusal(url: URL, allowLoopback: boolean): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Адрес календаря должен начинаться с http:// или https://';
  const kind = feedHostKind(url.hostname);
  if (kind === 'internal' || (kind === 'loopback' && !allowLoopback)) return MSG.feedUrlInternal;
  return null;
}

/**
 * Workers: the platform's own fetch. It leaves from Cloudflare's network, never the owner's, and
 * a Worker cannot see DNS answers; what we add is the literal check above (README).
 */
const platformFetch: FeedFetchPort = (url, { signal, headers }) => fetch(url, { redirect: 'manual', signal, headers });

/**
 * The feed's text: http(s) only, every hop's host checked (on Node after DNS, by FEED_FETCH),
 * at most 3 redirects, at most 2 MB, within 10 seconds.
 */
async function download(address: string, allowLoopback: boolean, fetchFeed: FeedFetchPort, timeoutMs: number): Promise<string> {
  const signal = AbortSignal.timeout(timeoutMs);
  let url = new URL(address);
  try {
    for (let hop = 0; ; hop++) {
      const refusal = feedUrlRefusal(url, allowLoopback);
      if (refusal) throw new FeedError(refusal);
      const res = await fetchFeed(url, { signal, allowLoopback, headers: { accept: 'text/calendar, */*;q=0.5', 'user-agent': 'Kaspiy-Calendar/1.0' } });
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        await res.body?.cancel();
        if (hop >= 3) throw new FeedError('Не удалось загрузить календарь: слишком много перенаправлений');
        url = new URL(location, url);
        continue;
      }
      if (!res.ok) {
        await res.body?.cancel();
        throw new FeedError(`Не удалось загрузить календарь: сервер ответил ${res.status}`);
      }
      if (Number(res.headers.get('content-length') ?? 0) > FEED_MAX_BYTES) {
        await res.body?.cancel();
        throw new FeedError('Календарь больше 2 МБ: такой не загружается');
      }
      const reader = res.body!.getReader();
      const chunks: Uint8Array[] = [];
      let size = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > FEED_MAX_BYTES) {
          await reader.cancel();
          throw new FeedError('Календарь больше 2 МБ: такой не загружается');
        }
        chunks.push(value);
      }
      const bytes = new Uint8Array(size);
      let at = 0;
      for (const c of chunks) {
        bytes.set(c, at);
        at += c.byteLength;
      }
      return new TextDecoder('utf-8').decode(bytes);
    }
  } catch (err) {
    if (err instanceof FeedError) throw err;
    if (err instanceof FeedAddressRefused) throw new FeedError(MSG.feedUrlInternal);
    if (signal.aborted) throw new FeedError('Сервер календаря не ответил за 10 секунд');
    throw new FeedError(`Не удалось загрузить календарь: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Imports one feed: its events replace its previous import in one batch, or its error is noted. */
export async function syncFeed(env: SyncEnv, feed: CalendarFeed, timeoutMs = FEED_TIMEOUT_MS): Promise<FeedResult> {
  const base = { id: feed.id, cabinId: feed.cabinId, name: feed.name };
  try {
    const text = await download(feed.url, env.ALLOW_LOOPBACK_FEEDS === '1', env.FEED_FETCH ?? platformFetch, timeoutMs);
    const { from, to } = horizon();
    let events;
    try {
      events = parseFeed(text, from, to);
    } catch (err) {
      throw new FeedError(`Календарь не читается: ${err instanceof Error ? err.message.slice(0, 200) : 'неизвестный формат'}`);
    }
    await storeImport(env, feed, events);
    return { ...base, ok: true, events: events.length, error: null };
  } catch (err) {
    const error = err instanceof FeedError ? err.message : 'Не удалось сохранить календарь';
    if (!(err instanceof FeedError)) console.error('Calendar sync failed', feed.id, err);
    await storeFeedError(env, feed.id, error);
    return { ...base, ok: false, events: feed.eventCount, error };
  }
}

/**
 * Imports every feed of every cabin, a few at a time. The one function behind «Синхронизировать
 * сейчас», the Cron Trigger on Workers and the timer of the Node server.
 */
export async function syncAllFeeds(env: SyncEnv, cabinId?: number, timeoutMs = FEED_TIMEOUT_MS): Promise<FeedResult[]> {
  const feeds = await listFeeds(env, cabinId);
  const results: FeedResult[] = [];
  for (let i = 0; i < feeds.length; i += 4) results.push(...(await Promise.all(feeds.slice(i, i + 4).map((f) => syncFeed(env, f, timeoutMs)))));
  return results;
}

/** How long a cabin's feeds may take when read again just before money moves (issue 17, point 5). */
export const PAYMENT_FEED_RECHECK_MS = 4000;

/**
 * Reads a cabin's imported calendars once more before a payment is created or a booking
 * confirmed, closing the gap between a booking made on Суточно or Avito and the next 15-minute
 * sync. A feed that cannot be read in time keeps its last good import and shows its error to the
 * owner, as any failed sync does; the nights are then checked against what is stored.
 */
export async function recheckFeeds(env: SyncEnv, cabinId: number): Promise<FeedResult[]> {
  return syncAllFeeds(env, cabinId, PAYMENT_FEED_RECHECK_MS);
}
