import { percentile } from './stats.ts';

export type SerialLatency = { requests: number; p50: number; p95: number; max: number };

export type SerialOptions = { count: number; min: number; budgetMs: number; warmup: number };

/**
 * Latency with no concurrency: one request at a time, at most `count` of them or until
 * `budgetMs` has passed (at least `min`), each body read to the end, after `warmup` requests
 * that are not counted (the first after a rebuild pays for compiling the code paths anew).
 * `url` may differ per request (the i-th, warm-ups first), so that no two ask the same.
 */
export async function serialLatency(
  url: string | ((i: number) => string),
  opts: SerialOptions = { count: 60, min: 3, budgetMs: 10_000, warmup: 3 },
  headers: Record<string, string> = {},
): Promise<SerialLatency> {
  const urlOf = typeof url === 'string' ? () => url : url;
  for (let i = 0; i < opts.warmup; i++) await (await fetch(urlOf(i), { headers })).arrayBuffer();
  const times: number[] = [];
  const started = performance.now();
  while (times.length < opts.count && (times.length < opts.min || performance.now() - started < opts.budgetMs)) {
    const t = performance.now();
    const res = await fetch(urlOf(opts.warmup + times.length), { headers });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`GET ${res.url} answered ${res.status}`);
    times.push(performance.now() - t);
  }
  return { requests: times.length, p50: percentile(times, 50), p95: percentile(times, 95), max: Math.max(...times) };
}
