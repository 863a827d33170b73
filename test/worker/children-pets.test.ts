import type { InferResponseType } from 'hono/client';
import { beforeEach, describe, expect, it } from 'vitest';
import { addDays, isoWeekday, todayInMoscow } from '../../schema/dates.ts';
import { GUEST_PAGE_MARKER } from '../../schema/guest-page.ts';
import { MSG } from '../../schema/messages.ts';
import { CLOSED_MESSAGES } from '../../schema/pricing.ts';
import { SEARCH_MARKERS } from '../../schema/search-page.ts';
import {
  answerOf,
  callWith,
  client,
  expectError,
  expectNoChange,
  jsonOf,
  jsonRequest,
  login,
  putSeasons,
  resetDataWithAdmin,
  seedCabin,
  send,
  validBooking,
  type Api,
  type Booked,
} from './helpers.ts';

// The owner's price rules for families and their days (docs/api.md «Pricing»), on both runtimes:
// children by age and pets on the cabin, closed weekdays and the longest stay on a season, through
// the quote, search and POST /api/bookings, and what the owner and the guest then read.

beforeEach(resetDataWithAdmin);

const day = (n: number) => addDays(todayInMoscow(), n);
type QuoteAnswer = InferResponseType<Api['quote']['$get'], 200>;

const quote = (q: Record<string, string | number>) =>
  send('GET', `/api/quote?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`);
async function okQuote(q: Record<string, string | number>): Promise<QuoteAnswer> {
  const res = await quote(q);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as QuoteAnswer;
}
async function search(query: Record<string, string>) {
  return answerOf(await client().api.search.$get({ query: query as never }), 200);
}

/**
 * The family house of the issue: 5 000 ₽ a night for 2, each further guest 1 000 ₽ a night;
 * children under 5 free, under 12 at half that; pets for 700 ₽ a night.
 */
async function familyHouse(cookie: string, over: Record<string, unknown> = {}) {
  const cabin = await seedCabin({ name: 'Семейный', pricePerNight: 5000, maxGuests: 5 });
  const res = await jsonRequest(
    'PUT',
    `/api/cabins/${cabin.id}`,
    {
      baseGuests: 2,
      extraGuestPerNight: 1000,
      children: { freeUnderAge: 5, sharePercentUntilAge: 12, sharePercent: 50 },
      pets: { allowed: true, fee: 700, per: 'night' },
      ...over,
    },
    { cookie },
  );
  expect(res.status, await res.clone().text()).toBe(200);
  return cabin;
}

describe('children and pets: one price in the quote, search and the booking', () => {
  it('should price 2 adults with children of 3 and 9 as the card, search and the stored booking show it', async () => {
    const cookie = await login();
    const cabin = await familyHouse(cookie);
    const checkIn = day(40);
    const checkOut = addDays(checkIn, 3);
    const q = await okQuote({ cabinId: cabin.id, checkIn, checkOut, guests: 2, childrenAges: '3,9' });
    expect(q.lines.map((l) => [l.kind, l.amount])).toEqual([
      ['nights', 15000],
      ['children', 0],
      ['children', 1 * 500 * 3],
    ]);
    expect(q.lines[1]!.label).toBe('Дети до 5\u00a0лет: 1');
    expect(q.lines[2]!.label).toBe('Дети до 12\u00a0лет: 1 × 500\u00a0₽ × 3\u00a0ночи');
    expect(q.total).toBe(16500);
    // A child of 12 counts as an adult: the third guest beyond the 2 the price includes.
    const older = await okQuote({ cabinId: cabin.id, checkIn, checkOut, guests: 2, childrenAges: '12' });
    expect(older.total).toBe(15000 + 1000 * 3);
    expect(older.total).toBe((await okQuote({ cabinId: cabin.id, checkIn, checkOut, guests: 3 })).total);

    const found = await search({ checkIn, checkOut, guests: '2', childrenAges: '3,9' });
    expect(found).toMatchObject({ guests: 2, childrenAges: [3, 9], pets: false });
    const result = found.results.find((r) => r.id === cabin.id)!;
    expect(result).toMatchObject({ total: q.total, pets: true });
    expect(found.lineSets[result.lineSet]).toEqual(q.lines);

    const booked = await jsonRequest(
      'POST',
      '/api/bookings',
      validBooking(cabin.id, { checkIn, checkOut, guests: 2, childrenAges: [3, 9], pets: true }),
    );
    const answer = await jsonOf<Booked>(booked, 201);
    // Pets pay by the night: 700 ₽ × 3.
    expect(answer.total).toBe(q.total + 2100);
    expect(answer.lines.at(-1)).toEqual({ kind: 'pets', label: 'Проживание с животными × 3\u00a0ночи', amount: 2100 });
    expect(answer.total).toBe(
      (await okQuote({ cabinId: cabin.id, checkIn, checkOut, guests: 2, childrenAges: '3,9', pets: 1 })).total,
    );

    // The owner's «Заявки» and the guest's page say who comes.
    const list = await answerOf(await client({ cookie }).api.admin.bookings.$get({ query: {} }), 200);
    expect(list.find((b) => b.id === answer.id)).toMatchObject({ guests: 2, childrenAges: [3, 9], pets: true });
    const page = await jsonOf(await send('GET', `/api/guest/${answer.guestUrl.slice(3)}`), 200);
    expect(page).toMatchObject({ guests: 2, childrenAges: [3, 9], pets: true, total: answer.total });
    // The page's first HTML (a shell as small as the server's filling needs: the node-api project has no built site).
    const shell = `<!doctype html><main>${GUEST_PAGE_MARKER}</main>`;
    const assets = { fetch: async () => new Response(shell) } as unknown as Fetcher;
    const html = await (await callWith({ ASSETS: assets })('GET', answer.guestUrl)).text();
    expect(html).toContain('2\u00a0гостя, 2\u00a0ребёнка (возраст: 3, 9), с животными');
  });

  it('should count children toward the cabin’s guests: too many is refused everywhere, and search leaves the cabin out', async () => {
    const cookie = await login();
    const cabin = await familyHouse(cookie);
    const checkIn = day(30);
    const checkOut = addDays(checkIn, 2);
    await expectError(
      await quote({ cabinId: cabin.id, checkIn, checkOut, guests: 3, childrenAges: '1,5,10' }),
      400,
      MSG.bookingTooManyGuests,
    );
    await okQuote({ cabinId: cabin.id, checkIn, checkOut, guests: 3, childrenAges: '1,5' });
    const found = await search({ checkIn, checkOut, guests: '3', childrenAges: '1,5,10' });
    expect(found.results.map((r) => r.id)).not.toContain(cabin.id);
    expect(found.others.map((o) => o.id)).not.toContain(cabin.id);
    await expectNoChange(async () =>
      expectError(
        await jsonRequest(
          'POST',
          '/api/bookings',
          validBooking(cabin.id, { checkIn, checkOut, guests: 2, childrenAges: [1, 2, 3, 4] }),
        ),
        400,
        MSG.bookingTooManyGuests,
      ),
    );
  });

  it('should refuse pets where the cabin takes none, and leave it out of a search with pets', async () => {
    const cookie = await login();
    const family = await familyHouse(cookie);
    const strict = await seedCabin({ name: 'Без животных', pricePerNight: 4000, maxGuests: 4 });
    const checkIn = day(20);
    const checkOut = addDays(checkIn, 2);
    await expectError(
      await quote({ cabinId: strict.id, checkIn, checkOut, guests: 2, pets: 1 }),
      400,
      MSG.petsNotAllowed,
    );
    await expectNoChange(async () =>
      expectError(
        await jsonRequest('POST', '/api/bookings', validBooking(strict.id, { checkIn, checkOut, pets: true })),
        400,
        MSG.petsNotAllowed,
      ),
    );
    const all = await search({ checkIn, checkOut, guests: '2' });
    expect(all.results.map((r) => [r.id, r.pets])).toEqual(
      expect.arrayContaining([
        [family.id, true],
        [strict.id, false],
      ]),
    );
    const withPets = await search({ checkIn, checkOut, guests: '2', pets: '1' });
    expect(withPets.results.map((r) => r.id)).toEqual([family.id]);
    // Pets by the stay: one fee, whatever the nights.
    await jsonRequest(
      'PUT',
      `/api/cabins/${family.id}`,
      { pets: { allowed: true, fee: 1000, per: 'stay' } },
      { cookie },
    );
    const q = await okQuote({ cabinId: family.id, checkIn, checkOut: addDays(checkIn, 5), guests: 2, pets: 'true' });
    expect(q.lines.filter((l) => l.kind === 'pets')).toEqual([
      { kind: 'pets', label: 'Проживание с животными', amount: 1000 },
    ]);
  });

  it('should answer a bad age, a bad pets flag and bad rules with 400 and a Russian {error}, changing nothing', async () => {
    const cookie = await login();
    const cabin = await familyHouse(cookie);
    const checkIn = day(20);
    const checkOut = addDays(checkIn, 2);
    for (const childrenAges of ['18', 'три', '3,,9', '-1', '3;9'])
      await expectError(
        await quote({ cabinId: cabin.id, checkIn, checkOut, guests: 2, childrenAges }),
        400,
        MSG.childrenAgesInvalid,
      );
    await expectError(
      await quote({ cabinId: cabin.id, checkIn, checkOut, guests: 2, pets: 'да' }),
      400,
      MSG.petsInvalid,
    );
    await expectError(
      await send('GET', `/api/search?checkIn=${checkIn}&checkOut=${checkOut}&guests=2&childrenAges=20`),
      400,
      MSG.childrenAgesInvalid,
    );
    await expectNoChange(async () => {
      for (const childrenAges of [[18], [2.5], ['3'], '3,9'])
        await expectError(
          await jsonRequest('POST', '/api/bookings', validBooking(cabin.id, { checkIn, checkOut, childrenAges })),
          400,
          MSG.childrenAgesInvalid,
        );
      await expectError(
        await jsonRequest('POST', '/api/bookings', validBooking(cabin.id, { checkIn, checkOut, pets: 'yes' })),
        400,
        MSG.petsInvalid,
      );
      for (const [body, message] of [
        [{ children: { freeUnderAge: 19, sharePercentUntilAge: 0, sharePercent: 0 } }, MSG.childrenAgeRuleInvalid],
        [{ children: { freeUnderAge: 0, sharePercentUntilAge: 12, sharePercent: 101 } }, MSG.childrenShareInvalid],
        [{ pets: { allowed: true, fee: -1, per: 'stay' } }, MSG.petsFeeInvalid],
        [{ pets: { allowed: true, fee: 100, per: 'week' } }, MSG.petsPerInvalid],
      ] as const)
        await expectError(await jsonRequest('PUT', `/api/cabins/${cabin.id}`, body, { cookie }), 400, message);
    });
  });

  it('should tell the booking card the cabin’s children and pets rules', async () => {
    const cookie = await login();
    const cabin = await familyHouse(cookie);
    const free = await jsonOf(await send('GET', `/api/cabins/${cabin.id}/availability`), 200);
    expect(free).toMatchObject({
      children: { freeUnderAge: 5, sharePercentUntilAge: 12, sharePercent: 50 },
      pets: { allowed: true, fee: 700, per: 'night' },
    });
    // A new cabin prices every child as an adult and takes no pets.
    const plain = await seedCabin({ name: 'Обычный' });
    expect(await jsonOf(await send('GET', `/api/cabins/${plain.id}/availability`), 200)).toMatchObject({
      children: { freeUnderAge: 0, sharePercentUntilAge: 0, sharePercent: 0 },
      pets: { allowed: false, fee: 0 },
    });
  });
});

describe('the /search page with children and pets', () => {
  // The build's shell, as small as the server's filling needs (the node-api project has no built site).
  const M = SEARCH_MARKERS;
  const shell = `<!doctype html><title>${M.title}</title><form><input name="guests" value="${M.guests}"><input name="childrenAges" value="${M.childrenAges}"><input type="checkbox" name="pets" value="1" ${M.pets}></form>${M.error}${M.results}`;
  const assets = {
    fetch: async (input: URL | string | Request) =>
      new URL(input instanceof Request ? input.url : input).pathname === '/shell/search'
        ? new Response(shell)
        : new Response('Not found', { status: 404 }),
  } as unknown as Fetcher;
  const page = async (query: string) => {
    const res = await callWith({ ASSETS: assets })('GET', `/search?${query}`);
    return { status: res.status, html: await res.text() };
  };

  it('should keep the children’s ages and pets in the form, price the family, say «можно с животными» and link the card with them', async () => {
    const cookie = await login();
    const cabin = await familyHouse(cookie);
    const checkIn = day(40);
    const checkOut = addDays(checkIn, 3);
    const { status, html } = await page(
      `checkIn=${checkIn}&checkOut=${checkOut}&guests=2&childrenAges=${encodeURIComponent('3, 9')}&pets=1`,
    );
    expect(status).toBe(200);
    expect(html).toContain('name="childrenAges" value="3, 9"');
    expect(html).toContain('name="pets" value="1" checked');
    expect(html).toContain('2\u00a0гостя, 2\u00a0ребёнка (возраст: 3, 9), с животными');
    expect(html).toContain('можно с животными');
    // With pets by the night: 16 500 ₽ for the family and 2 100 ₽ for the pets.
    expect(html).toContain('18\u00a0600\u00a0₽');
    expect(html).toContain(
      `/cabin/${cabin.id}?checkIn=${checkIn}&#38;checkOut=${checkOut}&#38;guests=2&#38;childrenAges=3%2C9&#38;pets=1#booking`,
    );
    const bad = await page(`checkIn=${checkIn}&checkOut=${checkOut}&guests=2&childrenAges=42&pets=1`);
    expect(bad.status).toBe(400);
    expect(bad.html).toContain(MSG.childrenAgesInvalid);
    expect(bad.html).toContain('name="childrenAges" value="42"');
    expect(bad.html).toContain('name="pets" value="1" checked');
  });
});

describe('a season’s days: closed to arrival or departure, and the longest stay', () => {
  /** A season over the next 60 days closing the weekday of `arrival` to arrivals, and that of `departure` to departures. */
  async function closedSeason(cookie: string, cabinId: number, rule: Record<string, unknown>) {
    const res = await putSeasons(cookie, cabinId, {
      seasons: [{ start: day(1), end: day(60), pricePerNight: 6000, minNights: 1, ...rule }],
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return res;
  }

  it('should refuse a stay arriving on a closed weekday in the quote, search and booking, and take the next day', async () => {
    const cookie = await login();
    const cabin = await seedCabin({ name: 'С правилами', pricePerNight: 4000, maxGuests: 4 });
    const checkIn = day(10);
    const checkOut = addDays(checkIn, 3);
    await closedSeason(cookie, cabin.id, { closedToArrival: [isoWeekday(checkIn)] });
    await expectError(await quote({ cabinId: cabin.id, checkIn, checkOut, guests: 2 }), 400, CLOSED_MESSAGES.arrival);
    await expectNoChange(async () =>
      expectError(
        await jsonRequest('POST', '/api/bookings', validBooking(cabin.id, { checkIn, checkOut })),
        400,
        CLOSED_MESSAGES.arrival,
      ),
    );
    const found = await search({ checkIn, checkOut, guests: '2' });
    expect(found.results.map((r) => r.id)).not.toContain(cabin.id);
    const other = found.others.find((o) => o.id === cabin.id)!;
    expect(other.reason).toBe('closed');
    expect(other.nearest && isoWeekday(other.nearest.checkIn)).not.toBe(isoWeekday(checkIn));
    await okQuote({ cabinId: cabin.id, checkIn: addDays(checkIn, 1), checkOut: addDays(checkOut, 1), guests: 2 });
    // The card reads the rule to grey the day out.
    expect(await jsonOf(await send('GET', `/api/cabins/${cabin.id}/availability`), 200)).toMatchObject({
      seasons: [{ closedToArrival: [isoWeekday(checkIn)], closedToDeparture: [], maxNights: null }],
    });
  });

  it('should refuse a stay leaving on a closed weekday, and one longer than the season allows', async () => {
    const cookie = await login();
    const cabin = await seedCabin({ name: 'С правилами', pricePerNight: 4000, maxGuests: 4 });
    const checkIn = day(10);
    const checkOut = addDays(checkIn, 3);
    await closedSeason(cookie, cabin.id, { closedToDeparture: [isoWeekday(checkOut)], maxNights: 5, minNights: 2 });
    await expectError(await quote({ cabinId: cabin.id, checkIn, checkOut, guests: 2 }), 400, CLOSED_MESSAGES.departure);
    await okQuote({ cabinId: cabin.id, checkIn, checkOut: addDays(checkOut, 1), guests: 2 });
    await expectError(
      await quote({ cabinId: cabin.id, checkIn, checkOut: addDays(checkIn, 6), guests: 2 }),
      400,
      CLOSED_MESSAGES.maxNights,
    );
    expect((await okQuote({ cabinId: cabin.id, checkIn, checkOut: addDays(checkIn, 5), guests: 2 })).maxNights).toBe(5);
    await expectNoChange(async () =>
      expectError(
        await jsonRequest('POST', '/api/bookings', validBooking(cabin.id, { checkIn, checkOut: addDays(checkIn, 6) })),
        400,
        CLOSED_MESSAGES.maxNights,
      ),
    );
    const found = await search({ checkIn, checkOut: addDays(checkIn, 6), guests: '2' });
    expect(found.others.find((o) => o.id === cabin.id)?.reason).toBe('closed');
    const booked = await jsonRequest(
      'POST',
      '/api/bookings',
      validBooking(cabin.id, { checkIn, checkOut: addDays(checkIn, 5) }),
    );
    expect(booked.status, await booked.clone().text()).toBe(201);
  });

  it('should refuse a bad rule of days in the seasons form with 400 and a Russian {error}', async () => {
    const cookie = await login();
    const cabin = await seedCabin({ name: 'С правилами' });
    await expectNoChange(async () => {
      for (const [rule, message] of [
        [{ closedToArrival: [0] }, MSG.closedDaysInvalid],
        [{ closedToDeparture: [8] }, MSG.closedDaysInvalid],
        [{ closedToArrival: [1, 1] }, MSG.closedDaysInvalid],
        [{ maxNights: 0 }, MSG.maxNightsInvalid],
        [{ maxNights: 2, minNights: 3 }, MSG.maxNightsInvalid],
      ] as const) {
        const res = await putSeasons(cookie, cabin.id, {
          seasons: [{ start: day(1), end: day(30), pricePerNight: 5000, minNights: 1, ...rule }],
        });
        const { error } = await expectError(res, 400);
        expect(error).toContain(message);
      }
    });
  });
});
