import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core, as Lighthouse brings it. */
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
/** The rules of WCAG 2.2 AA. */
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * What axe finds against WCAG 2.2 AA on the page as it is now, or inside `selector`, one line a
 * finding. Injected through DevTools, so a page's CSP stays on.
 */
export async function axeViolations(page: Page, selector?: string): Promise<string[]> {
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
