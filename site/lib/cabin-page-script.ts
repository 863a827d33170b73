// The cabin page's script (site/islands/cabin-page.ts: the second photo's wait and the viewer's
// wake code), bundled with the modules it imports and written into the page right after the
// gallery and the viewer's island. [id].astro passes the hash to Astro.csp.insertScriptHash in
// its frontmatter: the CSP <meta> goes out with the head.
import { bundledScript, type InlineScript } from './inline-script.ts';
// The wake wrapper's and dot's rules: the photo viewer's island wakes by its dot (islands/wake.ts).
import '../styles/wake.css';

export const cabinPageScript = (): Promise<InlineScript> => bundledScript('site/islands/cabin-page.ts');
