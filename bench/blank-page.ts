import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startCaddy } from './caddy.ts';
import { lighthousePage, type LighthousePage } from './lighthouse.ts';
import { median } from './stats.ts';

/**
 * The page loads' control: a page with nothing in it (a heading and a line of text, 0.3 KB),
 * loaded by Lighthouse through the target's own serving path and through Caddy's file_server,
 * in the same run. What the blank page loses against Caddy is what the local serving path
 * itself costs every page: under `wrangler dev` (its proxy, then workerd's asset worker, then
 * the edge stand-in) a blank page reaches its first paint ~40 ms later than from Caddy, which
 * Cloudflare's edge does not add in production. bench/budgets.ts allows a Workers page that much.
 */
const BLANK_PAGE = 'bench-blank.html';
/** Its clean address, as the site's pages are loaded (wrangler dev redirects the .html one). */
const BLANK_PATH = '/bench-blank';
const BLANK_HTML =
  '<!DOCTYPE html><html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Пустая страница</title><meta name="description" content="Контрольная страница замера."></head><body><h1>Пустая страница</h1><p>Контрольная страница замера: ни стилей, ни скриптов, ни картинок.</p></body></html>';

export type BlankControl = {
  runs: number;
  /** Median LCP and FCP of the blank page through the target's serving path, and from Caddy. */
  ours: { lcpMs: number; fcpMs: number };
  caddy: { lcpMs: number; fcpMs: number };
};

/**
 * Writes the blank page into the directory the target serves (`siteDir`, the bench's own copy),
 * loads it `runs` times through `base` (the edge stand-in where there is one) and `runs` times
 * from Caddy serving a directory of its own, in turn, and removes it again.
 */
export async function measureBlankControl(
  siteDir: string,
  base: string,
  caddyPort: number,
  runs: number,
  log: (s: string) => void,
): Promise<BlankControl> {
  const file = path.join(siteDir, BLANK_PAGE);
  const caddyDir = await mkdtemp(path.join(os.tmpdir(), 'bench-blank-'));
  try {
    await writeFile(file, BLANK_HTML);
    // Caddy's start waits for its / to answer.
    for (const name of [BLANK_PAGE, 'index.html']) await writeFile(path.join(caddyDir, name), BLANK_HTML);
    const url = `${base}${BLANK_PATH}`;
    // wrangler dev notices a new file in its assets directory within a moment.
    for (
      let i = 0;
      (await fetch(url).then(
        (r) => r.status,
        () => 0,
      )) !== 200;
      i++
    ) {
      if (i >= 50) throw new Error(`${url} was not served within 10 s`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const caddy = await startCaddy(caddyDir, caddyPort);
    try {
      // One load each in turn, so that both see the machine as it is at that moment.
      log(`Lighthouse blank page, ours and Caddy's in turn (${runs} runs each)…`);
      const ours: LighthousePage[] = [];
      const peer: LighthousePage[] = [];
      for (let i = 0; i < runs; i++) {
        ours.push(await lighthousePage(url, 1, log));
        peer.push(await lighthousePage(`${caddy.url}${BLANK_PATH}`, 1, log));
      }
      const medians = (runs: LighthousePage[]) => ({
        lcpMs: median(runs.map((r) => r.lcpMs)),
        fcpMs: median(runs.map((r) => r.fcpMs)),
      });
      return { runs, ours: medians(ours), caddy: medians(peer) };
    } finally {
      await caddy.stop();
    }
  } finally {
    await unlink(file).catch(() => {});
    await rm(caddyDir, { recursive: true, force: true });
  }
}
