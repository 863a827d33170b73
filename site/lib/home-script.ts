// The home page's script (site/islands/home.ts: the header over the hero and the gallery's
// rotation), bundled with the modules it imports and written into the page after the gallery.
// index.astro passes the hash to Astro.csp.insertScriptHash in its frontmatter.
import { bundledScript, type InlineScript } from './inline-script.ts';

export const homeScript = (): Promise<InlineScript> => bundledScript('site/islands/home.ts');
