import path from 'node:path';
import { ROOT } from './tools.ts';

export type LocalBindings = { DB: D1Database; MEDIA: R2Bucket };

/**
 * Runs `use` with the local D1 and R2 that `wrangler dev --persist-to <persistTo>` uses
 * (default .wrangler/state), then lets them go.
 */
export async function withLocalBindings<T>(
  persistTo: string | undefined,
  use: (env: LocalBindings) => Promise<T>,
): Promise<T> {
  // Loaded only here: a self-hosted backup on a VPS (every night) never needs wrangler.
  const { getPlatformProxy } = await import('wrangler');
  const proxy = await getPlatformProxy<LocalBindings>({
    configPath: path.join(ROOT, 'wrangler.toml'),
    persist: { path: path.join(path.resolve(ROOT, persistTo ?? '.wrangler/state'), 'v3') },
    remoteBindings: false,
  });
  try {
    return await use(proxy.env);
  } finally {
    await proxy.dispose();
  }
}

/** The value after `--name` on the command line. */
export function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
