// The consent banner's script (site/islands/metrika-consent.ts) with the build's values written
// in, and what the page's CSP must allow for it. Called from the layout's frontmatter: the CSP
// <meta> is written with the head, before the banner at the end of the body renders.
import source from '../islands/metrika-consent.ts?raw';
import { selfRunningScript, type InlineScript } from './inline-script.ts';
import { metrikaBase, metrikaSources, METRIKA_CONSENT_KEY, PAYMENT_RETURN_KEY } from '../../schema/metrika.ts';

export async function metrikaScript(
  counter: string,
): Promise<InlineScript & { sources: ReturnType<typeof metrikaSources> }> {
  // METRIKA_URL is read by the build, on both targets; a stand-in's address in tests.
  const base = metrikaBase(process.env.METRIKA_URL);
  const script = await selfRunningScript(source, {
    METRIKA_ID: String(Number(counter)),
    METRIKA_TAG: JSON.stringify(`${base}/metrika/tag.js`),
    CONSENT_KEY: JSON.stringify(METRIKA_CONSENT_KEY),
    RETURN_KEY: JSON.stringify(PAYMENT_RETURN_KEY),
  });
  return { ...script, sources: metrikaSources(base) };
}
