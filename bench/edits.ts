// The edits stage (BENCH_ONLY=edits): what an edit costs at each catalogue size.
// A one-cabin edit (its price per night) should render only that cabin's pages; a change every
// page shows (the header's phone) renders every page. Each is timed from the admin's save to the
// pages showing it, with the same poller as the `edit` stage (bench/edit-to-live.ts).
import { formatPrice } from '../schema/format.ts';
import { adminLogin, saveToLive, type SaveToLive, type SaveToLiveTrial } from './edit-to-live.ts';
import { median } from './stats.ts';
import type { Served } from './targets.ts';

/** The trials of one kind of edit at one size. */
export type EditSeries = {
  /** What was saved, e.g. `PUT /api/cabins/1 { pricePerNight }`. */
  save: string;
  /** The pages polled until each showed the save. */
  pages: string[];
  trials: SaveToLiveTrial[];
  /** Save → every page live; a trial that never went live ranks as the slowest (null if most did not). */
  medianS: number | null;
  maxS: number | null;
  /** Save → /build.json naming the new content version: the rebuild's own time. */
  medianRebuiltS: number | null;
  maxRebuiltS: number | null;
};

export type EditsPoint = {
  targetActive: number;
  activeCabins: number;
  totalCabins: number;
  /**
   * The rebuild after growing, not an edit: the live build every edit then starts from (the whole
   * site, or only the new cabins' pages where the build renders only what changed).
   */
  fullBuildS: number;
  cabin: EditSeries;
  siteWide: EditSeries;
};

export type EditsResults = {
  /** The sizes asked for (BENCH_EDIT_SIZES may leave some out). */
  sizes: number[];
  points: EditsPoint[];
  /** The stage's own instance: started in this many seconds. */
  startS?: number;
  error?: string;
};

export type EditsOptions = {
  sizes: number[];
  trials: number;
  pollMs: number;
  timeoutMs: number;
  adminPassword: string;
  log: (line: string) => void;
};

/** A trial that never went live counts as the slowest: the median still exists if most did. */
const medianOrNull = (xs: (number | null)[]) => {
  const m = median(xs.map((x) => x ?? Infinity));
  return Number.isFinite(m) ? m : null;
};
const maxOrNull = (xs: (number | null)[]) =>
  xs.length === 0 || xs.some((x) => x === null) ? null : Math.max(...(xs as number[]));
const s1 = (v: number | null | undefined) => (v == null ? '—' : `${v.toFixed(1)} s`);

/** The lowest and highest active cabin ids (the public list's first and last pages). */
async function cabinIds(base: string): Promise<{ first: number; last: number }> {
  const list = async (page: number) => {
    const res = await fetch(`${base}/api/cabins?page=${page}`);
    if (!res.ok) throw new Error(`GET /api/cabins?page=${page} answered ${res.status}`);
    return {
      ids: ((await res.json()) as { id: number }[]).map((c) => c.id),
      total: Number(res.headers.get('x-total-count')),
    };
  };
  const one = await list(1);
  if (one.ids.length < 2) throw new Error('fewer than 2 active cabins');
  const lastPage = Math.max(1, Math.ceil(one.total / one.ids.length));
  const last = lastPage === 1 ? one : await list(lastPage);
  return { first: Math.min(...one.ids), last: Math.max(...last.ids) };
}

async function series(
  base: string,
  cookie: string,
  served: Served,
  describe: string,
  saveOf: (trial: number) => SaveToLive,
  opts: EditsOptions,
): Promise<EditSeries> {
  const trials: SaveToLiveTrial[] = [];
  let pages: string[] = [];
  for (let i = 1; i <= opts.trials; i++) {
    await served.waitIdle();
    const save = saveOf(i);
    pages = save.pages;
    const trial = await saveToLive(base, cookie, save, { pollMs: opts.pollMs, timeoutMs: opts.timeoutMs });
    trials.push(trial);
    opts.log(
      `  ${describe} ${i}/${opts.trials}: live on ${save.pages.join(', ')} after ${s1(trial.seconds)} (rebuilt after ${s1(trial.rebuiltSeconds)})${trial.note ? `: ${trial.note}` : ''}`,
    );
  }
  const live = trials.map((t) => t.seconds);
  const rebuilt = trials.map((t) => t.rebuiltSeconds);
  return {
    save: describe,
    pages,
    trials,
    medianS: medianOrNull(live),
    maxS: maxOrNull(live),
    medianRebuiltS: medianOrNull(rebuilt),
    maxRebuiltS: maxOrNull(rebuilt),
  };
}

/**
 * At each size: grow the catalogue, rebuild once (not counted) and idle, then `trials`
 * one-cabin edits (a new price per night on the first cabin, polled on its page) and `trials`
 * site-wide edits (a new phone in the settings, which the header of every page shows, polled on
 * /contacts and the last cabin's page). Each point is pushed as soon as it is measured, so a later
 * size's failure keeps the earlier ones.
 */
export async function measureEdits(served: Served, opts: EditsOptions, points: EditsPoint[]): Promise<void> {
  const base = served.url;
  for (const [sizeIndex, size] of opts.sizes.entries()) {
    opts.log(
      `Edits: ${size} active cabins: grow, rebuild once, then ${opts.trials} one-cabin and ${opts.trials} site-wide edits…`,
    );
    const { active, total } = await served.growCabins(size);
    await served.waitIdle();
    const started = performance.now();
    await served.rebuild();
    const fullBuildS = (performance.now() - started) / 1000;
    const { state, error } = await served.builderState();
    if (state === 'failed') throw new Error(`Site build failed at ${active} cabins: ${error?.split('\n')[0]}`);
    await served.waitIdle();
    opts.log(`  rebuild after growing ${s1(fullBuildS)} (${active} active cabins)`);
    const { first, last } = await cabinIds(base);
    const cookie = await adminLogin(base, opts.adminPassword);
    // Prices and phones no page held before (saveToLive checks): each size and trial its own.
    const price = (trial: number) => 31_000 + sizeIndex * 100 + trial;
    const cabin = await series(
      base,
      cookie,
      served,
      `PUT /api/cabins/${first} { pricePerNight }`,
      (trial) => ({
        path: `/cabins/${first}`,
        body: { pricePerNight: price(trial) },
        pages: [`/cabin/${first}`],
        // The price as the cabin page prints it («31 001 ₽», no-break spaces).
        shows: formatPrice(price(trial)),
      }),
      opts,
    );
    const phone = (trial: number) =>
      `+7 (901) 000-${String(sizeIndex).padStart(2, '0')}-${String(trial).padStart(2, '0')}`;
    const siteWide = await series(
      base,
      cookie,
      served,
      'PUT /api/settings { phone }',
      (trial) => ({
        path: '/settings',
        body: { phone: phone(trial) },
        pages: ['/contacts', `/cabin/${last}`],
        shows: phone(trial),
      }),
      opts,
    );
    points.push({ targetActive: size, activeCabins: active, totalCabins: total, fullBuildS, cabin, siteWide });
    opts.log(
      `  ${active} cabins: one-cabin edit median ${s1(cabin.medianS)} (max ${s1(cabin.maxS)}), site-wide median ${s1(siteWide.medianS)} (max ${s1(siteWide.maxS)}); rebuild after growing ${s1(fullBuildS)}`,
    );
  }
}
