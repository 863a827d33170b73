// Code written into the page itself instead of a script file: as a file, a script is one more
// request (and a chain when it imports) that Lighthouse's slow-4G model counts before the first
// paint. Compiled from site/islands/ once per build; the page (or a head component) passes the
// hash to Astro.csp.insertScriptHash, since every page's CSP lists the hash of each inline script.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { build, transform } from 'esbuild';
import { oncePerKey } from './once-per-key.ts';

export type InlineScript = { code: string; hash: `sha256-${string}` };

/** Each script is compiled once per build, not once per page that carries it (thousands of pages at 1,500 cabins). */
const once = oncePerKey();

/** The CSP hash of an inline script's or style's text, as Astro.csp.insertScriptHash / insertStyleHash take it. */
export const cspHash = (text: string): `sha256-${string}` =>
  `sha256-${createHash('sha256').update(text).digest('base64')}`;

const withHash = (code: string): InlineScript => ({ code, hash: cspHash(code) });

/** `source` (a module's text, from a `?raw` import) as an IIFE that leaves its exports on `globalName`. */
export function compileInline(source: string, globalName: string): Promise<string> {
  return once(`global:${globalName}`, () =>
    transform(source, { loader: 'ts', format: 'iife', globalName, minify: true, target: 'es2020' }).then((r) =>
      r.code.trim(),
    ),
  );
}

/**
 * A script that runs by itself (no exports, so none of esbuild's export wrapper), with the
 * build's values written in through esbuild's `define` (name → JSON).
 */
export function selfRunningScript(source: string, define: Record<string, string> = {}): Promise<InlineScript> {
  return once(`self:${source}\0${JSON.stringify(define)}`, () =>
    transform(source, { loader: 'ts', format: 'iife', minify: true, target: 'es2020', define }).then((r) =>
      withHash(r.code.trim()),
    ),
  );
}

/**
 * A self-running module of the project that imports others (`entry`, e.g.
 * 'site/islands/home-gallery.ts'), bundled with them: a `?raw` import cannot carry its imports,
 * and the build always runs in the project's folder (scripts/lib/tools.ts, warm-astro.ts).
 */
export function bundledScript(entry: string): Promise<InlineScript> {
  return once(`bundle:${entry}`, () => {
    const file = path.resolve(entry);
    if (!existsSync(file)) throw new Error(`${file} not found: the site is built from the project's folder`);
    return build({
      entryPoints: [file],
      bundle: true,
      write: false,
      format: 'iife',
      minify: true,
      target: 'es2020',
    }).then((r) => withHash(r.outputFiles[0]!.text.trim().replace(/^"use strict";/, '')));
  });
}

/** Compiled code followed by `calls`, in a scope of its own, with its CSP hash. */
export async function inlineScript(compiledCode: string | Promise<string>, calls: string): Promise<InlineScript> {
  return withHash(`(()=>{${await compiledCode}${calls}})();`);
}
