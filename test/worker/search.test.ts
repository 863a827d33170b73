import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import { linesOf, type SearchAnswerJson } from '../../schema/search.ts';
import { searchStays } from '../../worker/queries/search.ts';
import { expectError, jsonRequest, login, putSeasons, resetDataWithAdmin, seedCabin, send } from './helpers.ts';
import { block, booking, countingDb, feedEvent } from './stays.ts';

// GET /api/search (docs/api.md «Search, occupancy and health»), on both runtimes: a night is busy
// by a confirmed booking, a block or an imported event. The owner's chart: occupancy.test.ts.

const day = (n: number) => addDays(todayInMoscow(), n);

beforeEach(resetDataWithAdmin);
afterEach(() => {
  vi.useRealTimers();
});

const search = (checkIn: string, checkOut: string, guests: number | string = 2) =>
  send('GET', `/api/search?${new URLSearchParams({ checkIn, checkOut, guests: String(guests) })}`);

async function found(checkIn: string, checkOut: string, guests: number | string = 2): Promise<SearchAnswerJson> {
  const res = await search(checkIn, checkOut, guests);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as SearchAnswerJson;
}

const seasons = (cookie: string, cabinId: number, list: unknown[], minNights?: number) =>
  putSeasons(cookie, cabinId, { seasons: list, ...(minNights ? { minNights } : {}) });

describe('GET /api/search: every cabin free for the dates and guests', () => {
  it('should list the free cabins that take the guests, cheapest total first, priced season by season', async () => {
    const cookie = await login();
    const dear = await seedCabin({ name: 'Дорогой', pricePerNight: 9000, maxGuests: 4 });
    const cheap = await seedCabin({ name: 'Дешёвый', pricePerNight: 4000, maxGuests: 4 });
    const seasonal = await seedCabin({ name: 'Сезонный', pricePerNight: 5000, maxGuests: 6 });
    await seedCabin({ name: 'Маленький', pricePerNight: 1000, maxGuests: 2 });
    // Two nights at the base price, then one in a season at 8 000 ₽.
    expect(
      (await seasons(cookie, seasonal.id, [{ start: day(32), end: day(60), pricePerNight: 8000, minNights: 1 }]))
        .status,
    ).toBe(200);
    const answer = await found(day(30), day(33), 3);
    expect(answer).toMatchObject({ checkIn: day(30), checkOut: day(33), nights: 3, guests: 3, others: [] });
    expect(answer.results.map((r) => ({ ...r, lines: linesOf(answer, r) }))).toEqual([
      {
        id: cheap.id,
        name: 'Дешёвый',
        nights: 3,
        total: 12000,
        lineSet: expect.any(Number),
        pets: false,
        lines: [expect.objectContaining({ kind: 'nights', amount: 12000 })],
      },
      {
        id: seasonal.id,
        name: 'Сезонный',
        nights: 3,
        total: 2 * 5000 + 8000,
        lineSet: expect.any(Number),
        pets: false,
        lines: [expect.objectContaining({ amount: 10000 }), expect.objectContaining({ amount: 8000 })],
      },
      {
        id: dear.id,
        name: 'Дорогой',
        nights: 3,
        total: 27000,
        lineSet: expect.any(Number),
        pets: false,
        lines: [expect.objectContaining({ amount: 27000 })],
      },
    ]);
  });

  it('should write each distinct list of price lines once, named by index by every result priced alike', async () => {
    const first = await seedCabin({ name: 'Первый', pricePerNight: 4000 });
    const second = await seedCabin({ name: 'Второй', pricePerNight: 4000 });
    const dearer = await seedCabin({ name: 'Дороже', pricePerNight: 5000 });
    const answer = await found(day(30), day(33));
    const nights = (amount: number) => [expect.objectContaining({ kind: 'nights', amount })];
    expect(answer.lineSets).toEqual([nights(12000), nights(15000)]);
    expect(answer.results.map((r) => [r.id, r.lineSet])).toEqual([
      [first.id, 0],
      [second.id, 0],
      [dearer.id, 1],
    ]);
  });

  it('should leave out, with the reason, a cabin busy by a confirmed booking, a block or an imported event, but not by a request', async () => {
    const cookie = await login();
    const booked = await seedCabin({ name: 'Забронирован' });
    const blocked = await seedCabin({ name: 'Закрыт' });
    const imported = await seedCabin({ name: 'Из Суточно' });
    const requested = await seedCabin({ name: 'Только заявка' });
    await booking(cookie, booked.id, day(40), day(43));
    await block(cookie, blocked.id, day(41), day(42));
    await feedEvent(imported.id, day(42), day(45));
    await booking(cookie, requested.id, day(40), day(43), false);
    const answer = await found(day(40), day(43));
    expect(answer.results.map((r) => r.name)).toEqual(['Только заявка']);
    expect(answer.others.map((o) => [o.name, o.reason])).toEqual([
      ['Забронирован', 'busy'],
      ['Закрыт', 'busy'],
      ['Из Суточно', 'busy'],
    ]);
  });

  it('should offer a stay that ends the morning another begins, and one that begins the morning another ends', async () => {
    const cookie = await login();
    const cabin = await seedCabin();
    await booking(cookie, cabin.id, day(50), day(53));
    expect((await found(day(47), day(50))).results.map((r) => r.id)).toEqual([cabin.id]);
    expect((await found(day(53), day(56))).results.map((r) => r.id)).toEqual([cabin.id]);
    expect((await found(day(52), day(54))).results).toEqual([]);
  });

  it("should set apart a cabin whose minimum stay is longer, with the season's minimum", async () => {
    const cookie = await login();
    const cabin = await seedCabin({ name: 'От пяти ночей' });
    expect(
      (await seasons(cookie, cabin.id, [{ start: day(60), end: day(90), pricePerNight: 6000, minNights: 5 }])).status,
    ).toBe(200);
    const answer = await found(day(61), day(64));
    expect(answer.results).toEqual([]);
    // The nearest three nights that begin outside the season: a night at the base price, two in it.
    expect(answer.others).toEqual([
      {
        id: cabin.id,
        name: 'От пяти ночей',
        reason: 'minNights',
        minNights: 5,
        nearest: { checkIn: day(59), checkOut: day(62), total: 4500 + 2 * 6000 },
      },
    ]);
    // Outside the season the base minimum (1) applies.
    expect((await found(day(20), day(23))).results.map((r) => r.id)).toEqual([cabin.id]);
  });

  it('should give a busy cabin its nearest free stay of the same length within 7 days, an earlier day before a later one', async () => {
    const cookie = await login();
    const later = await seedCabin({ name: 'Позже', pricePerNight: 3000 });
    const either = await seedCabin({ name: 'Раньше или позже', pricePerNight: 3000 });
    const none = await seedCabin({ name: 'Всё занято', pricePerNight: 3000 });
    await booking(cookie, later.id, day(28), day(33));
    await block(cookie, either.id, day(31), day(32));
    await block(cookie, none.id, day(20), day(45));
    const answer = await found(day(30), day(33));
    const byName = Object.fromEntries(answer.others.map((o) => [o.name, o]));
    expect(byName['Позже']!.nearest).toEqual({ checkIn: day(33), checkOut: day(36), total: 9000 });
    // A day either side still covers the blocked night; two days either side are both free: earlier wins.
    expect(byName['Раньше или позже']!.nearest).toEqual({ checkIn: day(28), checkOut: day(31), total: 9000 });
    expect(byName['Всё занято']!.nearest).toBeUndefined();
    expect(byName['Всё занято']!.reason).toBe('busy');
  });

  it('should never offer a nearest stay that begins in the past (Moscow time)', async () => {
    const cookie = await login();
    const cabin = await seedCabin();
    await block(cookie, cabin.id, day(0), day(1));
    await block(cookie, cabin.id, day(3), day(9));
    // Today's night is blocked; the nearest two-night stay is yesterday (refused) … or day 1–3.
    const answer = await found(day(0), day(2));
    expect(answer.others[0]!.nearest).toEqual({ checkIn: day(1), checkOut: day(3), total: 2 * 4500 });
  });

  it('should take "today" in Moscow: at 23:30 UTC Moscow is already on the next day', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2027-03-10T23:30:00Z'));
    await seedCabin();
    await expectError(await search('2027-03-10', '2027-03-12'), 400, MSG.bookingCheckInPast);
    expect((await found('2027-03-11', '2027-03-12')).results).toHaveLength(1);
  });

  it('should drop a cabin made inactive or deleted at once, with no rebuild', async () => {
    const cookie = await login();
    const a = await seedCabin({ name: 'Скрытый' });
    const b = await seedCabin({ name: 'Удалённый' });
    expect((await found(day(10), day(12))).results).toHaveLength(2);
    expect((await jsonRequest('PUT', `/api/cabins/${a.id}`, { active: false }, { cookie })).status).toBe(200);
    expect((await send('DELETE', `/api/cabins/${b.id}`, { cookie })).status).toBe(200);
    // A fresh address skips nothing here: the answer is computed each time (the cache is the browser's).
    const answer = await found(day(10), day(12));
    expect(answer.results).toEqual([]);
    expect(answer.others).toEqual([]);
  });

  it('should be cacheable for a minute, as availability', async () => {
    await seedCabin();
    const res = await search(day(10), day(12));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
  });

  it.each([
    ['no dates', '', '', 2, MSG.searchCheckInRequired],
    ['not a date', 'завтра', day(3), 2, MSG.searchCheckInInvalid],
    ['a date that does not exist', '2027-02-29', '2027-03-02', 2, MSG.searchCheckInInvalid],
    ['a check-out that is not a date', day(3), '2027/03/05', 2, MSG.searchCheckOutInvalid],
    ['check-out before check-in', day(10), day(8), 2, MSG.searchCheckOutBeforeCheckIn],
    ['check-out on the check-in day', day(10), day(10), 2, MSG.searchCheckOutBeforeCheckIn],
    ['a check-in in the past', day(-1), day(2), 2, MSG.bookingCheckInPast],
    ['a check-in beyond 365 days', day(366), day(368), 2, MSG.searchCheckInTooFar],
    ['more than 60 nights', day(10), day(71), 2, MSG.searchTooLong],
    ['no guests', day(10), day(12), 0, MSG.searchGuestsInvalid],
    ['51 guests', day(10), day(12), 51, MSG.searchGuestsInvalid],
    ['a fraction of a guest', day(10), day(12), '1.5', MSG.searchGuestsInvalid],
    ['guests as a word', day(10), day(12), 'два', MSG.searchGuestsInvalid],
  ])('should refuse %s with a Russian 400', async (_, checkIn, checkOut, guests, message) => {
    await seedCabin();
    await expectError(await search(checkIn, checkOut, guests), 400, message);
  });

  it('should take exactly 365 days ahead, 60 nights and 50 guests', async () => {
    await seedCabin({ maxGuests: 50 });
    expect((await found(day(365), day(366), 50)).results).toHaveLength(1);
    expect((await found(day(10), day(70), 1)).nights).toBe(60);
  });

  it('should read with one query per kind of data, whatever the number of cabins, in one round trip (query level)', async () => {
    for (let i = 0; i < 30; i++) await seedCabin({ name: `Домик ${i}`, pricePerNight: 1000 + i });
    const counted = countingDb();
    const answer = await searchStays(counted.env, { checkIn: day(10), checkOut: day(12), guests: 2 });
    expect(answer.results).toHaveLength(30);
    expect(answer.results[0]!.name).toBe('Домик 0');
    // The data stamp; the cabins with their rates; the rest of the pricing rules
    // (schema/pricing.ts: minimum stays, discounts, extras, the settings' fee and tax, seasons,
    // single dates); the four sources of busy nights (stays here, blocks, feeds, Avito's bookings).
    expect(counted).toMatchObject({ roundTrips: 1, statements: 12 });
  });
});
