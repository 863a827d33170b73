import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FONTS_KEY } from '../../../site/lib/font-key.ts';
import { useBrowser, type ViewportName } from '../browser.ts';
import { flat, settings, textOf, visible } from './helpers.ts';

const NAV = ['Главная', 'Каталог', 'Контакты', 'Отзывы'];
const PAGES = ['/', '/cabins', '/contacts', '/reviews', '/privacy'];

describe.each<ViewportName>(['phone', 'desktop'])('header and footer on a %s', (viewport) => {
  const { baseURL, openPage } = useBrowser();

  it('should show the site name linking home, the four links and a call link on every page', async () => {
    const s = await settings(baseURL);
    for (const path of PAGES) {
      const page = await openPage(path, viewport);
      const header = page.locator('header.site-header');
      expect(await textOf(header.getByRole('link', { name: s.siteName }))).toBe(s.siteName);
      expect(await header.getByRole('link', { name: s.siteName }).getAttribute('href')).toBe('/');
      const call = header.getByRole('link', { name: new RegExp(`Позвонить`) });
      expect(await call.getAttribute('href')).toBe(`tel:+${s.phone.replace(/\D/g, '')}`);
      if (viewport === 'phone') await header.getByRole('button', { name: 'Меню' }).click();
      const nav = page.getByRole('navigation', { name: 'Основное меню' });
      for (const label of NAV) await visible(nav.getByRole('link', { name: label, exact: true }));
      await page.close();
    }
  });

  it('should mark the current section in the menu', async () => {
    const page = await openPage('/cabins', viewport);
    const nav = page.getByRole('navigation', { name: 'Основное меню', includeHidden: true });
    expect(await nav.getByRole('link', { name: 'Каталог', includeHidden: true }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(
      await nav.getByRole('link', { name: 'Главная', includeHidden: true }).getAttribute('aria-current'),
    ).toBeNull();
  });

  it('should keep the header transparent over the home hero until scrolled more than 10 px', async () => {
    const page = await openPage('/', viewport);
    const header = page.locator('header.site-header');
    const bg = () => header.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await bg()).toBe('rgba(0, 0, 0, 0)');
    await page.evaluate(() => window.scrollTo(0, 10));
    await page.waitForTimeout(100);
    expect(await bg()).toBe('rgba(0, 0, 0, 0)');
    await page.evaluate(() => window.scrollTo(0, 11));
    await page.waitForFunction(() => document.getElementById('site-header')?.classList.contains('is-solid'));
    // (after the 160 ms colour transition)
    await page.waitForFunction(
      () => getComputedStyle(document.getElementById('site-header')!).backgroundColor === 'rgb(250, 246, 238)',
    );
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForFunction(() => !document.getElementById('site-header')?.classList.contains('is-solid'));
  });

  it('should show a solid header on the other pages', async () => {
    const page = await openPage('/contacts', viewport);
    expect(await page.locator('header.site-header').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      'rgb(250, 246, 238)',
    );
  });

  it('should show the footer with the description, contacts, social icons and this year', async () => {
    const s = await settings(baseURL);
    const page = await openPage('/cabins', viewport);
    const footer = page.locator('footer');
    const text = await textOf(footer);
    expect(text).toContain(s.siteName);
    expect(text).toContain(flat(s.contactInfo.footerDescription ?? ''));
    expect(text).toContain(`© ${new Date().getFullYear()} ${s.siteName}`);
    expect(await footer.getByRole('link', { name: flat(s.contactInfo.footerPhone) }).getAttribute('href')).toMatch(
      /^tel:\+\d+$/,
    );
    expect(await footer.getByRole('link', { name: s.contactInfo.footerEmail }).getAttribute('href')).toBe(
      `mailto:${s.contactInfo.footerEmail}`,
    );
    expect(text).toContain(flat(s.contactInfo.footerAddress));
    expect(
      await footer.getByRole('list', { name: 'Мы в соцсетях' }).getByRole('listitem').count(),
    ).toBeGreaterThanOrEqual(3);
    expect(await footer.getByRole('link', { name: 'Политика конфиденциальности' }).getAttribute('href')).toBe(
      '/privacy',
    );
  });

  it('should let a keyboard user skip to the content', async () => {
    const page = await openPage('/cabins', viewport);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Перейти к содержанию' });
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
  });
});

describe('the mobile menu', () => {
  const { openPage } = useBrowser();

  it('should open and close with the menu button and Escape on a phone', async () => {
    const page = await openPage('/reviews', 'phone');
    const nav = page.getByRole('navigation', { name: 'Основное меню' });
    const catalogue = nav.getByRole('link', { name: 'Каталог' });
    expect(await catalogue.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Меню' }).click();
    await visible(catalogue);
    await visible(nav.getByRole('link', { name: /\+7/ }));
    await page.keyboard.press('Escape');
    await catalogue.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Меню' }).click();
    await catalogue.click();
    await page.waitForURL('**/cabins');
  });

  it('should show the links in the bar on a desktop, without a menu button', async () => {
    const page = await openPage('/reviews', 'desktop');
    await visible(page.getByRole('navigation', { name: 'Основное меню' }).getByRole('link', { name: 'Каталог' }));
    expect(await page.getByRole('button', { name: 'Меню' }).isVisible()).toBe(false);
  });
});

describe('pages that do not exist', () => {
  const { baseURL, openPage } = useBrowser();

  it('should answer an unknown address with the Russian 404 page', async () => {
    const res = await fetch(`${baseURL}/no-such-page`);
    expect(res.status).toBe(404);
    const page = await openPage('/no-such-page', 'phone');
    await visible(page.getByRole('heading', { level: 1, name: 'Страница не найдена' }));
    expect(await page.getByRole('link', { name: 'На главную' }).getAttribute('href')).toBe('/');
  });

  it('should say «Объект не найден» for a cabin that does not exist', async () => {
    expect((await fetch(`${baseURL}/cabin/99999`)).status).toBe(404);
    const page = await openPage('/cabin/99999', 'desktop');
    await visible(page.getByRole('heading', { level: 1, name: 'Объект не найден' }));
    await visible(page.getByText('Извините, запрашиваемый объект не существует.'));
    await page.getByRole('link', { name: 'На главную' }).click();
    await page.waitForURL(`${baseURL}/`);
  });
});

/** The fonts the browser really drew an element's text with (not the CSS's wish list). */
async function renderedFonts(page: Page, selector: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument');
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    return fonts.map((f) => f.familyName);
  } finally {
    await cdp.detach();
  }
}

describe('the typeface', () => {
  const { openPage } = useBrowser();

  it('should draw a first page in the fallback, fetch Manrope only after it has loaded, and draw the next pages in Manrope', async () => {
    const page = await openPage('/contacts', 'phone');
    const first = await renderedFonts(page, 'h1');
    expect(first.length).toBeGreaterThan(0);
    expect(first.filter((f) => /manrope/i.test(f))).toEqual([]);
    // The three files come once the page has loaded, and the next page knows they are cached.
    await page.waitForFunction((key) => localStorage.getItem(key) !== null, FONTS_KEY, { timeout: 15_000 });
    const startedAfterLoad = await page.evaluate(() => {
      const loaded = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd;
      return performance
        .getEntriesByType('resource')
        .filter((e) => e.name.endsWith('.woff2'))
        .map((e) => e.startTime - loaded);
    });
    expect(startedAfterLoad).toHaveLength(3);
    for (const ms of startedAfterLoad) expect(ms).toBeGreaterThan(0);
    await page.goto('/reviews');
    const next = await renderedFonts(page, 'h1');
    expect(next.length).toBeGreaterThan(0);
    for (const family of next) expect(family).toMatch(/^Manrope/);
  });
});
