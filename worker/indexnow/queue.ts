// After a publish: which public addresses changed since IndexNow was last told, queued to send.
import type { Bindings } from '../env.ts';
import { queueIndexNow, readIndexNowState, type SentPages } from '../queries/indexnow.ts';
import { ensureIndexNowKey, indexNowSite, livePages } from './site.ts';

/** A digest of the site's address and every page's digest, in the order of the addresses. */
async function manifestOf(sent: SentPages): Promise<string> {
  const lines = Object.keys(sent.pages)
    .sort()
    .map((p) => `${p}\t${sent.pages[p]}`);
  const bytes = new TextEncoder().encode(`${sent.origin}\n${lines.join('\n')}`);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return [...digest.subarray(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Compares the live site's pages (/site-pages.json, which every build writes) with the ones last
 * queued and, when they differ, queues the new, changed and removed addresses (absolute, on
 * SITE_URL) and keeps the new digests, in one batch. The first time IndexNow is on here (or on a
 * new address), every page is new. Nothing is read or queued while IndexNow is off.
 * Answers how many addresses this run queued (0 when nothing changed or another run queued them).
 */
export async function queueChangedPages(env: Bindings): Promise<number> {
  const site = indexNowSite(env);
  if (!site.on) return 0;
  const live = await livePages(env, site.origin);
  if (!live) return 0;
  const next: SentPages = { origin: site.origin, pages: live.pages };
  const manifest = await manifestOf(next);
  const state = await readIndexNowState(env);
  if (state?.manifest === manifest) return 0;
  // The key file must be served before a search engine is asked to check it.
  await ensureIndexNowKey(env);
  const before = state && state.pages.origin === site.origin ? state.pages.pages : {};
  const paths = [
    ...Object.keys(live.pages).filter((p) => before[p] !== live.pages[p]),
    ...Object.keys(before).filter((p) => !(p in live.pages)),
  ].sort();
  const urls = paths.map((p) => new URL(p, site.origin).href);
  const won = await queueIndexNow(env, state?.manifest ?? null, { manifest, pages: next }, urls);
  return won ? urls.length : 0;
}
