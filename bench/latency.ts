import { percentile } from './stats.ts';

export type SerialLatency = { requests: number; p50: number; p95: number; max: number };

/**
 * Latency with no concurrency: one request at a time, at most `count` of them or until
 * `budgetMs` has passed (at least `min`), each body read to the end.
 */
export async function serialLatency(url: string, opts = { count: 20, min: 3, budgetMs: 10_000 }, headers: Record<string, string> = {}): Promise<SerialLatency> {
  const times: number[] = [];
  const started = performance.now();
  while (times.length < opts.count && (times.length < opts.min || performance.now() - started < opts.budgetMs)) {
    const t = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
    times.push(performance.now() - t);
  }
  return { requests: times.length, p50: percentile(times, 50), p95: percentile(times, 95), max: Math.max(...times) };
}
