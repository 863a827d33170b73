import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MANROPE_SUBSETS, unicodeRange } from '../../site/styles/font-ranges.ts';

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
    const layout = await readFile(path.join(ROOT, 'site/layouts/Base.astro'), 'utf8');
    for (const subset of MANROPE_SUBSETS) expect(layout).toContain(`assets/fonts/${subset.file}?url`);
  });

  it('should ship each file cut small: under 17 KB, 27 KB together', async () => {
    let total = 0;
    for (const subset of MANROPE_SUBSETS) {
      const { size } = await import('node:fs/promises').then((fs) => fs.stat(path.join(ROOT, 'site/assets/fonts', subset.file)));
      expect(size, subset.file).toBeLessThan(17 * 1024);
      total += size;
    }
    expect(total).toBeLessThan(27 * 1024);
  });
});
