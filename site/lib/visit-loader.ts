/**
 * The line every public page carries to count its view: after the page's load, the counting
 * module (site/islands/visit-count.ts) from the address in the script's data-module (not data-src: scripts/lib/page-csp.ts takes a script with a src= for a file), written in by
 * the build. No address (a build without the module) loads nothing.
 */
export const VISIT_COUNT_LOADER = `{const u=document.currentScript.dataset.module;u.startsWith('/_astro/')&&addEventListener('load',()=>import(u))}`;
