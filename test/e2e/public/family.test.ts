import { describe, expect, it } from 'vitest';
import { addDays, todayInMoscow } from '../../../schema/dates.ts';
import { formatLineAmount } from '../../../schema/format.ts';
import type { PriceLine } from '../../../schema/payment-options.ts';
import type { SearchAnswerJson } from '../../../schema/search.ts';
import { useBrowser } from '../browser.ts';
import { flat, getJson, rub, textOf, visible } from './helpers.ts';

// A family of two adults with children of 3 and 9, on a phone: the search prices the demo's family
// house («Сосны»: children under 3 free, under 12 at half the extra guest's price) for all four, and
// its booking card, opened from the result, shows the children's lines and the same total.

const day = (n: number) => addDays(todayInMoscow(), n);
const [checkIn, checkOut] = [day(40), day(43)];
const query = `checkIn=${checkIn}&checkOut=${checkOut}&guests=2&childrenAges=3,9`;

describe('a family with children searching and booking on a phone', () => {
  const { baseURL, openPage } = useBrowser();

  it('should see the children’s prices in search and on the card of the family house', async () => {
    const found = await getJson<SearchAnswerJson>(baseURL, `/api/search?${query}`);
    const house = found.results.find((r) => r.name.includes('Сосны'));
    if (!house) throw new Error('the demo’s family house is not free 40–43 days from now');
    const quote = await getJson<{ total: number; lines: PriceLine[] }>(
      baseURL,
      `/api/quote?cabinId=${house.id}&${query}`,
    );
    expect(quote.total).toBe(house.total);
    const children = quote.lines.filter((l) => l.kind === 'children');
    // Neither is under 3: both pay half the extra guest's price.
    expect(children.map((l) => flat(l.label))).toEqual([expect.stringMatching(/^Дети до 12 лет: 2 × .+ × 3 ночи$/)]);

    const page = await openPage(`/search?${query}`, 'phone');
    const card = page.locator('.search-results .cabin-card', { hasText: house.name });
    await visible(card);
    // The result names what the children add, beside the total.
    const price = await textOf(card.locator('.price'));
    expect(price.startsWith(`3 ночи · ${rub(house.total)}`)).toBe(true);
    for (const line of children)
      expect(price.toLowerCase()).toContain(flat(`${line.label} ${formatLineAmount(line.amount)}`).toLowerCase());
    await card.locator('a.stretched').click();
    await page.waitForURL(/\/cabin\/\d+\?/);
    const booking = page.locator('#booking');
    for (const line of children) await visible(booking.getByText(flat(`${line.label}`), { exact: false }), 15_000);
    const text = flat(await booking.innerText());
    for (const line of children) expect(text).toContain(flat(`${line.label} ${formatLineAmount(line.amount)}`));
    expect(text).toContain(flat(rub(quote.total)));
  });
});
