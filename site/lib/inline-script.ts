// Code written into the page itself instead of a script file: as a file, a script is one more
// request (and a chain when it imports) that Lighthouse's slow-4G model counts before the first
// paint. Compiled once per build from site/islands/; the page (or a head component) passes the
// hash to Astro.csp.insertScriptHash, since every page's CSP lists the hash of each inline script.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { build, transform } from 'esbuild';

export type InlineScript = { code: string; hash: `sha256-${string}` };

const compiled = new Map<string, Promise<string>>();

/** `source` (a module's text, from a `?raw` import) as an IIFE that leaves its exports on `globalName`. */
export function compileInline(source: string, globalName: string): Promise<string> {
  let out = compiled.get(globalName);
  if (!out) {
    out = transform(source, { loader: 'ts', format: 'iife', globalName, minify: true, target: 'es2020' }).then((r) => r.code.trim());
    compiled.set(globalName, out);
  }
  return out;
}

const withHash = (code: string): InlineScript => ({ code, hash: `sha256-${createHash('sha256').update(code).digest('base64')}` });

/**
 * A script that runs by itself (no exports, so none of esbuild's export wrapper), with the
 * build's values written in through esbuild's `define` (name → JSON).
 */
export async function selfRunningScript(source: string, define: Record<string, string> = {}): Promise<InlineScript> {
  const out = await transform(source, { loader: 'ts', format: 'iife', minify: true, target: 'es2020', define });
  return withHash(out.code.trim());
}

/**
 * A self-running module of the project that imports others (`entry`, e.g.
 * 'site/islands/home-gallery.ts'), bundled with them: a `?raw` import cannot carry its imports,
 * and the build always runs in the project's folder (scripts/lib/tools.ts, warm-astro.ts).
 */
export function bundledScript(entry: string): Promise<InlineScript> {
  let out = bundled.get(entry);
  if (!out) {
    const file = path.resolve(entry);
    if (!existsSync(file)) throw new Error(`${file} not found: the site is built from the project's folder`);
    out = build({ entryPoints: [file], bundle: true, write: false, format: 'iife', minify: true, target: 'es2020' })
      .then((r) => withHash(r.outputFiles[0]!.text.trim().replace(/^"use strict";/, '')));
    bundled.set(entry, out);
  }
  return out;
}
const bundled = new Map<string, Promise<InlineScript>>();

/** Compiled code followed by `calls`, in a scope of its own, with its CSP hash. */
export async function inlineScript(compiledCode: string | Promise<string>, calls: string): Promise<InlineScript> {
  return withHash(`(()=>{${await compiledCode}${calls}})();`);
}
