import { cp, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT, quietEnv, run } from './lib/tools.ts';

export type BuildOptions = {
  /** Where the build reads content: a running worker. */
  apiUrl: string;
  /** The directory the worker serves; replaced only after a successful build. */
  outDir: string;
  /** The public address for canonical links (defaults to apiUrl). */
  siteUrl?: string;
  quiet?: boolean;
};

/**
 * Builds the site into a staging directory and, only if that succeeds, makes outDir match it.
 * A failed build leaves the live site as it was.
 */
export async function buildSite(opts: BuildOptions): Promise<{ contentVersion: number; ms: number }> {
  const started = Date.now();
  // The version is read before any content, so a write during the build shows as "not yet live".
  const info = await readBuildInfo(opts.apiUrl);
  const staging = path.join(ROOT, 'node_modules/.cache/site-staging', path.basename(opts.outDir));
  await rm(staging, { recursive: true, force: true });
  await run('astro', ['build'], {
    quiet: opts.quiet,
    env: quietEnv({
      API_URL: opts.apiUrl,
      SITE_URL: opts.siteUrl ?? opts.apiUrl,
      SITE_OUT_DIR: staging,
      BUILD_CONTENT_VERSION: String(info.contentVersion),
    }),
  });
  await writeFile(
    path.join(staging, 'build.json'),
    JSON.stringify({ contentVersion: info.contentVersion, builtAt: new Date().toISOString() }),
  );
  await syncDir(staging, opts.outDir);
  return { contentVersion: info.contentVersion, ms: Date.now() - started };
}

/** The content version, or a rejection (before Astro starts) when the API cannot give it. */
async function readBuildInfo(apiUrl: string): Promise<{ contentVersion: number }> {
  const res = await fetch(new URL('/api/build-info', apiUrl));
  if (!res.ok) throw new Error(`API Error: ${res.status} ${res.statusText} (build info)`);
  const info = (await res.json()) as { contentVersion?: unknown };
  if (!Number.isInteger(info.contentVersion)) throw new Error('API Error: no content version in the build info');
  return info as { contentVersion: number };
}

/** Copies new and changed files over, then removes files that are gone: the live dir never disappears. */
async function syncDir(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  await cp(from, to, { recursive: true, force: true });
  const keep = new Set(await listFiles(from));
  for (const file of await listFiles(to)) {
    if (!keep.has(file)) await rm(path.join(to, file), { force: true });
  }
}

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(dir, rel)));
    else out.push(rel);
  }
  return out;
}

export async function hasBuild(outDir: string): Promise<boolean> {
  return stat(path.join(outDir, 'build.json')).then(() => true, () => false);
}

if (import.meta.main) {
  const apiUrl = process.env.API_URL ?? 'http://127.0.0.1:8787';
  const result = await buildSite({ apiUrl, outDir: path.join(ROOT, 'dist'), siteUrl: process.env.SITE_URL });
  console.log(`Built content version ${result.contentVersion} in ${(result.ms / 1000).toFixed(1)} s`);
}
