// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';

// Pages are pre-rendered from the API at build time. API_URL is where the build reads it
// (locally the `npm start` worker); SITE_URL is the public address used in canonical links.
const apiUrl = new URL(process.env.API_URL ?? 'http://127.0.0.1:8787');
const siteUrl = process.env.SITE_URL ?? apiUrl.origin;

/**
 * zod tries `new Function('')` once to learn whether it may compile its parsers. Under the pages'
 * CSP (no 'unsafe-eval') that try is a reported violation: Chrome's Issues panel lists it and
 * Lighthouse takes points for it. In the browser's bundles zod starts jitless instead; the
 * server keeps its compiled parsers.
 */
const zodJitlessInBrowser = {
  name: 'zod-jitless-in-browser',
  /** @param {string} code @param {string} id @param {{ ssr?: boolean } | undefined} options */
  transform(code, id, options) {
    if (options?.ssr || !/[\\/]zod[\\/]v4[\\/]core[\\/]core\.js$/.test(id)) return null;
    const from = '(_a.__zod_globalConfig = {})';
    if (!code.includes(from))
      throw new Error(`zod's core changed: ${from} is gone (astro.config.mjs zodJitlessInBrowser)`);
    return code.replace(from, '(_a.__zod_globalConfig = { jitless: true })');
  },
};

/** sharp's AVIF effort for the build's photos (0–9): 3, or SITE_AVIF_EFFORT when it names one. */
function avifEffort() {
  const given = Number(process.env.SITE_AVIF_EFFORT);
  return process.env.SITE_AVIF_EFFORT && Number.isInteger(given) && given >= 0 && given <= 9 ? given : 3;
}

export default defineConfig({
  site: siteUrl,
  srcDir: './site',
  publicDir: './site/public',
  outDir: process.env.SITE_OUT_DIR ?? './dist',
  // One per site being built (astroCacheDir in scripts/build-site.ts): builds running at once never share one.
  cacheDir: process.env.SITE_CACHE_DIR ?? './node_modules/.astro',
  output: 'static',
  trailingSlash: 'never',
  // 'file' makes /cabins serve cabins.html without a trailing-slash redirect.
  build: { format: 'file', inlineStylesheets: 'always' },
  integrations: [react()],
  image: {
    // Cabin and gallery photos live in R2 behind the worker's /media/; the build optimises them.
    remotePatterns: [
      { protocol: apiUrl.protocol.replace(':', ''), hostname: apiUrl.hostname, port: apiUrl.port || undefined },
    ],
    // sharp's default AVIF effort (4) takes ~5 s per 1440 px photo here; effort 3 takes under
    // 1 s for files ~15% larger. A new cabin's photos must go live in seconds, not minutes.
    // SITE_AVIF_EFFORT overrides it for the sites the tests build (vitest.config.ts).
    service: { entrypoint: './site/components/image-service.ts', config: { avif: { effort: avifEffort() } } },
  },
  devToolbar: { enabled: false },
  // Vite gzips every chunk only to print its size: work an owner's edit waits for, for nobody.
  vite: { build: { reportCompressedSize: false }, plugins: [zodJitlessInBrowser] },
  // Each page carries a CSP <meta> with the hashes of exactly the scripts and styles it uses.
  // frame-ancestors cannot live in a <meta>: site/public/_headers sends it as a header.
  security: {
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        // frame-src (the map hosts) only where a map is: the contacts page adds it (every other
        // page's first 14 KB carries one directive fewer).
      ],
      // Style attributes cannot run code; <style> and <script> elements still need their hash.
      styleDirective: { resources: ["'self'", { resource: "'unsafe-inline'", kind: 'attribute' }] },
    },
  },
});
