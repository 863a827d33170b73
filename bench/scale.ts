import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { growCabins } from './cabins.ts';
import { serialLatency, type SerialLatency } from './latency.ts';
import { loadTest, type LoadResult } from './load.ts';
import { GZIP_LEVEL } from './weight.ts';

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
};

type Stack = { url: string; rebuildUrl: string; rebuild: () => Promise<void> };

/** Waits until the rebuild service has nothing running or queued. */
export async function waitForIdleBuilder(rebuildUrl: string, timeoutMs = 15 * 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { state } = (await fetch(rebuildUrl).then((r) => r.json())) as { state: string };
    if (state !== 'building') return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('The rebuild service stayed busy');
}

/**
 * One point of the growth curve: grow the catalogue to `targetActive` active cabins, rebuild the
 * whole site and time it, then load GET /api/cabins.
 */
export async function measureScalePoint(
  stack: Stack,
  persistTo: string,
  assetsDir: string,
  targetActive: number,
  load: { connections: number; durationS: number; warmupS: number },
): Promise<ScalePoint> {
  const { active, total } = await growCabins(persistTo, targetActive);
  await waitForIdleBuilder(stack.rebuildUrl);
  const started = performance.now();
  await stack.rebuild();
  const buildS = (performance.now() - started) / 1000;
  const { state, error } = (await fetch(stack.rebuildUrl).then((r) => r.json())) as { state: string; error: string | null };
  if (state === 'failed') throw new Error(`Site build failed at ${active} cabins: ${error?.split('\n')[0]}`);
  const body = new Uint8Array(await (await fetch(`${stack.url}/api/cabins`)).arrayBuffer());
  return {
    targetActive,
    activeCabins: active,
    totalCabins: total,
    buildS,
    htmlPages: await countHtml(assetsDir),
    apiCabinsBytes: body.length,
    apiCabinsGzip: gzipSync(body, { level: GZIP_LEVEL }).length,
    serial: await serialLatency(`${stack.url}/api/cabins`),
    load: await loadTest(`${stack.url}/api/cabins`, load),
  };
}

async function countHtml(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true });
  return entries.filter((f) => path.extname(f) === '.html').length;
}
