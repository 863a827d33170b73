import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { serialLatency, type SerialLatency } from './latency.ts';
import { loadTest, type LoadResult } from './load.ts';
import type { Served } from './targets.ts';
import { GZIP_LEVEL } from './weight.ts';
import { adminLogin } from './edit-to-live.ts';
import { addDays, todayInMoscow } from '../schema/dates.ts';

export type ScalePoint = {
  targetActive: number;
  activeCabins: number;
  totalCabins: number;
  /** Wall time of one full site rebuild (the rebuild service's build into the served directory). */
  buildS: number;
  htmlPages: number;
  apiCabinsBytes: number;
  apiCabinsGzip: number;
  /** GET /api/cabins one request at a time: the slope without queueing. */
  serial: SerialLatency;
  load: LoadResult;
  /**
   * GET /api/search (3 nights a month ahead, 2 guests): alone, each request for other dates (a
   * search made anew, never a kept answer), and under the same load (one search asked by all).
   */
  search?: { results: number; others: number; serial: SerialLatency; load: LoadResult };
  /** The owner's GET /api/admin/occupancy (31 days), alone: one owner, never a crowd. */
  occupancy?: { serial: SerialLatency };
};

/** A stay a month ahead in Moscow time (`later` days more): what a visitor would search for. */
export const searchPath = (later = 0): string => {
  const checkIn = addDays(todayInMoscow(), 30 + later);
  return `/api/search?checkIn=${checkIn}&checkOut=${addDays(checkIn, 3)}&guests=2`;
};

/**
 * One point of the growth curve: grow the catalogue to `targetActive` active cabins, rebuild the
 * whole site and time it, then load GET /api/cabins.
 */
export async function measureScalePoint(
  served: Served,
  targetActive: number,
  load: { connections: number; durationS: number; warmupS: number },
  adminPassword?: string,
): Promise<ScalePoint> {
  const { active, total } = await served.growCabins(targetActive);
  await served.waitIdle();
  const started = performance.now();
  await served.rebuild();
  const buildS = (performance.now() - started) / 1000;
  const { state, error } = await served.builderState();
  if (state === 'failed') throw new Error(`Site build failed at ${active} cabins: ${error?.split('\n')[0]}`);
  const body = new Uint8Array(
    await (await fetch(`${served.url}/api/cabins`, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer(),
  );
  return {
    targetActive,
    activeCabins: active,
    totalCabins: total,
    buildS,
    htmlPages: await countHtml(served.siteDir),
    apiCabinsBytes: body.length,
    apiCabinsGzip: gzipSync(body, { level: GZIP_LEVEL }).length,
    serial: await serialLatency(`${served.url}/api/cabins`),
    load: await loadTest(`${served.url}/api/cabins`, load),
    search: await measureSearch(served.url, load),
    occupancy: adminPassword
      ? {
          serial: await serialLatency(`${served.url}/api/admin/occupancy?days=31`, undefined, {
            cookie: await adminLogin(served.url, adminPassword),
          }),
        }
      : undefined,
  };
}

async function measureSearch(
  base: string,
  load: { connections: number; durationS: number; warmupS: number },
): Promise<ScalePoint['search']> {
  const url = `${base}${searchPath()}`;
  const answer = (await (await fetch(url)).json()) as { results: unknown[]; others: unknown[] };
  return {
    results: answer.results.length,
    others: answer.others.length,
    serial: await serialLatency((i) => `${base}${searchPath(i + 1)}`),
    load: await loadTest(url, load),
  };
}

async function countHtml(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true });
  return entries.filter((f) => path.extname(f) === '.html').length;
}
