// The cabin page's script, written into the page right after the gallery and the photo viewer's
// island: the viewer's wake code (lib/wake-script.ts) and the second photo's wait
// (site/islands/second-photo-waits.ts) in one tag, one CSP hash, which the cabin page's 14 KB
// of HTML has little room for. [id].astro passes the hash to Astro.csp.insertScriptHash in its
// frontmatter: the CSP <meta> goes out with the head.
import { joinedScripts, selfRunningScript, type InlineScript } from './inline-script.ts';
import { wakeScript } from './wake-script.ts';
import source from '../islands/second-photo-waits.ts?raw';

export async function cabinPageScript(): Promise<InlineScript> {
  return joinedScripts(await wakeScript([{ name: 'viewer', targets: '[data-viewer]' }]), await selfRunningScript(source));
}
