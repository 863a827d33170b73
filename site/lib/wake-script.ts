// The page's «wake the island on interaction» code (site/islands/wake.ts) for writing into the page
// itself: as a script file it was a chain of two requests (the page's script, then wake.js) that a
// slow phone waited for before its first paint. Compiled once per build. The page passes the hash
// to Astro.csp.insertScriptHash in its own frontmatter: the CSP <meta> is written with the head,
// before any component further down the page runs.
import { compileInline, inlineScript, type InlineScript } from './inline-script.ts';
import source from '../islands/wake.ts?raw';
// The wrapper and the wake dot's rules come with the script, on the pages that use it.
import '../styles/wake.css';

/** Each island to wake: its name, the controls that wake it, and a query parameter that wakes it at once. */
export type Wake = { name: string; targets: string; nowIfParam?: string };

export function wakeScript(wakes: Wake[]): Promise<InlineScript> {
  const calls = wakes
    .map(({ name, targets, nowIfParam }) => {
      const now = nowIfParam ? `,{now:new URLSearchParams(location.search).has(${JSON.stringify(nowIfParam)})}` : '';
      return `kaspiyWake.wakeOnInteraction(${JSON.stringify(name)},${JSON.stringify(targets)}${now});`;
    })
    .join('');
  return inlineScript(compileInline(source, 'kaspiyWake'), calls);
}
