import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

// The cleaner's page's script (site/admin/cleaner/page.ts) bundled alone, minified as the build
// minifies it: a quick guard of the page's 30 KB of script between journeys. The page as the build
// really serves it, every script it loads, is held to the same bound by
// test/e2e/panel/cleaner.journey.ts (docs/features.md).
describe('the cleaner’s page’s script', () => {
  it('should bundle to at most 30 KB, gzipped and not, with nothing of the panel’s React', async () => {
    const out = await build({
      entryPoints: ['site/admin/cleaner/page.ts'],
      bundle: true,
      minify: true,
      format: 'esm',
      target: 'es2022',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const code = out.outputFiles[0]!.contents;
    const inputs = Object.keys(out.metafile.inputs);
    expect(inputs.filter((p) => /node_modules\/(react|react-dom|zod|hono)\//.test(p))).toEqual([]);
    expect(code.byteLength).toBeLessThanOrEqual(30 * 1024);
    expect(gzipSync(code).length).toBeLessThanOrEqual(30 * 1024);
  });
});
