// The channel stage (docs/operations.md, «Channels: Avito and iCal»): a sync with Avito's
// stand-in at 15 and 150 linked cabins. The owner's «Синхронизировать сейчас» (`POST /api/admin/channels/sync`) timed, the
// Avito calls one sync makes counted from the stand-in's log, and one change (a block) timed
// until the stand-in holds it: on the self-hosted server by its own timer, on Workers by the
// schedule asked for at once (wrangler's trigger, as `npm start`'s tick asks for it).
import { startAvitoStandIn, type AvitoStandIn, type LoggedRequest } from '../stand-ins/avito-api.ts';
import { addDays, todayInMoscow, type IsoDate } from '../schema/dates.ts';
import { adminLogin } from './edit-to-live.ts';
import { median } from './stats.ts';
import type { Served } from './targets.ts';

/** One size of the catalogue, every active cabin linked to its own listing. */
export type ChannelPoint = {
  /** Active cabins, each linked. */
  cabins: number;
  /** Cabins linked at this size (those the smaller size had are linked already), one after the other as the owner does. */
  linked: number;
  /** Wall time of linking them (`PUT /api/admin/cabins/:id/channels`, each checked with Avito, pulled and pushed). */
  linkS: number;
  linkMedianMs: number;
  linkMaxMs: number;
  /** Avito's bookings of the account's listings in the stand-in (1–2 a cabin). */
  avitoBookings: number;
  /** «Синхронизировать сейчас», each trial's wall time. */
  syncTrialsS: number[];
  syncMedianS: number;
  syncMaxS: number;
  /**
   * Linked cabins the sync read and sent at once. On Workers a request's outbound calls are
   * budgeted (SUBREQUESTS_PER_RUN): the listings waiting longest go now, the rest with the
   * schedule, and the answer says how many (`later`). Self-hosted: every cabin.
   */
  syncedNow: number;
  /** Avito API requests of one sync (the trial with the fewest: the schedule's own reads may fall in one). */
  requestsPerSync: number;
  requestsByKind: { token: number; pull: number; busy: number; prices: number; other: number };
  /** Calls beyond the first to the same method and path in that sync (0: none repeated). */
  repeatedCalls: number;
  /** From the write of a block on one cabin to the stand-in holding it for that listing; null: not within the timeout. */
  pushAfterChangeS?: number | null;
  /** `timer`: the self-hosted server's own schedule (every 60 s); `triggered`: the schedule asked for right after the write. */
  pushHow?: 'timer' | 'triggered';
  /** Avito API requests between the write and the stand-in holding it. */
  pushRequests?: number;
};

export type ChannelsResults = {
  points: ChannelPoint[];
  /** The stage's own instance of the target: started fresh with the bench's stand-in (s). */
  startS?: number;
  error?: string;
};

export type ChannelOptions = {
  sizes: number[];
  trials: number;
  pushTimeoutMs: number;
  pollMs: number;
  adminPassword: string;
  log: (line: string) => void;
};

/** The bench's Avito account: one listing per cabin of the largest size. */
export const BENCH_AVITO = { clientId: 'bench-avito-client', clientSecret: 'bench-avito-secret-2026', userId: 700_700 };
const FIRST_ITEM = 5_000_001;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A stand-in for the stage, with one account whose listings cover `cabins` cabins. */
export async function startBenchAvito(port: number, cabins: number): Promise<AvitoStandIn> {
  const avito = await startAvitoStandIn({ port });
  avito.addClient({ ...BENCH_AVITO, items: Array.from({ length: cabins }, (_, i) => FIRST_ITEM + i) });
  return avito;
}

/** The n-th cabin's Avito bookings: 1 or 2, dates counted from today in Moscow. */
function bookingsOf(n: number, today: IsoDate) {
  const first = addDays(today, 5 + (n % 25));
  const out = [
    { check_in: first, check_out: addDays(first, 2 + (n % 3)), guest_count: 2, base_price: 4500 + 100 * (n % 10) },
  ];
  if (n % 2 === 0) {
    const second = addDays(today, 60 + (n % 40));
    out.push({ check_in: second, check_out: addDays(second, 3), guest_count: 3, base_price: 5200 });
  }
  return out;
}

const kindOf = (r: LoggedRequest): keyof ChannelPoint['requestsByKind'] => {
  if (r.path === '/token') return 'token';
  if (r.method === 'GET' && /\/realty\/v1\/.*\/bookings$/.test(r.path)) return 'pull';
  if (r.method === 'POST' && /\/core\/v1\/.*\/bookings$/.test(r.path)) return 'busy';
  if (r.method === 'POST' && /\/prices$/.test(r.path)) return 'prices';
  return 'other';
};

function countRequests(list: LoggedRequest[]) {
  const byKind = { token: 0, pull: 0, busy: 0, prices: 0, other: 0 };
  const seen = new Set<string>();
  let repeated = 0;
  for (const r of list) {
    byKind[kindOf(r)] += 1;
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) repeated += 1;
    seen.add(key);
  }
  return { total: list.length, byKind, repeated };
}

type SyncAnswer = {
  avito: { cabinId: number; name: string; ok: boolean; error: string | null }[];
  feeds: { name: string; ok: boolean; error: string | null }[];
  conflicts: unknown[];
  /** Linked listings left for the schedule (a Worker's budget of outbound calls); 0 self-hosted. */
  later: number;
};

/** The whole stage on a running target: every size in turn. Throws on the first failure (a failed sync is not a fast one). */
export async function measureChannels(
  served: Served,
  avito: AvitoStandIn,
  opts: ChannelOptions,
  points: ChannelPoint[],
): Promise<void> {
  const base = served.url;
  const cookie = await adminLogin(base, opts.adminPassword);
  const api = async <T>(
    method: string,
    p: string,
    body?: unknown,
  ): Promise<{ status: number; body: T; ms: number }> => {
    const started = performance.now();
    const res = await fetch(`${base}/api${p}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const ms = performance.now() - started;
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // kept as text for the error
    }
    if (!res.ok)
      throw new Error(`${method} /api${p} answered ${res.status} after ${ms.toFixed(0)} ms: ${text.slice(0, 300)}`);
    return { status: res.status, body: parsed as T, ms };
  };

  const connected = await api('PUT', '/admin/channels/avito', BENCH_AVITO);
  opts.log(`  Avito account connected in ${connected.ms.toFixed(0)} ms`);
  const itemOf = new Map<number, number>();
  const today = todayInMoscow();

  for (const [sizeIndex, size] of opts.sizes.entries()) {
    const grown = await served.growCabins(size);
    const channels = (
      await api<{ cabins: { id: number; active: boolean; avitoItemId: number | null }[] }>('GET', '/admin/channels')
    ).body;
    const active = channels.cabins.filter((c) => c.active).sort((a, b) => a.id - b.id);
    if (active.length !== size)
      throw new Error(
        `${size} active cabins asked for, ${active.length} listed (grown: ${grown.active} active of ${grown.total})`,
      );

    // Avito's own bookings of each new cabin's listing, then the links, one after the other.
    const fresh = active.filter((c) => !itemOf.has(c.id));
    for (const c of fresh) {
      const n = itemOf.size;
      itemOf.set(c.id, FIRST_ITEM + n);
      for (const b of bookingsOf(n, today)) avito.addBooking(FIRST_ITEM + n, b);
    }
    const avitoBookings = active.reduce((sum, c) => sum + avito.bookings(itemOf.get(c.id)!).length, 0);
    opts.log(`Channels: ${size} active cabins, ${avitoBookings} Avito bookings; linking ${fresh.length}…`);
    const linkMs: number[] = [];
    const linkStarted = performance.now();
    for (const c of fresh) {
      const linked = await api<{ avitoItemId: number; results: { ok: boolean; error: string | null }[] }>(
        'PUT',
        `/admin/cabins/${c.id}/channels`,
        { avitoItemId: itemOf.get(c.id) },
      );
      const bad = linked.body.results.filter((r) => !r.ok);
      if (linked.body.results.length !== 2 || bad.length) {
        throw new Error(
          `linking cabin ${c.id} to ${itemOf.get(c.id)}: ${linked.body.results.length} results, ${bad.length} failed${bad[0] ? `: ${bad[0].error}` : ''}`,
        );
      }
      linkMs.push(linked.ms);
    }
    const linkS = (performance.now() - linkStarted) / 1000;
    opts.log(
      `  linked ${fresh.length} in ${linkS.toFixed(1)} s (each: median ${median(linkMs).toFixed(0)} ms, max ${Math.max(...linkMs).toFixed(0)} ms)`,
    );

    // «Синхронизировать сейчас», a few times; each answer checked, each trial's Avito calls counted.
    const trialsS: number[] = [];
    const synced: number[] = [];
    const counted: ReturnType<typeof countRequests>[] = [];
    for (let i = 1; i <= opts.trials; i++) {
      await quiet(avito);
      const from = avito.requests.length;
      const sync = await api<SyncAnswer>('POST', '/admin/channels/sync');
      const calls = avito.requests.slice(from);
      const failedAvito = sync.body.avito.filter((r) => !r.ok);
      const failedFeeds = sync.body.feeds.filter((r) => !r.ok);
      const now = size - sync.body.later;
      if (now < 1 || sync.body.avito.length !== 2 * now || failedAvito.length || failedFeeds.length) {
        const first = failedAvito[0] ?? failedFeeds[0];
        throw new Error(
          `sync at ${size} cabins (trial ${i}, ${(sync.ms / 1000).toFixed(1)} s): ${sync.body.avito.length} Avito results for ${now} cabins now and ${sync.body.later} with the schedule (a pull and a push each), ${failedAvito.length} failed, ${failedFeeds.length} of ${sync.body.feeds.length} feeds failed${first ? `: ${first.name}: ${first.error}` : ''}`,
        );
      }
      synced.push(now);
      const c = countRequests(calls);
      const refused = calls.filter((r) => r.status >= 400);
      if (refused.length)
        throw new Error(
          `sync at ${size} cabins (trial ${i}): the stand-in refused ${refused.length} call(s), first ${refused[0]!.method} ${refused[0]!.path} → ${refused[0]!.status}`,
        );
      trialsS.push(sync.ms / 1000);
      counted.push(c);
      opts.log(
        `  sync ${i}/${opts.trials}: ${(sync.ms / 1000).toFixed(2)} s, ${now} cabins now${sync.body.later ? ` (${sync.body.later} with the schedule)` : ''}, ${c.total} Avito calls (${c.byKind.pull} reads, ${c.byKind.busy} busy, ${c.byKind.prices} prices, ${c.byKind.token} tokens), ${c.repeated} repeated; ${sync.body.feeds.length} feeds, ${sync.body.conflicts.length} new conflicts`,
      );
    }
    const fewestAt = counted.reduce((a, b, j) => (b.total < counted[a]!.total ? j : a), 0);
    const fewest = counted[fewestAt]!;
    const point: ChannelPoint = {
      cabins: size,
      linked: fresh.length,
      linkS,
      linkMedianMs: median(linkMs),
      linkMaxMs: Math.max(...linkMs),
      avitoBookings,
      syncTrialsS: trialsS,
      syncMedianS: median(trialsS),
      syncMaxS: Math.max(...trialsS),
      syncedNow: synced[fewestAt]!,
      requestsPerSync: fewest.total,
      requestsByKind: fewest.byKind,
      repeatedCalls: fewest.repeated,
    };
    points.push(point);

    // One change, then the push: a block on the last cabin, far ahead and clear of its bookings.
    const cabin = active[active.length - 1]!;
    const item = itemOf.get(cabin.id)!;
    const start = addDays(today, 300 + 10 * sizeIndex);
    const end = addDays(start, 3);
    const from = avito.requests.length;
    const written = performance.now();
    await api('POST', `/admin/cabins/${cabin.id}/blocks`, { start, end, note: 'замер бенчмарка' });
    if (served.scheduledUrl) {
      // The Cron Trigger's tick, as `npm start` asks wrangler dev for it every minute.
      const tick = await fetch(served.scheduledUrl);
      await tick.body?.cancel();
      if (!tick.ok) throw new Error(`the schedule's tick answered ${tick.status}`);
    }
    const holds = () => (avito.pushedBusy(item).last ?? []).some((r) => r.date_start <= start && r.date_end >= end);
    let seenS: number | null = null;
    while (performance.now() - written < opts.pushTimeoutMs) {
      if (holds()) {
        seenS = (performance.now() - written) / 1000;
        break;
      }
      await sleep(opts.pollMs);
    }
    point.pushAfterChangeS = seenS;
    point.pushHow = served.scheduledUrl ? 'triggered' : 'timer';
    point.pushRequests = avito.requests.length - from;
    opts.log(
      `  a block on cabin ${cabin.id} reached listing ${item} ${seenS === null ? `not within ${opts.pushTimeoutMs / 1000} s` : `after ${seenS.toFixed(1)} s`} (${point.pushHow}; ${point.pushRequests} Avito calls meanwhile)`,
    );
  }
}

/** Waits until the stand-in has had no request for a second (the schedule's own reads done), at most 30 s. */
async function quiet(avito: AvitoStandIn) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const last = avito.requests.at(-1);
    if (!last || Date.now() - Date.parse(last.at) > 1000) return;
    await sleep(200);
  }
}
