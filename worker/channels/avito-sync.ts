// Avito both ways: each linked cabin's busy nights and prices go to Avito when
// they change, and Avito's bookings (unpaid ones too) come back as busy nights here. The schedule
// (a Cron Trigger every minute on Workers, a timer on Node) pushes what changed each minute and
// pulls every 5 minutes; «Синхронизировать сейчас» does both at once. Nothing here runs inside a
// visitor's request: a slow or broken Avito never holds a page, a search or a booking.
import {
  AVITO_TIMEOUT_MS,
  CHANNEL_HORIZON_DAYS,
  CHANNEL_PULL_EVERY_MS,
  channelBackoffMs,
  type AvitoConnect,
  type ChannelResult,
} from '../../schema/channels.ts';
import { addDays, todayInMoscow, type IsoDate } from '../../schema/dates.ts';
import type { ChannelLink } from '../../schema/tables.ts';
import type { Bindings } from '../env.ts';
import { now } from '../lib/clock.ts';
import { listCabinNames } from '../queries/cabins.ts';
import { busyRanges, mergeRanges, type BusyRange } from '../queries/calendar.ts';
import { pricingRules } from '../queries/pricing.ts';
import { forLog } from '../lib/for-log.ts';
import { nightPrice, seasonOf, type PricingRules } from '../../schema/pricing.ts';
import {
  getAvitoAccount,
  listLinks,
  recordLinkFailure,
  recordPush,
  replaceChannelStays,
  saveAvitoAccount,
  setAvitoAccountError,
  setAvitoToken,
} from '../queries/channels.ts';
import {
  AvitoError,
  avitoApiUrl,
  getToken,
  pullBookings,
  pushBusy,
  pushPrices,
  type AvitoAccount,
  type PriceRange,
  type TokenStore,
} from './avito-api.ts';

/** Cabins exchanged at once: Avito answers each in well under a second; 150 cabins take a few seconds. */
const AT_ONCE = 4;
/** A pull reaches back this far, so a stay under way now is still read. */
const PULL_BACK_DAYS = 31;

export type Connected = { account: AvitoAccount; store: TokenStore };

/** The stored account as the client needs it, its token kept in the database row. */
export async function connected(env: Bindings): Promise<Connected | null> {
  const row = await getAvitoAccount(env);
  if (!row) return null;
  const account = {
    clientId: row.clientId,
    clientSecret: row.clientSecret,
    userId: row.userId,
    apiUrl: avitoApiUrl(env),
  };
  let token = row.accessToken && row.tokenExpiresAt ? { token: row.accessToken, expiresAt: row.tokenExpiresAt } : null;
  const store: TokenStore = {
    get: async () => token,
    set: async (t) => {
      token = t;
      await setAvitoToken(env, t.token, t.expiresAt);
    },
  };
  return { account, store };
}

/** The owner's words for a failure that is not Avito's own (our database, a bug). */
const reasonOf = (err: unknown) =>
  err instanceof AvitoError ? err.reason : 'Не удалось обменяться данными с Авито: повторим позже';

/**
 * Checks the keys with Avito (a token by client credentials) and stores them only if Avito gave
 * one. Answers the refusal in the owner's words otherwise; nothing is stored then.
 */
export async function connectAvito(
  env: Bindings,
  input: AvitoConnect,
): Promise<{ ok: true } | { ok: false; status: 400 | 502; error: string }> {
  const account = { ...input, apiUrl: avitoApiUrl(env) };
  try {
    const token = await getToken(account, { timeoutMs: AVITO_TIMEOUT_MS });
    await saveAvitoAccount(env, { ...input, accessToken: token.token, tokenExpiresAt: token.expiresAt });
    return { ok: true };
  } catch (err) {
    if (!(err instanceof AvitoError)) throw err;
    return { ok: false, status: err.retryable ? 502 : 400, error: err.reason };
  }
}

/** Whether Avito knows this listing in the owner's account: one read of its bookings. */
export async function checkAvitoItem(
  env: Bindings,
  itemId: number,
): Promise<{ ok: true } | { ok: false; status: 400 | 409 | 502; error: string }> {
  const c = await connected(env);
  if (!c) return { ok: false, status: 409, error: 'Сначала подключите аккаунт Авито' };
  const today = todayInMoscow(now());
  try {
    await pullBookings(c.account, c.store, itemId, today, addDays(today, 1), { timeoutMs: AVITO_TIMEOUT_MS });
    return { ok: true };
  } catch (err) {
    if (!(err instanceof AvitoError)) throw err;
    return { ok: false, status: err.retryable ? 502 : 400, error: err.reason };
  }
}

/**
 * The prices Avito should show over [from, to): each night's own price (date, weekend, season,
 * the cabin's) and its minimum stay, as periods of nights alike, with the fee for each guest
 * beyond the price. Avito's periods name their last night (date_to included).
 */
export function pricePeriods(rules: PricingRules, from: IsoDate, to: IsoDate): PriceRange[] {
  const out: PriceRange[] = [];
  const dates = new Map(rules.datePrices.map((d) => [d.date, d.price]));
  const extraGuestFee = rules.cabin.extraGuestPerNight > 0 ? { extraGuestFee: rules.cabin.extraGuestPerNight } : {};
  for (let night = from; night < to; night = addDays(night, 1)) {
    const pricePerNight = nightPrice(night, rules, dates);
    const minNights = seasonOf(night, rules.seasons)?.minNights ?? rules.cabin.minNights;
    const last = out.at(-1);
    if (last && last.pricePerNight === pricePerNight && last.minNights === minNights && addDays(last.end, 1) === night)
      last.end = night;
    else out.push({ start: night, end: night, pricePerNight, minNights, ...extraGuestFee });
  }
  return out;
}

type Plan = {
  link: ChannelLink;
  name: string;
  busy: BusyRange[];
  prices: PriceRange[];
  busyDigest: string;
  pricesDigest: string;
};

/** What every linked cabin should show on Avito now: its busy nights (not Avito's own stays) and prices. One query per kind. */
async function plans(env: Bindings, links: ChannelLink[]): Promise<Plan[]> {
  if (links.length === 0) return [];
  const from = todayInMoscow(now());
  const to = addDays(from, CHANNEL_HORIZON_DAYS);
  const [busy, rulesOf, names] = await Promise.all([
    busyRanges(env, from, to),
    pricingRules(env, from, to),
    listCabinNames(env),
  ]);
  return links.map((link) => {
    const own = busy.filter(
      (r) => r.cabinId === link.cabinId && !(r.source === 'channel' && r.key.startsWith('avito-')),
    );
    const merged = mergeRanges(own, from, to);
    const rules = rulesOf.get(link.cabinId);
    const periods = rules ? pricePeriods(rules, from, to) : [];
    return {
      link,
      name: names.get(link.cabinId) ?? '',
      busy: merged,
      prices: periods,
      busyDigest: JSON.stringify(merged),
      pricesDigest: JSON.stringify(periods),
    };
  });
}

/** Runs `work` over the list a few at a time. */
async function inTurns<T, R>(list: T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < list.length; i += AT_ONCE) out.push(...(await Promise.all(list.slice(i, i + AT_ONCE).map(work))));
  return out;
}

/** A token before the cabins go in turns, so four calls at once do not each ask for one. */
async function warmToken(c: Connected, timeoutMs: number) {
  const t = await c.store.get();
  if (t && t.expiresAt - 60_000 > now()) return;
  await c.store.set(await getToken(c.account, { timeoutMs }));
}

/** No token to be had: every cabin's exchange fails with that cause (null when there is one). */
async function tokenRefused(
  env: Bindings,
  c: Connected,
  timeoutMs: number,
  todo: { link: ChannelLink; name: string }[],
): Promise<ChannelResult[] | null> {
  try {
    await warmToken(c, timeoutMs);
    return null;
  } catch (err) {
    return Promise.all(
      todo.map(async ({ link, name }) => ({
        cabinId: link.cabinId,
        channel: 'avito',
        name,
        ok: false,
        error: await failed(env, link, err),
      })),
    );
  }
}

type RunOptions = {
  /** Only this cabin. */
  cabinId?: number;
  /** Push even what Avito already holds, and try links still pausing after failures («Синхронизировать сейчас»). */
  now?: boolean;
  timeoutMs?: number;
  /** At most this many listings this run, the longest waiting first (a Worker's outbound requests per run are counted). */
  limit?: number;
  /** Pull only listings not read within the pull period (the schedule's every tick spreads the reads). */
  staleOnly?: boolean;
};

/** Oldest first by a time that may be missing (never done comes first), cut to the run's limit. */
const longestWaiting = <T>(list: T[], at: (item: T) => string | null, limit?: number) =>
  [...list].sort((a, b) => (at(a) ?? '').localeCompare(at(b) ?? '')).slice(0, limit ?? list.length);

/** A failure of one cabin's exchange: noted with its pause before the next try; a refused key is the account's. */
async function failed(env: Bindings, link: ChannelLink, err: unknown): Promise<string> {
  const reason = reasonOf(err);
  if (!(err instanceof AvitoError)) console.error('Avito exchange failed', link.cabinId, forLog(err));
  const retryAfter = err instanceof AvitoError ? err.retryAfterMs : undefined;
  await recordLinkFailure(env, link.cabinId, reason, now() + channelBackoffMs(link.failures + 1, retryAfter));
  if (err instanceof AvitoError && (err.kind === 'revoked' || err.kind === 'keys'))
    await setAvitoAccountError(env, reason);
  return reason;
}

const due = (link: ChannelLink, opts: RunOptions) => opts.now || !link.retryAt || link.retryAt <= now();

/**
 * Sends each linked cabin's busy nights and prices to Avito where they changed since Avito last
 * accepted them (or all of them, `now`). The schedule's every minute: a change anywhere (a booking,
 * a block, an import, a hold running out) reaches Avito within it, whoever made it.
 */
export async function pushAvito(env: Bindings, opts: RunOptions = {}): Promise<ChannelResult[]> {
  const c = await connected(env);
  if (!c) return [];
  const links = (await listLinks(env, opts.cabinId)).filter((l) => due(l, opts));
  const changed = (await plans(env, links)).filter(
    (p) => opts.now || p.busyDigest !== p.link.pushedBusy || p.pricesDigest !== p.link.pushedPrices,
  );
  const todo = longestWaiting(changed, (p) => p.link.lastPushAt, opts.limit);
  if (todo.length === 0) return [];
  const timeoutMs = opts.timeoutMs ?? AVITO_TIMEOUT_MS;
  const refused = await tokenRefused(
    env,
    c,
    timeoutMs,
    todo.map((p) => ({ link: p.link, name: p.name })),
  );
  if (refused) return refused;
  const results = await inTurns(todo, async (p): Promise<ChannelResult> => {
    const base = { cabinId: p.link.cabinId, channel: 'avito', name: p.name };
    try {
      const pushed: { busy?: string; prices?: string } = {};
      if (opts.now || p.busyDigest !== p.link.pushedBusy) {
        await pushBusy(c.account, c.store, p.link.avitoItemId, p.busy, { timeoutMs });
        pushed.busy = p.busyDigest;
      }
      if (opts.now || p.pricesDigest !== p.link.pushedPrices) {
        await pushPrices(c.account, c.store, p.link.avitoItemId, p.prices, { timeoutMs });
        pushed.prices = p.pricesDigest;
      }
      await recordPush(env, p.link.cabinId, pushed);
      return { ...base, ok: true, error: null, detail: `отправлено занятых периодов: ${p.busy.length}` };
    } catch (err) {
      return { ...base, ok: false, error: await failed(env, p.link, err) };
    }
  });
  if (results.some((r) => r.ok)) await setAvitoAccountError(env, null);
  return results;
}

/**
 * Reads Avito's bookings of every linked cabin (unpaid ones included) and makes their nights busy
 * here; a booking Avito dropped or cancelled frees its nights. The schedule's every 5 minutes.
 */
export async function pullAvito(env: Bindings, opts: RunOptions = {}): Promise<ChannelResult[]> {
  const c = await connected(env);
  if (!c) return [];
  const staleBefore = new Date(now() - CHANNEL_PULL_EVERY_MS + 30_000).toISOString();
  const wanted = (await listLinks(env, opts.cabinId)).filter(
    (l) => due(l, opts) && (!opts.staleOnly || !l.lastPullAt || l.lastPullAt < staleBefore),
  );
  const links = longestWaiting(wanted, (l) => l.lastPullAt, opts.limit);
  if (links.length === 0) return [];
  const names = await listCabinNames(env);
  const today = todayInMoscow(now());
  const timeoutMs = opts.timeoutMs ?? AVITO_TIMEOUT_MS;
  const refused = await tokenRefused(
    env,
    c,
    timeoutMs,
    links.map((link) => ({ link, name: names.get(link.cabinId) ?? '' })),
  );
  if (refused) return refused;
  const results = await inTurns(links, async (link): Promise<ChannelResult> => {
    const base = { cabinId: link.cabinId, channel: 'avito', name: names.get(link.cabinId) ?? '' };
    try {
      const bookings = await pullBookings(
        c.account,
        c.store,
        link.avitoItemId,
        addDays(today, -PULL_BACK_DAYS),
        addDays(today, CHANNEL_HORIZON_DAYS),
        { timeoutMs },
      );
      const stays = bookings
        .filter((b) => b.status !== 'canceled' && b.checkIn < b.checkOut && b.checkOut > today)
        .map((b) => ({
          externalId: String(b.id),
          start: b.checkIn,
          end: b.checkOut,
          guests: b.guests,
          price: b.price,
          status: String(b.status),
          guestName: b.name ?? '',
        }));
      await replaceChannelStays(env, link.cabinId, 'avito', stays);
      return { ...base, ok: true, error: null, detail: `бронирований на Авито: ${stays.length}` };
    } catch (err) {
      return { ...base, ok: false, error: await failed(env, link, err) };
    }
  });
  if (results.some((r) => r.ok)) await setAvitoAccountError(env, null);
  return results;
}
