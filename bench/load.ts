import { spawn } from 'node:child_process';
import path from 'node:path';
import { quietEnv } from '../scripts/lib/tools.ts';

export type LoadResult = {
  url: string;
  connections: number;
  durationS: number;
  /** The offered rate in requests a second (autocannon's overallRate), or null: as fast as it answers. */
  rate: number | null;
  requests: number;
  rps: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  bytesPerResponse: number;
  /** Null when no 2xx response completed within the run. */
  p50: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
};

export type LoadOptions = {
  connections: number;
  durationS: number;
  warmupS: number;
  rate?: number;
  headers?: Record<string, string>;
};

/**
 * Loads one URL with autocannon from a separate Node process (load-worker.ts), so the load
 * generator never shares an event loop with the server or this script.
 */
export function loadTest(url: string, opts: LoadOptions): Promise<LoadResult> {
  return loadInTurns([url], opts, 1).then((results) => results[0]!);
}

/**
 * Loads several URLs for `opts.durationS` each, in `turns` turns: each URL takes a slice of
 * durationS / turns in turn, after its own warm-up, and each one's latencies are ranked together
 * (load-worker.ts). A route and the server it is compared with so meet the same moments of the
 * machine. Run one after the other, the two runs met different stretches of it, and their ratio
 * moved by ±0.3× from one bench to the next on the same code (bench/speed-changes.md).
 */
export function loadInTurns(urls: string[], opts: LoadOptions, turns: number): Promise<LoadResult[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(import.meta.dirname, 'load-worker.ts'), JSON.stringify({ urls, turns, ...opts })],
      {
        env: quietEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code === 0 && line.startsWith('[')) resolve(JSON.parse(line) as LoadResult[]);
      else reject(new Error(`load generator exited ${code}: ${err.slice(-2000)}`));
    });
  });
}
