import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core, as Lighthouse brings it. */
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
/** The rules of WCAG 2.2 AA. */
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * What axe finds against WCAG 2.2 AA on the page as it is now, or inside `selector`, one line a
 * finding. Injected through DevTools, so a page's CSP stays on. A button just pressed may still be
 * fading to its new colours: axe reads the page once its transitions have ended (at most 2 s), as
 * a person sees it, not a frame in between.
 */
export async function axeViolations(page: Page, selector?: string): Promise<string[]> {
  await page.evaluate(() =>
    Promise.race([
      Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]),
  );
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await readFile(AXE, 'utf8'));
  return page.evaluate(
    async ([tags, within]) => {
      const axe = (
        window as unknown as {
          axe: {
            run: (
              ctx: Element | Document,
              o: unknown,
            ) => Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }>;
          };
        }
      ).axe;
      const { violations } = await axe.run(within ? document.querySelector(within)! : document, {
        runOnly: { type: 'tag', values: tags },
      });
      return violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
    },
    [WCAG, selector ?? null] as const,
  );
}
