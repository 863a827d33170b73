import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays, todayInMoscow } from '../../../schema/dates.ts';
import { useBrowser } from '../browser.ts';
import { startSlowNetwork } from '../slow-network.ts';
import { schemaOrgProblems } from '../../schema-org.ts';
import { cabins, settings, textOf, visible } from './helpers.ts';

/** Every JSON-LD document of a page. */
const structuredData = (page: Page): Promise<Record<string, unknown>[]> =>
  page
    .locator('script[type="application/ld+json"]')
    .allTextContents()
    .then((texts) => texts.map((t) => JSON.parse(t) as Record<string, unknown>));

const PUBLIC = ['/', '/cabins', '/cabins/2', '/contacts', '/reviews', '/privacy'];

describe('search engines and link previews', () => {
  const { baseURL, openPage } = useBrowser();

  it('should give every page its own title, description, canonical address and Open Graph tags', async () => {
    const [cabin] = await cabins(baseURL);
    const titles = new Set<string>();
    for (const path of [...PUBLIC, `/cabin/${cabin!.id}`]) {
      const page = await openPage(path, 'desktop');
      const title = await page.title();
      expect(title.length, path).toBeGreaterThan(5);
      titles.add(title);
      const meta = (sel: string) => page.locator(sel).getAttribute('content');
      expect((await meta('meta[name="description"]'))!.length, path).toBeGreaterThan(50);
      expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(new URL(path, baseURL).href);
      expect(await meta('meta[property="og:title"]')).toBe(title);
      expect(await meta('meta[property="og:url"]')).toBe(new URL(path, baseURL).href);
      expect(await meta('meta[property="og:locale"]')).toBe('ru_RU');
      expect(await meta('meta[name="twitter:card"]')).toBe('summary_large_image');
      const image = (await meta('meta[property="og:image"]'))!;
      const res = await fetch(image);
      expect(res.headers.get('content-type'), image).toBe('image/jpeg');
      expect(await page.locator('html').getAttribute('lang')).toBe('ru');
      await page.close();
    }
    expect(titles.size).toBe(PUBLIC.length + 1);
  });

  it('should preview a cabin with its own photo and describe it as a vacation rental', async () => {
    const s = await settings(baseURL);
    const everyDoc: Record<string, unknown>[] = [];
    for (const cabin of (await cabins(baseURL)).slice(0, 3)) {
      const page = await openPage(`/cabin/${cabin.id}`, 'phone');
      const image = (await page.locator('meta[property="og:image"]').getAttribute('content'))!;
      const key = cabin.images[0]!.split('/')
        .pop()!
        .replace(/\.\w+$/, '');
      expect(image).toContain(key);
      expect(await page.locator('meta[property="og:image:width"]').getAttribute('content')).toBe('1200');
      const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent())!);
      expect(ld['@type']).toBe('VacationRental');
      expect(ld.name).toBe(cabin.name);
      expect(ld.checkinTime).toBe(s.checkInTime);
      expect(ld.checkoutTime).toBe(s.checkOutTime);
      expect(ld.image).toHaveLength(cabin.images.length);
      expect(ld.containsPlace['@type']).toBe('Accommodation');
      expect(ld.containsPlace.occupancy.maxValue).toBe(cabin.maxGuests);
      expect(ld.containsPlace.numberOfBedrooms).toBe(cabin.bedrooms);
      expect(ld.containsPlace.numberOfBathroomsTotal).toBe(cabin.bathrooms);
      expect(ld.containsPlace.amenityFeature.map((a: { name: string }) => a.name)).toEqual(cabin.amenities);
      // The way to the cabin; every document is checked against schema.org's vocabulary below.
      const docs = await structuredData(page);
      expect(docs.find((d) => d['@type'] === 'BreadcrumbList')?.itemListElement).toHaveLength(3);
      everyDoc.push(...docs);
      await page.close();
    }
    expect(schemaOrgProblems(everyDoc)).toEqual([]);
  });

  it('should describe the business as a LodgingBusiness on the home page', async () => {
    const s = await settings(baseURL);
    const page = await openPage('/', 'desktop');
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent())!);
    expect(ld['@type']).toBe('LodgingBusiness');
    expect(ld.name).toBe(s.siteName);
    expect(ld.telephone).toBe(s.phone);
    // The address split as Yandex reads it, and the point of the owner's map.
    expect(ld.address).toMatchObject({
      '@type': 'PostalAddress',
      addressLocality: expect.any(String),
      addressCountry: 'RU',
    });
    const written = [ld.address.addressRegion, ld.address.addressLocality, ld.address.streetAddress].join(', ');
    for (const part of s.address.split(',')) expect(written).toContain(part.trim());
    expect(ld.geo).toEqual({ '@type': 'GeoCoordinates', latitude: expect.any(Number), longitude: expect.any(Number) });
    expect(schemaOrgProblems(await structuredData(page))).toEqual([]);
  });

  it('should list every public page in sitemap.xml and keep the admin path out of robots.txt', async () => {
    const sitemap = await (await fetch(`${baseURL}/sitemap.xml`)).text();
    for (const path of PUBLIC) expect(sitemap).toContain(`<loc>${new URL(path, baseURL).href}</loc>`);
    for (const cabin of await cabins(baseURL)) expect(sitemap).toContain(`<loc>${baseURL}/cabin/${cabin.id}</loc>`);
    const robots = await (await fetch(`${baseURL}/robots.txt`)).text();
    expect(robots).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
    expect(robots.toLowerCase()).not.toContain('admin');
  });
});

describe('the privacy policy', () => {
  const { baseURL, openPage } = useBrowser();

  it('should name the owner and the contacts from the settings', async () => {
    const s = await settings(baseURL);
    const page = await openPage('/privacy', 'phone');
    await visible(page.getByRole('heading', { level: 1, name: 'Политика конфиденциальности' }));
    const text = await textOf(page.locator('main'));
    expect(text).toContain(s.ownerName);
    expect(text).toContain('152-ФЗ');
    expect(await page.locator('main').getByRole('link', { name: s.email }).first().getAttribute('href')).toBe(
      `mailto:${s.email}`,
    );
  });
});

describe('budgets', () => {
  const { baseURL, openPage } = useBrowser();

  it('should keep the HTML of the home, catalogue and cabin pages under 14 KB gzipped', async () => {
    const list = await cabins(baseURL);
    for (const path of ['/', '/cabins', '/cabins/2', ...list.map((c) => `/cabin/${c.id}`)]) {
      const html = Buffer.from(await (await fetch(`${baseURL}${path}`)).arrayBuffer());
      expect(gzipSync(html).length, path).toBeLessThanOrEqual(14 * 1024);
    }
  });

  it('should load at most 80 KB of gzipped JavaScript where islands run', async () => {
    const [cabin] = await cabins(baseURL);
    for (const path of [`/cabin/${cabin!.id}`, '/reviews', '/contacts', '/']) {
      const page = await openPage('about:blank', 'phone');
      const sizes: Promise<number>[] = [];
      page.on('response', (r) => {
        if (r.request().resourceType() === 'script') sizes.push(r.body().then((b) => gzipSync(b).length));
      });
      await page.goto(path, { waitUntil: 'networkidle' });
      await page.waitForTimeout(500);
      const total = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
      expect(total, path).toBeLessThanOrEqual(80 * 1024);
      await page.close();
    }
  });

  it('should not move anything while a page arrives slowly, and show all of it once loaded', async () => {
    // Through a slow network, the browser paints each page many times part-read: nothing it has
    // drawn may move when the rest arrives (a row growing sideways, a margin collapsing through an
    // empty line), and what is held back until read (.arrives-whole) is shown at the end.
    const slow = await startSlowNetwork(baseURL, { chunkBytes: 200, pauseMs: 4 });
    try {
      const [cabin] = await cabins(baseURL);
      for (const path of [
        '/',
        '/cabins',
        `/cabin/${cabin!.id}`,
        '/reviews',
        '/contacts',
        `/search?checkIn=${addDays(todayInMoscow(), 40)}&checkOut=${addDays(todayInMoscow(), 43)}&guests=2`,
      ]) {
        for (const viewport of ['phone', 'desktop'] as const) {
          const page = await openPage('about:blank', viewport, { baseURL: slow.url });
          await page.addInitScript(() => {
            const w = window as unknown as { cls: number; moved: string[] };
            w.cls = 0;
            w.moved = [];
            new PerformanceObserver((list) => {
              for (const e of list.getEntries() as (PerformanceEntry & {
                value: number;
                hadRecentInput: boolean;
                sources: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
              })[]) {
                if (e.hadRecentInput) continue;
                w.cls += e.value;
                // What moved, for the failure message.
                for (const { node, previousRect: was, currentRect: now } of e.sources) {
                  const what =
                    node instanceof Element
                      ? `${node.nodeName}.${node.className}`
                      : `text «${node?.textContent?.slice(0, 30)}» in .${node?.parentElement?.className}`;
                  w.moved.push(
                    `${what} x ${Math.round(was.x)}→${Math.round(now.x)} y ${Math.round(was.y)}→${Math.round(now.y)} w ${Math.round(was.width)}→${Math.round(now.width)} h ${Math.round(was.height)}→${Math.round(now.height)} at ${Math.round(e.startTime)} ms`,
                  );
                }
              }
            }).observe({ type: 'layout-shift', buffered: true });
          });
          await page.goto(path, { waitUntil: 'networkidle' });
          await page.waitForTimeout(500);
          const { cls, moved, hidden } = await page.evaluate(() => {
            const w = window as unknown as { cls: number; moved: string[] };
            const hidden = [...document.querySelectorAll('.arrives-whole')]
              .filter((e) => getComputedStyle(e).visibility !== 'visible')
              .map((e) => e.className);
            return { cls: w.cls, moved: w.moved, hidden };
          });
          expect(cls, `${path} ${viewport}: ${moved.join('; ')}`).toBe(0);
          expect(hidden, `${path} ${viewport}`).toEqual([]);
          await page.close();
        }
      }
    } finally {
      await slow.close();
    }
  }, 120_000);
});
