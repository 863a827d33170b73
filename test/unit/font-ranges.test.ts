import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MANROPE_SUBSETS, unicodeRange } from '../../site/styles/font-ranges.ts';
import { svgDataUri } from '../../site/lib/svg-data-uri.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('the Manrope files the site ships', () => {
  it('should declare in base.css exactly the characters each cut file holds, and preload the same files', async () => {
    const css = await readFile(path.join(ROOT, 'site/styles/base.css'), 'utf8');
    const faces = [...css.matchAll(/@font-face\s*{[^}]*font-family: Manrope;[^}]*}/g)].map((m) => m[0]);
    expect(faces).toHaveLength(MANROPE_SUBSETS.length);
    for (const subset of MANROPE_SUBSETS) {
      const face = faces.find((f) => f.includes(`fonts/${subset.file}`));
      expect(face, subset.file).toBeDefined();
      expect(/unicode-range: ([^;]+);/.exec(face!)?.[1]?.replace(/\s+/g, ' ')).toBe(unicodeRange(subset.ranges));
    }
    // Every page's head (public pages and the admin shell) takes its preloads from HeadAssets.
    const head = await readFile(path.join(ROOT, 'site/components/HeadAssets.astro'), 'utf8');
    for (const subset of MANROPE_SUBSETS) expect(head).toContain(`assets/fonts/${subset.file}?url`);
    for (const page of ['site/layouts/Base.astro', 'site/pages/shell/admin.astro']) {
      expect(await readFile(path.join(ROOT, page), 'utf8'), page).toContain('<HeadAssets />');
    }
  });

  // A file arrives in the first round trip of its connection when it fits in TCP's first 10
  // segments (14.6 KB) with its response headers: one file more than that costs a whole round
  // trip (150 ms on slow 4G) before the first screen is final.
  it('should ship each file cut small: under 12 KB, 27 KB together', async () => {
    let total = 0;
    for (const subset of MANROPE_SUBSETS) {
      const { size } = await stat(path.join(ROOT, 'site/assets/fonts', subset.file));
      expect(size, subset.file).toBeLessThan(12 * 1024);
      total += size;
    }
    expect(total).toBeLessThan(27 * 1024);
  });
});

describe('the favicon written into every page', () => {
  it('should be the favicon file itself, as a data: URL that needs no request', async () => {
    const svg = await readFile(path.join(ROOT, 'site/public/favicon.svg'), 'utf8');
    const uri = svgDataUri(svg);
    // No character that would end the attribute or the URL (colours are #0b5f6e): all escaped.
    expect(uri).not.toMatch(/["#<>]/);
    expect(decodeURIComponent(uri.slice('data:image/svg+xml,'.length))).toBe(
      svg.trim().replace(/\s+/g, ' ').replaceAll('"', "'"),
    );
  });
});
