import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { STALE_GRACE_MS } from '../build-site.ts';

/** How long a build waits for `wrangler dev` to list its new files before it goes live anyway. */
const SERVED_TIMEOUT_MS = 15_000;

/**
 * For `buildSite`'s beforeVersion under `wrangler dev`: resolves once wrangler serves every file
 * now in the directory.
 *
 * wrangler dev serves the paths of its asset manifest, a listing of the directory made at start
 * and again after each change, and reads a listed file from disk at each request. So a page new
 * in this build answers 404 until the rescan, while build.json, listed since the first build,
 * says the new version the moment it is written: the panel's «Сайт обновлён» (and the tests'
 * waitPublished) came before the new cabin's page. A file of a new name, put at the top of the
 * directory after the pages, is served only by a manifest listed after it was made, and Node
 * lists the top of a directory before what is below it, so that manifest has every page.
 */
export function untilServedBy(siteUrl: string, timeoutMs = SERVED_TIMEOUT_MS) {
  // Check files not yet known to be listed: removing one while wrangler may still be listing the
  // directory stops its watcher (ENOENT), and the local site is down until it is started again.
  const unlisted: string[] = [];
  return async (dir: string): Promise<void> => {
    const name = `served-${randomUUID()}.txt`;
    const token = randomUUID();
    const file = path.join(dir, name);
    await writeFile(file, token);
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      // The timeout covers the body too: a body wrangler stops sending is a try that failed, not
      // an error out of the build.
      const body = await fetch(new URL(`/${name}`, siteUrl), { signal: AbortSignal.timeout(2_000) })
        .then((res) => (res.ok ? res.text() : ''))
        .catch(() => '');
      if (body === token) {
        // The listing that has this file is done, and it had the older ones too: they all go, a
        // moment later (not at once, as the stale pages: another listing may have begun).
        const done = [...unlisted.splice(0), file];
        setTimeout(() => void Promise.all(done.map((f) => rm(f, { force: true }))), STALE_GRACE_MS).unref();
        return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    // wrangler is slow (a busy machine), down or restarting: the build goes live anyway, as it did
    // before this check, and its file stays until a later build's file is served.
    unlisted.push(file);
    console.error(
      `[build] wrangler dev did not serve the new files within ${timeoutMs / 1000} s; the site goes live without waiting.`,
    );
  };
}
