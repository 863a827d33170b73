import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays, todayInMoscow } from '../../../schema/dates.ts';
import { MSG } from '../../../schema/messages.ts';
import type { SearchAnswerJson } from '../../../schema/search.ts';
import { useBrowser } from '../browser.ts';
import { pickStay } from '../stay-calendar.ts';
import { behaviourScripts, flat, getJson, rub, textOf, visible } from './helpers.ts';

// Search by dates: a visitor who knows the dates finds every cabin free for them in one search, from
// the home page, and opens one with the dates already picked on its booking card.

const day = (n: number) => addDays(todayInMoscow(), n);
// The demo closes the second cabin's nights 10–13 days from now (scripts/demo/calendar.ts).
const [checkIn, checkOut] = [day(10), day(13)];
const query = `checkIn=${checkIn}&checkOut=${checkOut}&guests=2`;

describe('searching by dates on a phone', () => {
  const { baseURL, openPage } = useBrowser();
  const answer = () => getJson<SearchAnswerJson>(baseURL, `/api/search?${query}`);

  it('should find the cabins free for my dates from the home page, each priced for the stay, the busy ones apart with their nearest free dates', async () => {
    const expected = await answer();
    expect(expected.results.length).toBeGreaterThan(0);
    expect(expected.others.length).toBeGreaterThan(0);
    const page = await openPage('/', 'phone');
    const form = page.getByRole('search');
    // The form wakes when touched: the booking card's calendar, in Russian, Monday first.
    await pickStay(page, checkIn, checkOut, form);
    expect(await form.getByLabel('Заезд').inputValue()).toBe(checkIn);
    expect(await form.getByLabel('Выезд').inputValue()).toBe(checkOut);
    await form.getByLabel('Гости').fill('2');
    await form.getByRole('button', { name: 'Найти' }).click();
    await page.waitForURL(/\/search\?/);
    expect(new URL(page.url()).searchParams.get('checkIn')).toBe(checkIn);
    await visible(page.getByRole('heading', { level: 1, name: 'Свободно на ваши даты' }));
    // The form keeps the query.
    expect(await page.getByRole('search').getByLabel('Заезд').inputValue()).toBe(checkIn);
    expect(flat(await page.title())).toMatch(/^Свободно .+ · 2 гостя — /);
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');

    const cards = page.locator('.search-results .cabin-card');
    expect(await cards.count()).toBe(Math.min(12, expected.results.length));
    const first = expected.results[0]!;
    expect(await textOf(cards.first().locator('.price'))).toBe(`3 ночи · ${rub(first.total)}`);
    expect(await textOf(cards.first().locator('.card__title'))).toBe(first.name);
    expect(await cards.first().locator('a.stretched').getAttribute('href')).toBe(`/cabin/${first.id}?${query}#booking`);
    expect(await cards.first().locator('img').getAttribute('loading')).toBe('eager');

    const apart = page.getByRole('heading', { name: 'Не подходят на эти даты' });
    await visible(apart);
    const others = await page.locator('.search-others li').allInnerTexts();
    expect(others.map((t) => flat(t).split(' Занято')[0])).toEqual(
      expected.others.map((o) => expect.stringContaining(o.name)),
    );
    const withNearest = expected.others.find((o) => o.nearest)!;
    expect(
      await page
        .locator(`.search-others a[href^="/cabin/${withNearest.id}?checkIn=${withNearest.nearest!.checkIn}"]`)
        .count(),
    ).toBe(1);
  });

  it('should draw a result card as the catalogue draws it: the title right under the price, the same size', async () => {
    const look = async (path: string, cards: string) => {
      const page = await openPage(path, 'phone');
      const card = page.locator(`${cards} .cabin-card`).first();
      const [price, title] = await Promise.all([
        card.locator('.price').boundingBox(),
        card.locator('.card__title').boundingBox(),
      ]);
      const size = await card.locator('.card__title').evaluate((e) => getComputedStyle(e).fontSize);
      const rowGap = await card.locator('.card__body').evaluate((e) => parseFloat(getComputedStyle(e).rowGap));
      await page.close();
      return { gap: title!.y - (price!.y + price!.height), size, rowGap };
    };
    const catalogue = await look('/cabins', '.catalogue');
    const result = await look(`/search?${query}`, '.search-results');
    expect(result.size).toBe(catalogue.size);
    // Nothing between them but the card's own spacing.
    expect(result.gap).toBeGreaterThanOrEqual(0);
    expect(result.gap).toBeLessThanOrEqual(result.rowGap + 1);
  });

  it('should open a result with my dates and guests picked and the total shown, ready for «Отправить заявку»', async () => {
    const first = (await answer()).results[0]!;
    const page = await openPage(`/search?${query}`, 'phone');
    await page.locator('.search-results .cabin-card a.stretched').first().click();
    await page.waitForURL(new RegExp(`/cabin/${first.id}\\?`));
    const card = page.locator('#booking');
    await visible(card.locator('.booking__total'));
    expect(await textOf(card.locator('.booking__total dd'))).toBe(rub(first.total));
    expect(await card.getByLabel('Гости').inputValue()).toBe('2');
    await visible(card.getByRole('button', { name: 'Отправить заявку' }));
  });

  it('should say the dates are taken and open the calendar when a link from a search is no longer free', async () => {
    const busy = (await answer()).others.find((o) => o.reason === 'busy')!;
    const page = await openPage(`/cabin/${busy.id}?${query}#booking`, 'phone');
    await visible(page.locator('#booking [role="alert"]'));
    expect(await textOf(page.locator('#booking [role="alert"]'))).toContain('Даты из поиска уже заняты');
    await visible(page.locator('.stay-calendar'));
    expect(await page.locator('#booking .booking__total').count()).toBe(0);
  });

  it('should show the form with a Russian message for a search typed by hand with nonsense, never a blank page', async () => {
    const page = await openPage('/', 'phone');
    const res = await page.goto(`/search?checkIn=завтра&checkOut=${checkOut}&guests=2`);
    expect(res!.status()).toBe(400);
    await visible(page.getByRole('search'));
    expect(await textOf(page.getByRole('alert'))).toBe(MSG.searchCheckInInvalid);
    const tooMany = await page.goto(`/search?checkIn=${checkIn}&checkOut=${checkOut}&guests=500`);
    expect(tooMany!.status()).toBe(400);
    expect(await textOf(page.getByRole('alert'))).toBe(MSG.searchGuestsInvalid);
  });

  it('should load no script on the catalogue until the form is touched, and search as a plain form with scripts off', async () => {
    const page = await openPage('/cabins', 'phone');
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
    await page.goto('/cabins');
    await page.mouse.wheel(0, 2000);
    await page.waitForTimeout(300);
    expect(behaviourScripts(scripts)).toEqual([]);
    await page.getByRole('search').getByLabel('Гости').focus();
    await page.waitForFunction(() => document.documentElement.hasAttribute('data-search-dates-ready'));
    expect(behaviourScripts(scripts).length).toBeGreaterThan(0);

    const plain = await openPage('/cabins', 'phone', { javaScriptEnabled: false });
    const form = plain.getByRole('search');
    // With scripts off the dates are text fields that say the format the search takes.
    expect(await form.getByLabel('Заезд').getAttribute('placeholder')).toBe('ГГГГ-ММ-ДД');
    await form.getByLabel('Заезд').fill(checkIn);
    await form.getByLabel('Выезд').fill(checkOut);
    await form.getByRole('button', { name: 'Найти' }).click();
    await plain.waitForURL(/\/search\?/);
    await visible(plain.locator('.search-results .cabin-card'));
    expect(new URL(plain.url()).searchParams.get('checkOut')).toBe(checkOut);
  });
});

describe("the search form's date fields", () => {
  const { openPage } = useBrowser();
  const fieldsAndForm = (page: Page) =>
    page.getByRole('search').evaluate((form) => ({
      form: form.getBoundingClientRect().height,
      fields: [...form.querySelectorAll('input')].map((i) => {
        const r = i.getBoundingClientRect();
        return `${i.name} ${r.x},${r.y} ${r.width}×${r.height}`;
      }),
    }));

  // They are drawn as text fields and become the browser's date fields right after the first
  // paint (site/components/SearchForm.astro), which must move nothing and lose nothing.
  it("should give me the browser's date fields with my search's dates in them, where the page first drew them", async () => {
    for (const viewport of ['phone', 'desktop'] as const) {
      const plain = await openPage(`/search?${query}`, viewport, { javaScriptEnabled: false });
      const drawn = await fieldsAndForm(plain);
      expect(await plain.getByRole('search').getByLabel('Заезд').getAttribute('type')).toBe('text');
      const page = await openPage(`/search?${query}`, viewport);
      const form = page.getByRole('search');
      await page.waitForSelector('.search-form input[name="checkOut"][type="date"]');
      expect(await form.getByLabel('Заезд').getAttribute('type')).toBe('date');
      expect(await form.getByLabel('Заезд').inputValue()).toBe(checkIn);
      expect(await form.getByLabel('Выезд').inputValue()).toBe(checkOut);
      expect(await form.getByLabel('Заезд').evaluate((i) => getComputedStyle(i).color)).not.toBe('rgba(0, 0, 0, 0)');
      expect(await fieldsAndForm(page)).toEqual(drawn);
    }
  });

  it('should give me back the dates I picked when I come back to the catalogue', async () => {
    const page = await openPage('/cabins', 'phone');
    const form = page.getByRole('search');
    await pickStay(page, checkIn, checkOut, form);
    await form.getByLabel('Гости').fill('3');
    await page.goto('/contacts');
    await page.goBack();
    await page.waitForURL(/\/cabins$/);
    await page.waitForSelector('.search-form input[name="checkOut"][type="date"]');
    expect(await form.getByLabel('Заезд').inputValue()).toBe(checkIn);
    expect(await form.getByLabel('Выезд').inputValue()).toBe(checkOut);
    expect(await form.getByLabel('Гости').inputValue()).toBe('3');
  });

  it('should keep a date I typed by hand that a date field cannot hold, in sight', async () => {
    const page = await openPage(`/search?checkIn=завтра&checkOut=${checkOut}&guests=2`, 'phone');
    const field = page.getByRole('search').getByLabel('Заезд');
    await page.waitForSelector('.search-form input[name="checkOut"][type="date"]');
    expect(await field.getAttribute('type')).toBe('text');
    expect(await field.inputValue()).toBe('завтра');
    expect(await field.evaluate((i) => getComputedStyle(i).color)).not.toBe('rgba(0, 0, 0, 0)');
  });
});

describe('the search page among the static pages', () => {
  const { openPage } = useBrowser();

  // A page whose opener policy differs from the page before it is put in a new browsing context
  // group (a new renderer process in Chrome, ~300 ms of main thread on a phone), and the HTML
  // standard clears window.name when that happens. The catalogue is a static file and the
  // results page is made by the server: they must agree.
  it('should keep the visitor in the same browsing context from the catalogue to the results and back', async () => {
    const page = await openPage('/cabins', 'phone');
    await page.evaluate(() => (window.name = 'from-the-catalogue'));
    const form = page.getByRole('search');
    await pickStay(page, checkIn, checkOut, form);
    await form.getByRole('button', { name: 'Найти' }).click();
    await page.waitForURL(/\/search\?/);
    await visible(page.locator('.search-results .cabin-card'));
    expect(await page.evaluate(() => window.name)).toBe('from-the-catalogue');
    await page.goBack();
    await page.waitForURL(/\/cabins$/);
    expect(await page.evaluate(() => window.name)).toBe('from-the-catalogue');
  });
});
