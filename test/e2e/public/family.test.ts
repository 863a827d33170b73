import { describe, expect, it } from 'vitest';
import { addDays, todayInMoscow } from '../../../schema/dates.ts';
import { formatLineAmount } from '../../../schema/format.ts';
import type { PriceLine } from '../../../schema/payment-options.ts';
import type { SearchAnswerJson } from '../../../schema/search.ts';
import { useBrowser } from '../browser.ts';
import { adminApi, cabins, flat, getJson, hidden, rub, textOf, visible } from './helpers.ts';

// A family of two adults with children of 3 and 9, on a phone: the search prices the demo's family
// house («Сосны»: children under 3 free, under 12 at half the extra guest's price) for all four, and
// its booking card, opened from the result, shows the children's lines and the same total. The
// same card offers an early check-in the owner sells only when the night before the stay is free.

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

  it('should offer an early check-in on the card only when the night before is free, and price it in', async () => {
    const admin = await adminApi(baseURL);
    const house = (await cabins(baseURL)).find((c) => c.name.includes('Сосны'));
    if (!house) throw new Error('the demo has no family house «Сосны»');
    const pricing = (await admin.get('/admin/pricing')).json as {
      discounts: unknown[];
      extras: Record<string, unknown>[];
    };
    // The owner's extras as they are, and an early check-in for this house alone (others' cards are left as they were).
    const kept = pricing.extras.map(({ id, name, price, per, mandatory, cabinIds, kind, time }) => ({
      id,
      name,
      price,
      per,
      mandatory,
      cabinIds,
      kind,
      time,
    }));
    const early = { name: 'Ранний заезд с 10:00', price: 1500, per: 'stay', kind: 'earlyCheckIn', time: '10:00' };
    const saved = await admin.put('/admin/pricing', {
      discounts: pricing.discounts,
      extras: [...kept, { ...early, mandatory: false, cabinIds: [house.id] }],
    });
    expect(saved.status).toBe(200);
    const earlyId = (saved.json as { extras: { id: number; kind: string }[] }).extras.find(
      (e) => e.kind === 'earlyCheckIn',
    )!.id;
    // Far ahead, where no other journey books: the night before the first stay closed by hand.
    const [busyIn, freeIn] = [day(300), day(310)];
    const closed = await admin.post(`/admin/cabins/${house.id}/blocks`, {
      start: addDays(busyIn, -1),
      end: busyIn,
      note: 'Ремонт крыльца',
    });
    expect(closed.status).toBe(201);
    try {
      const offer = /^Ранний заезд с 10:00 — 1\s500\s₽ за проживание$/;
      const open = async (checkIn: string) => {
        const page = await openPage(
          `/cabin/${house.id}?checkIn=${checkIn}&checkOut=${addDays(checkIn, 3)}&guests=2`,
          'phone',
        );
        const booking = page.locator('#booking');
        // The card wakes as the visitor reaches it; the stay from the address is priced, its choices shown.
        await booking.scrollIntoViewIfNeeded();
        await visible(booking.locator('.booking__total'), 20_000);
        await visible(booking.getByLabel('Промокод', { exact: true }), 20_000);
        return booking;
      };
      const beside = await open(busyIn);
      await hidden(beside.getByRole('checkbox', { name: offer }));
      expect(await beside.getByRole('checkbox', { name: offer }).count()).toBe(0);

      const free = await open(freeIn);
      const box = free.getByRole('checkbox', { name: offer });
      await visible(box);
      const before = flat(await free.innerText());
      await box.check();
      // The card's total is the server's with the early check-in, its own line in the sum.
      const quote = await getJson<{ total: number; lines: PriceLine[] }>(
        baseURL,
        `/api/quote?cabinId=${house.id}&checkIn=${freeIn}&checkOut=${addDays(freeIn, 3)}&guests=2&extras=${earlyId}`,
      );
      expect(quote.lines.find((l) => l.kind === 'extra')).toMatchObject({
        kind: 'extra',
        label: early.name,
        amount: 1500,
      });
      await visible(free.getByText(flat(rub(quote.total)), { exact: false }));
      expect(before).not.toContain(flat(rub(quote.total)));
    } finally {
      await admin.del(`/admin/blocks/${(closed.json as { id: number }).id}`);
      expect((await admin.put('/admin/pricing', { discounts: pricing.discounts, extras: kept })).status).toBe(200);
    }
  });
});
