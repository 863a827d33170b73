import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'node_modules/.bin');

/** Nothing we run may reach for the network: no metrics, no telemetry, no Cloudflare lookups. */
export const quietEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  PATH: `${BIN}${path.delimiter}${process.env.PATH ?? ''}`,
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  ASTRO_TELEMETRY_DISABLED: '1',
  DO_NOT_TRACK: '1',
  ...extra,
});

/** Runs a project binary (wrangler, astro, …) to completion; rejects with its output on failure. */
export function run(bin: string, args: string[], opts: SpawnOptions & { quiet?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(BIN, bin), args, {
      cwd: ROOT,
      env: quietEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      ...opts,
    });
    const output = collectOutput(child, opts.quiet);
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(output.text())
        : reject(new Error(`${bin} ${args.join(' ')} exited ${code}\n${output.text().slice(-4000)}`)),
    );
  });
}

/** A child's stdout and stderr as one text from now on (also echoed unless quiet), until stop(). */
export function collectOutput(child: ChildProcess, quiet = false): { text: () => string; stop: () => void } {
  let out = '';
  const collect = (chunk: Buffer) => {
    out += chunk;
    if (!quiet) process.stdout.write(chunk);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return {
    text: () => out,
    stop: () => {
      child.stdout?.off('data', collect);
      child.stderr?.off('data', collect);
    },
  };
}

export async function waitFor(url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${url}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}
