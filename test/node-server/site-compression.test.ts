import { mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteCompression } from '../../worker/platform/node/site-compression.ts';

// A build's compressed twins (worker/platform/node/site-compression.ts): past a few files, a build
// that changed many pages (a change every page shows) sends them live with a quick brotli twin and
// brings each to the best quality right after; every twin is its page's bytes all along.

const PAGE = (title: string) =>
  `<!doctype html><html lang="ru"><title>${title}</title><p>${`Домик «${title}» у моря, ${title.length} шагов до пляжа. `.repeat(300)}</p></html>`;
const best = (body: Buffer) =>
  brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'kaspiy-twins-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe('The twins of a build', () => {
  it('should send many changed pages live with quick twins of the same bytes, and make every twin the best one right after', async () => {
    const staging = path.join(tmp, 'staging');
    const live = path.join(tmp, 'site');
    const pages = {
      'index.html': PAGE('Главная'),
      'cabin/1.html': PAGE('Первый'),
      'cabin/2.html': PAGE('Второй'),
      'shell/cards/1.html': PAGE('Карточка'),
    };
    for (const [rel, body] of Object.entries(pages)) {
      await mkdir(path.dirname(path.join(staging, rel)), { recursive: true });
      await writeFile(path.join(staging, rel), body);
    }
    // One best twin before going live, as a build may ask (the server asks none: quick for all).
    const twins = siteCompression({ bestBeforeLive: 1 });
    await twins.beforeLive(staging);
    const brOf = async (dir: string, rel: string) => readFile(path.join(dir, `${rel}.br`));
    for (const [rel, body] of Object.entries(pages)) {
      expect(brotliDecompressSync(await brOf(staging, rel)).toString(), rel).toBe(body);
      expect(gunzipSync(await readFile(path.join(staging, `${rel}.gz`))).toString(), rel).toBe(body);
    }
    // The page made once per site got the best twin at once; the others a quick, larger one.
    expect((await brOf(staging, 'index.html')).equals(best(Buffer.from(pages['index.html'])))).toBe(true);
    for (const rel of ['cabin/1.html', 'cabin/2.html', 'shell/cards/1.html']) {
      expect((await brOf(staging, rel)).length, rel).toBeGreaterThan(
        best(Buffer.from(pages[rel as keyof typeof pages])).length,
      );
    }

    await rename(staging, live);
    twins.afterLive(live);
    await twins.idle();
    for (const [rel, body] of Object.entries(pages))
      expect((await brOf(live, rel)).equals(best(Buffer.from(body))), rel).toBe(true);
    // Its work folder beside the site is gone.
    expect(await readdir(tmp)).toEqual(['site']);
  });
});
