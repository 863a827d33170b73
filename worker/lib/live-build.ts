import type { Bindings } from '../env.ts';

/** What the served site says of itself: the build writes build.json last, so its presence means a whole site. */
export type LiveBuild = { contentVersion: number; builtAt: string | null };

/**
 * The live site's build.json, read through the platform's site port (Workers: the assets
 * binding; Node: DATA_DIR/site). null while only the placeholder page is served.
 */
export async function readLiveBuild(env: Pick<Bindings, 'ASSETS'>, requestUrl: string): Promise<LiveBuild | null> {
  try {
    const res = await env.ASSETS.fetch(new URL('/build.json', requestUrl));
    if (!res.ok) return null;
    const info = (await res.json()) as { contentVersion?: unknown; builtAt?: unknown };
    if (!Number.isInteger(info.contentVersion)) return null;
    return {
      contentVersion: info.contentVersion as number,
      builtAt: typeof info.builtAt === 'string' ? info.builtAt : null,
    };
  } catch {
    return null;
  }
}
