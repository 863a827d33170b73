// The cabin page's gallery script (site/islands/second-photo-waits.ts), written into the page
// right after the gallery. [id].astro passes the hash to Astro.csp.insertScriptHash in its
// frontmatter: the CSP <meta> goes out with the head.
import { selfRunningScript, type InlineScript } from './inline-script.ts';
import source from '../islands/second-photo-waits.ts?raw';

export const galleryScript = (): Promise<InlineScript> => selfRunningScript(source);
