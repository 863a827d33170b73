import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject, onTestFinished } from 'vitest';
import { CHROMIUM_FLAGS } from '../../scripts/lib/chromium.ts';

/**
 * Debian's Chromium, started as every tool here starts it. Its headless shell (Debian's
 * `chromium-headless-shell`, built from the same source) when installed: the journeys need no
 * window, and without the full browser's machinery they took 55 s where the full one took 96 s
 * (the same 53 visitor tests, 42 against 113 s of Chromium's CPU), which on two cores is the run's
 * time. Lighthouse in the bench keeps the full browser, as a phone has it.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export const VIEWPORTS = {
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 } },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

/** Debian's Chromium, kept off the network (also for a test file that starts its own server). */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });

/**
 * One Chromium per test worker, shared by the files that worker runs one after another (the e2e
 * projects do not isolate files): starting it anew took ~3 s a file. Playwright closes it when the
 * worker exits; a crashed one is started again.
 */
let shared: Promise<Browser> | undefined;
function sharedBrowser(): Promise<Browser> {
  shared ??= launchChromium().then((b) => {
    b.once('disconnected', () => (shared = undefined));
    return b;
  });
  return shared;
}

/** The worker's browser; a fresh context (cookies, storage, cache) per `openPage`, closed with its file. */
export function useBrowser() {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await sharedBrowser();
  });
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close().catch(() => {})));
  });
  const baseURL = inject('baseUrl');
  return {
    baseURL,
    async openPage(path = '/', viewport: ViewportName = 'desktop', options: BrowserContextOptions = {}): Promise<Page> {
      const context = await browser.newContext({ ...VIEWPORTS[viewport], baseURL, locale: 'ru-RU', ...options });
      contexts.push(context);
      const page = await context.newPage();
      // A closed page takes its context with it: a context left open keeps its renderer busy
      // (the gallery's timer, animations) and slows every other test on these two cores.
      page.once('close', () => void context.close().catch(() => {}));
      await page.goto(path);
      return page;
    },
  };
}

/**
 * A phone's slower CPU for `page` (Chromium's throttling, `rate` times slower), closed with its
 * context as the test finishes. A throttled page keeps a core busy even while it does nothing
 * (measured here: 0.9 of a core for 5 idle seconds, on about:blank too). Left open until its file
 * ended, as a test's pages are, each spun a core for every later test of the file: on two cores
 * that slowed every test running beside it, the content journeys' rebuilds among them.
 */
export async function slowCpu(page: Page, rate: number): Promise<void> {
  await (await page.context().newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate });
  onTestFinished(() =>
    page
      .context()
      .close()
      .catch(() => {}),
  );
}
