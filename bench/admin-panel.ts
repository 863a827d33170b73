import { chromium } from 'playwright-core';
import { gzipSync } from 'node:zlib';
import { CHROME_FLAGS, CHROMIUM } from './lighthouse.ts';
import { GZIP_LEVEL, inlineScripts } from './weight.ts';

export type PanelWeight = { jsFiles: number; jsGzip: number; inlineJsGzip: number };

/**
 * The JavaScript the admin panel loads for a signed-in owner (its first tab), on a phone-sized
 * page: the login screen is Lighthouse's to measure; this is what follows the sign-in.
 */
export async function signedInPanelWeight(base: string, cookie: string, adminPath = '/admin'): Promise<PanelWeight> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS });
  try {
    const context = await browser.newContext({
      viewport: { width: 412, height: 823 },
      isMobile: true,
      locale: 'ru-RU',
    });
    const { hostname } = new URL(base);
    await context.addCookies(
      cookie.split('; ').map((pair) => {
        const [name, ...value] = pair.split('=');
        return { name: name!, value: value.join('='), domain: hostname, path: '/' };
      }),
    );
    const page = await context.newPage();
    const scripts = new Set<string>();
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.add(req.url());
    });
    await page.goto(`${base}${adminPath}`);
    await page.getByRole('button', { name: 'Выйти' }).waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    const gz = (b: Uint8Array | string) => gzipSync(b, { level: GZIP_LEVEL }).length;
    let jsGzip = 0;
    for (const url of scripts) jsGzip += gz(new Uint8Array(await (await fetch(url)).arrayBuffer()));
    const html = await (await fetch(`${base}${adminPath}`)).text();
    const inline = inlineScripts(html);
    return { jsFiles: scripts.size, jsGzip, inlineJsGzip: inline ? gz(inline) : 0 };
  } finally {
    await browser.close();
  }
}
