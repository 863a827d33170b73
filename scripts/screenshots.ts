/**
 * Screenshots of the main public pages for the README: a phone (390 px) and a desktop (1280 px)
 * view of each, one screen high, from a running site.
 *
 *   node scripts/screenshots.ts            # http://127.0.0.1:8787 (npm start)
 *   SITE_URL=https://… node scripts/screenshots.ts
 *
 * Writes docs/screenshots/<page>-<phone|desktop>.png (palette PNGs, about 100–300 KB each).
 * Uses Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import sharp from 'sharp';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'docs/screenshots');
const BASE = (process.env.SITE_URL ?? 'http://127.0.0.1:8787').replace(/\/$/, '');
const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
const VIEWPORTS = {
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
} as const;

type Shot = { name: string; path: string; prepare?: (page: Page) => Promise<void> };

async function cabinWithMostPhotos(): Promise<number> {
  const cabins = (await fetch(`${BASE}/api/cabins`).then((r) => r.json())) as { id: number; images: string[] }[];
  if (cabins.length === 0) throw new Error('no cabins to show');
  return cabins.reduce((a, b) => (b.images.length > a.images.length ? b : a)).id;
}

/** Waits until fonts are in and every photo in view has loaded. */
async function settle(page: Page) {
  await page.evaluate(async () => {
    await document.fonts.ready;
    const inView = [...document.images].filter((img) => {
      const r = img.getBoundingClientRect();
      return r.bottom > 0 && r.top < window.innerHeight && r.right > 0 && r.left < window.innerWidth && !img.closest('[hidden]');
    });
    const loaded = Promise.all(
      inView.map((img) =>
        img.complete
          ? null
          : new Promise((done) => {
              img.addEventListener('load', done, { once: true });
              img.addEventListener('error', done, { once: true });
            }),
      ),
    );
    await Promise.race([loaded, new Promise((done) => setTimeout(done, 5000))]);
  });
  await page.waitForTimeout(300);
}

const cabinId = await cabinWithMostPhotos();
const shots: Shot[] = [
  { name: 'home', path: '/' },
  { name: 'catalogue', path: '/cabins', prepare: (p) => p.evaluate(() => window.scrollTo(0, 0)) },
  { name: 'cabin', path: `/cabin/${cabinId}` },
  {
    name: 'viewer',
    path: `/cabin/${cabinId}`,
    prepare: async (p) => {
      await p.locator('[data-viewer="0"]').click();
      await p.locator('.viewer__img').waitFor();
      await p.waitForTimeout(500);
    },
  },
  { name: 'reviews', path: '/reviews' },
  { name: 'contacts', path: '/contacts' },
];

await mkdir(OUT, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: FLAGS });
try {
  for (const [viewport, options] of Object.entries(VIEWPORTS)) {
    // Fonts are cached after the first page, as for a visitor who looks around.
    const context = await browser.newContext({ ...options, locale: 'ru-RU' });
    const warm = await context.newPage();
    await warm.goto(`${BASE}/`, { waitUntil: 'networkidle' });
    await warm.close();
    for (const shot of shots) {
      const page = await context.newPage();
      page.on('crash', () => console.error(`the page ${shot.path} crashed`));
      await page.goto(`${BASE}${shot.path}`, { waitUntil: 'networkidle' });
      await shot.prepare?.(page);
      await settle(page);
      const png = await page.screenshot({ type: 'png' });
      const file = path.join(OUT, `${shot.name}-${viewport}.png`);
      const small = await sharp(png).png({ palette: true, quality: 90, effort: 10, compressionLevel: 9 }).toBuffer();
      await writeFile(file, small);
      console.log(`${path.relative(ROOT, file)}  ${Math.round(small.length / 1024)} KB`);
      await page.close();
    }
    await context.close();
  }
} finally {
  await browser.close();
}
