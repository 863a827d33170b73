/**
 * Screenshots for the README from a running site with the demo: a phone (390 px) and a desktop
 * (1280 px) view of each, one screen high. The public pages, then what sells the product: search
 * by dates, the booking card with its price lines, the return from the payment page, the guest's
 * own page, and in the panel «Заявки» with a reply, «Шахматка», «Сводка», «Журнал» and a settings
 * screen (signed in with ADMIN_PASSWORD, the demo's by default).
 *
 *   node scripts/screenshots.ts            # http://127.0.0.1:8787 (npm start)
 *   SITE_URL=https://… ADMIN_PASSWORD=… node scripts/screenshots.ts
 *
 * Writes docs/screenshots/<page>-<phone|desktop>.png (palette PNGs, about 100–300 KB each).
 * Uses Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
import { addDays, todayInMoscow } from '../schema/dates.ts';
import { FONTS_KEY } from '../site/lib/font-key.ts';
import { CHROMIUM_FLAGS } from './lib/chromium.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'docs/screenshots');
const BASE = (process.env.SITE_URL ?? 'http://127.0.0.1:8787').replace(/\/$/, '');
const VIEWPORTS = {
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
} as const;

type Shot = { name: string; path: string; admin?: boolean; prepare?: (page: Page) => Promise<unknown> };

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
      return (
        r.bottom > 0 &&
        r.top < window.innerHeight &&
        r.right > 0 &&
        r.left < window.innerWidth &&
        !img.closest('[hidden]')
      );
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

/** A stay a month ahead that search finds free: its dates and the first cabin it lists. */
async function freeStay(): Promise<{ checkIn: string; checkOut: string; cabinId: number }> {
  for (let ahead = 30; ahead < 120; ahead += 7) {
    const checkIn = addDays(todayInMoscow(), ahead);
    const checkOut = addDays(checkIn, 3);
    const answer = (await fetch(`${BASE}/api/search?checkIn=${checkIn}&checkOut=${checkOut}&guests=2`).then((r) =>
      r.json(),
    )) as { results: { id: number }[] };
    if (answer.results[0]) return { checkIn, checkOut, cabinId: answer.results[0].id };
  }
  throw new Error('no free stay in the next months to show');
}

/** Signs in to the panel through the API: its session cookie, the admin path, and a confirmed stay ahead to show. */
async function signIn(): Promise<{
  cookie: { name: string; value: string };
  adminPath: string;
  stay: { id: number; cabinId: number; guestToken: string };
}> {
  const res = await fetch(`${BASE}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: BASE },
    body: JSON.stringify({ username: 'admin', password: process.env.ADMIN_PASSWORD ?? 'caspian-demo' }),
  });
  const set = res.headers.get('set-cookie') ?? '';
  const match = /^([^=]+)=([^;]+)/.exec(set);
  if (!res.ok || !match) throw new Error(`could not sign in to the panel (${res.status}): set ADMIN_PASSWORD`);
  const cookie = { name: match[1]!, value: match[2]! };
  const headers = { cookie: `${cookie.name}=${cookie.value}` };
  const { path: adminPath } = (await fetch(`${BASE}/api/admin/path`, { headers }).then((r) => r.json())) as {
    path: string;
  };
  const list = (await fetch(`${BASE}/api/admin/bookings`, { headers }).then((r) => r.json())) as {
    id: number;
    cabinId: number;
    status: string;
    checkIn: string;
    guestToken: string | null;
  }[];
  const today = todayInMoscow();
  const stay = list.find((b) => b.status === 'confirmed' && b.checkIn > today && b.guestToken);
  if (!stay) throw new Error('the demo has no confirmed stay ahead to show');
  return { cookie, adminPath, stay: { id: stay.id, cabinId: stay.cabinId, guestToken: stay.guestToken! } };
}

const cabinId = await cabinWithMostPhotos();
const stay = await freeStay();
const admin = await signIn();
const stayQuery = `?checkIn=${stay.checkIn}&checkOut=${stay.checkOut}&guests=2`;
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
  { name: 'search', path: `/search${stayQuery}` },
  {
    name: 'booking',
    path: `/cabin/${stay.cabinId}${stayQuery}#booking`,
    prepare: async (p) => {
      await p.locator('#booking .booking__total, #booking [class*="total"]').first().waitFor({ timeout: 15_000 });
      await p.locator('#booking').scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'payment-return',
    path: `/cabin/${admin.stay.cabinId}?booking=${admin.stay.id}&token=${admin.stay.guestToken}#booking`,
    prepare: async (p) => {
      await p.locator('.booking__status').first().waitFor({ timeout: 15_000 });
      await p.locator('.booking__status').first().scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'guest-page',
    path: `/b/${admin.stay.guestToken}`,
    prepare: (p) => p.getByRole('heading', { level: 1 }).waitFor(),
  },
  {
    name: 'admin-bookings',
    path: `/${admin.adminPath}#bookings`,
    admin: true,
    prepare: async (p) => {
      const reply = p.locator('.reply').first();
      await reply.waitFor({ timeout: 15_000 });
      await reply.scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'admin-today',
    path: `/${admin.adminPath}#today`,
    admin: true,
    prepare: (p) => p.locator('.today__day').first().waitFor({ timeout: 15_000 }),
  },
  {
    name: 'admin-templates',
    path: `/${admin.adminPath}#messages/templates`,
    admin: true,
    prepare: (p) => p.locator('.templates').first().waitFor({ timeout: 15_000 }),
  },
  {
    name: 'admin-occupancy',
    path: `/${admin.adminPath}#calendar`,
    admin: true,
    prepare: (p) => p.locator('.occupancy').first().waitFor({ timeout: 15_000 }),
  },
  {
    name: 'admin-reports',
    path: `/${admin.adminPath}#reports`,
    admin: true,
    prepare: (p) => p.locator('.reports table, .reports .report-section__title').first().waitFor({ timeout: 15_000 }),
  },
  {
    name: 'admin-audit',
    path: `/${admin.adminPath}#audit`,
    admin: true,
    prepare: (p) => p.locator('.audit table, .audit li').first().waitFor({ timeout: 15_000 }),
  },
  {
    name: 'admin-settings',
    path: `/${admin.adminPath}#settings/guests`,
    admin: true,
    prepare: (p) => p.locator('.message-template').first().waitFor({ timeout: 15_000 }),
  },
];

await mkdir(OUT, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: CHROMIUM_FLAGS,
});
try {
  for (const [viewport, options] of Object.entries(VIEWPORTS)) {
    // Fonts are cached after the first page, as for a visitor who looks around.
    const context = await browser.newContext({ ...options, locale: 'ru-RU' });
    // The panel's session (HttpOnly, as the browser would hold it after signing in).
    await context.addCookies([{ ...admin.cookie, url: BASE, httpOnly: true, sameSite: 'Strict' }]);
    const warm = await context.newPage();
    await warm.goto(`${BASE}/`, { waitUntil: 'networkidle' });
    // A first page loads Manrope 2 s after its load and then marks it cached (islands/font-loader.ts);
    // every page shot after that mark is drawn in it, as a visitor's second page is.
    await warm.waitForFunction((key) => localStorage.getItem(key) !== null, FONTS_KEY, { timeout: 15_000 });
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
