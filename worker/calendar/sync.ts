import { FEED_EMPTY_HELD, feedHostKind, FEED_MAX_BYTES, FEED_TIMEOUT_MS } from '../../schema/calendar.ts';
import type { FeedResult } from '../../schema/channels.ts';
import { MSG } from '../../schema/messages.ts';
import type { CalendarFeed } from '../../schema/tables.ts';
import type { Bindings } from '../env.ts';
import { notifyOwner } from '../notify/owner.ts';
import { FeedAddressRefused, type FeedFetchPort } from '../platform/ports.ts';
import { forLog } from '../lib/for-log.ts';
import {
  futureEventCount,
  horizon,
  listFeeds,
  noteFeedAlerted,
  storeFeedError,
  storeImport,
  storeNotModified,
} from '../queries/calendar.ts';
import { getCabin } from '../queries/cabins.ts';
import { FeedRefusedError, parseFeed } from './ical.ts';

type SyncEnv = Bindings;
/** Where an alert to the owner goes once the feed's result is stored: awaited in the schedule, after the answer in a request. */
export type Later = (label: string, task: Promise<unknown>) => void;

class FeedError extends Error {}

/** Whether this host may be fetched: never inside the network; loopback only where allowed (local runs). */
export function feedUrlRefusal(url: URL, allowLoopback: boolean): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'Адрес календаря должен начинаться с http:// или https://';
  const kind = feedHostKind(url.hostname);
  if (kind === 'internal' || (kind === 'loopback' && !allowLoopback)) return MSG.feedUrlInternal;
  return null;
}

/**
 * Workers: the platform's own fetch. It leaves from Cloudflare's network, never the owner's, and
 * a Worker cannot see DNS answers; what we add is the literal check above (docs/operations.md «Channels»).
 */
const platformFetch: FeedFetchPort = (url, { signal, headers }) => fetch(url, { redirect: 'manual', signal, headers });

const TOO_LARGE = `Календарь больше ${FEED_MAX_BYTES / 1024 / 1024} МБ: такой не загружается. Прежние даты сохранены`;

type Validators = { etag: string | null; lastModified: string | null };
type Downloaded = { notModified: true } | ({ notModified: false; text: string } & Validators);

/**
 * The feed's text: http(s) only, every hop's host checked (on Node after DNS, by FEED_FETCH),
 * at most 3 redirects, at most 5 MB, within 10 seconds. With the validators of the last import
 * it asks If-None-Match / If-Modified-Since, so a platform that throttles frequent readers
 * answers 304 and keeps answering.
 */
async function download(
  address: string,
  allowLoopback: boolean,
  fetchFeed: FeedFetchPort,
  timeoutMs: number,
  known: Validators,
): Promise<Downloaded> {
  const signal = AbortSignal.timeout(timeoutMs);
  let url = new URL(address);
  const headers: Record<string, string> = { accept: 'text/calendar, */*;q=0.5', 'user-agent': 'Kaspiy-Calendar/1.0' };
  if (known.etag) headers['if-none-match'] = known.etag;
  if (known.lastModified) headers['if-modified-since'] = known.lastModified;
  try {
    for (let hop = 0; ; hop++) {
      const refusal = feedUrlRefusal(url, allowLoopback);
      if (refusal) throw new FeedError(refusal);
      const res = await fetchFeed(url, { signal, allowLoopback, headers });
      if (res.status === 304 && (known.etag || known.lastModified)) {
        await res.body?.cancel();
        return { notModified: true };
      }
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
        throw new FeedError(TOO_LARGE);
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
          throw new FeedError(TOO_LARGE);
        }
        chunks.push(value);
      }
      const bytes = new Uint8Array(size);
      let at = 0;
      for (const c of chunks) {
        bytes.set(c, at);
        at += c.byteLength;
      }
      return {
        notModified: false,
        text: new TextDecoder('utf-8').decode(bytes),
        etag: res.headers.get('etag'),
        lastModified: res.headers.get('last-modified'),
      };
    }
  } catch (err) {
    if (err instanceof FeedError) throw err;
    if (err instanceof FeedAddressRefused) throw new FeedError(MSG.feedUrlInternal);
    if (signal.aborted) throw new FeedError('Сервер календаря не ответил за 10 секунд');
    throw new FeedError(`Не удалось загрузить календарь: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Our own export read back through another platform (RealtyCalendar, a Google calendar): not a second stay. */
const OUR_UID = /@kaspiy(?:#|$)/;

/**
 * Imports one feed: its events replace its previous import in one batch, or its error is noted
 * and the last good import kept. A feed that had nights ahead and comes back with none keeps them
 * too, until the owner accepts the empty calendar: a broken export link must never free every
 * night at once. The owner is alerted once of each new error of a feed that worked before.
 */
export async function syncFeed(
  env: SyncEnv,
  feed: CalendarFeed,
  timeoutMs = FEED_TIMEOUT_MS,
  later?: Later,
): Promise<FeedResult> {
  const base = { id: feed.id, cabinId: feed.cabinId, name: feed.name };
  try {
    const got = await download(
      feed.url,
      env.ALLOW_LOOPBACK_FEEDS === '1',
      env.FEED_FETCH ?? platformFetch,
      timeoutMs,
      feed,
    );
    if (got.notModified) {
      await storeNotModified(env, feed.id);
      return { ...base, ok: true, events: feed.eventCount, error: null, notModified: true };
    }
    const { from, to } = horizon();
    let events;
    try {
      events = parseFeed(got.text, from, to).filter((e) => !OUR_UID.test(e.uid));
    } catch (err) {
      if (err instanceof FeedRefusedError) throw new FeedError(`${err.message}. Прежние даты сохранены`);
      throw new FeedError(
        `Календарь не читается: ${err instanceof Error ? err.message.slice(0, 200) : 'неизвестный формат'}. Прежние даты сохранены`,
      );
    }
    if (events.length === 0 && (await futureEventCount(env, feed.id, from)) > 0) throw new FeedError(FEED_EMPTY_HELD);
    await storeImport(env, feed, events, got);
    return { ...base, ok: true, events: events.length, error: null };
  } catch (err) {
    const error = err instanceof FeedError ? err.message : 'Не удалось сохранить календарь';
    if (!(err instanceof FeedError)) console.error('Calendar sync failed', feed.id, forLog(err));
    await storeFeedError(env, feed.id, error);
    if (feed.lastSuccessAt && feed.alertedError !== error) {
      const alert = alertFeedError(env, feed, error);
      if (later) later('Calendar feed alert', alert);
      else await alert;
    }
    return { ...base, ok: false, events: feed.eventCount, error };
  }
}

/** Tells the owner a feed that worked stopped working, once per error (a feed read every 5 minutes). */
async function alertFeedError(env: Bindings, feed: CalendarFeed, error: string) {
  await noteFeedAlerted(env, feed.id, error);
  const cabin = await getCabin(env, feed.cabinId);
  const site = env.SITE_URL
    ? [``, `Календарь домика: ${env.SITE_URL.replace(/\/$/, '')} → админ-панель → «Календарь» → «Площадки»`]
    : [];
  await notifyOwner(env, {
    subject: `Календарь «${feed.name}» домика «${cabin?.name ?? feed.cabinId}» не обновился`,
    text: [
      error,
      '',
      'Даты из этого календаря, загруженные раньше, по-прежнему заняты на сайте. Проверьте ссылку на календарь на площадке.',
      ...site,
    ].join('\n'),
  });
}

/**
 * Imports every feed of every cabin, a few at a time. The one function behind «Синхронизировать
 * сейчас», the Cron Trigger on Workers and the timer of the Node server.
 */
export async function syncAllFeeds(
  env: SyncEnv,
  cabinId?: number,
  timeoutMs = FEED_TIMEOUT_MS,
  later?: Later,
): Promise<FeedResult[]> {
  const feeds = await listFeeds(env, cabinId);
  const results: FeedResult[] = [];
  for (let i = 0; i < feeds.length; i += 4)
    results.push(...(await Promise.all(feeds.slice(i, i + 4).map((f) => syncFeed(env, f, timeoutMs, later)))));
  return results;
}

/** How long a cabin's feeds may take when read again just before money moves. */
export const PAYMENT_FEED_RECHECK_MS = 4000;

/**
 * Reads a cabin's imported calendars once more before a payment is created or a booking
 * confirmed, closing the gap between a booking made on Суточно or Avito and the next 15-minute
 * sync. Its alerts to the owner go through `later`, never before the guest's answer. A feed that cannot be read in time keeps its last good import and shows its error to the
 * owner, as any failed sync does; the nights are then checked against what is stored.
 */
export async function recheckFeeds(env: SyncEnv, cabinId: number, later: Later): Promise<FeedResult[]> {
  return syncAllFeeds(env, cabinId, PAYMENT_FEED_RECHECK_MS, later);
}
