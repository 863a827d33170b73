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

/**
 * Loads one URL with autocannon from a separate Node process (load-worker.ts), so the load
 * generator never shares an event loop with the server or this script.
 */
export type LoadOptions = { connections: number; durationS: number; warmupS: number; rate?: number; headers?: Record<string, string> };

export function loadTest(url: string, opts: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(import.meta.dirname, 'load-worker.ts'), JSON.stringify({ url, ...opts })], {
      env: quietEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code === 0 && line.startsWith('{')) resolve(JSON.parse(line) as LoadResult);
      else reject(new Error(`load generator exited ${code}: ${err.slice(-2000)}`));
    });
  });
}
