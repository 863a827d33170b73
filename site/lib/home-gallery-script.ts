// The home gallery's rotation (site/islands/home-gallery.ts), bundled with the two modules it
// imports and written into the home page. index.astro passes the hash to Astro.csp.insertScriptHash
// in its frontmatter (the CSP <meta> is written before HomeGallery renders).
import { bundledScript, type InlineScript } from './inline-script.ts';

export const homeGalleryScript = (): Promise<InlineScript> => bundledScript('site/islands/home-gallery.ts');
