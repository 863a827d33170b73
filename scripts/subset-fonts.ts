// Writes the site's three Manrope files (site/assets/fonts/) from @fontsource-variable/manrope,
// cut to what the site's texts use: Russian letters, the ASCII range, the typographic marks of
// Russian text, and weights 400–800 (the variable axis narrowed to what the styles ask for).
// A glyph outside them (é, ₽, ї) comes from the metric-matched fallback, as ₽ always has.
// Run it again after changing the ranges: `node scripts/subset-fonts.ts`. The files are committed.
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import subsetFont from 'subset-font';
import { ROOT } from './lib/tools.ts';
import { MANROPE_SUBSETS } from '../site/styles/font-ranges.ts';

const from = path.join(ROOT, 'node_modules/@fontsource-variable/manrope/files');
const to = path.join(ROOT, 'site/assets/fonts');
await mkdir(to, { recursive: true });
for (const subset of MANROPE_SUBSETS) {
  const source = await readFile(path.join(from, subset.source));
  const text = subset.ranges
    .flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => String.fromCodePoint(a + i)))
    .join('');
  const out = await subsetFont(source, text, {
    targetFormat: 'woff2',
    variationAxes: { wght: { min: 400, max: 800 } },
  });
  await writeFile(path.join(to, subset.file), out);
  console.log(`${subset.file}: ${source.length} → ${out.length} bytes`);
}
