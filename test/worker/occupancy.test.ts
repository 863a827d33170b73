import type { InferResponseType } from 'hono/client';
import { beforeEach, describe, expect, it } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import { OCCUPANCY_MAX_DAYS } from '../../schema/search.ts';
import { occupancy as readOccupancy } from '../../worker/queries/occupancy.ts';
import { type Api, expectError, jsonRequest, login, resetDataWithAdmin, seedCabin, send } from './helpers.ts';
import { block, booking, countingDb, feedEvent } from './stays.ts';

// The owner's GET /api/admin/occupancy (docs/api.md «Search, occupancy and health»), on both
// runtimes: every cabin against the days, each range marked by what holds it.

const day = (n: number) => addDays(todayInMoscow(), n);
/** What the route answers, as the typed client knows it. */
type Occupancy = InferResponseType<Api['admin']['occupancy']['$get'], 200>;

beforeEach(resetDataWithAdmin);

describe('GET /api/admin/occupancy: the owner’s «Шахматка»', () => {
  const occupancy = (cookie: string, query = '') => send('GET', `/api/admin/occupancy${query}`, { cookie });

  it('should give every cabin, inactive too, with each range marked by what holds it and clipped to the window', async () => {
    const cookie = await login();
    const a = await seedCabin({ name: 'Первый' });
    const b = await seedCabin({ name: 'Второй', active: false });
    const stay = await booking(cookie, a.id, day(0), day(2), true, 'Ольга');
    const request = await booking(cookie, a.id, day(5), day(8), false, 'Пётр');
    const blockId = await block(cookie, b.id, day(10), day(40), 'Покраска');
    await feedEvent(a.id, day(12), day(14), 'Авито');
    const res = await occupancy(cookie, `?from=${day(1)}&days=20`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const answer = (await res.json()) as Occupancy;
    expect(answer).toEqual({
      from: day(1),
      days: 20,
      cabins: [
        {
          id: a.id,
          name: 'Первый',
          active: true,
          ranges: [
            { start: day(1), end: day(2), kind: 'booking', label: 'Ольга', bookingId: stay },
            { start: day(5), end: day(8), kind: 'request', label: 'Пётр', bookingId: request },
            { start: day(12), end: day(14), kind: 'feed', label: 'Авито' },
          ],
          // Ольга leaves on day 2: the cabin waits for its cleaning that day (a request's departure does not count).
          cleaning: [day(2)],
        },
        {
          id: b.id,
          name: 'Второй',
          active: false,
          ranges: [{ start: day(10), end: day(21), kind: 'block', label: 'Покраска', blockId }],
          cleaning: [],
        },
      ],
    });
  });

  it('should start today in Moscow with 31 days by default, and leave out declined requests', async () => {
    const cookie = await login();
    const cabin = await seedCabin();
    const declined = await booking(cookie, cabin.id, day(3), day(5), false);
    expect(
      (await jsonRequest('PUT', `/api/admin/bookings/${declined}`, { status: 'declined' }, { cookie })).status,
    ).toBe(200);
    const answer = (await (await occupancy(cookie)).json()) as Occupancy;
    expect(answer).toMatchObject({ from: day(0), days: 31 });
    expect(answer.cabins[0]!.ranges).toEqual([]);
  });

  it("should clip a stay running off the window's end, and take one day or 92", async () => {
    const cookie = await login();
    const cabin = await seedCabin();
    const stay = await booking(cookie, cabin.id, day(4), day(9), true, 'Ольга');
    const one = (await (await occupancy(cookie, `?from=${day(5)}&days=1`)).json()) as Occupancy;
    expect(one.cabins[0]!.ranges).toEqual([
      { start: day(5), end: day(6), kind: 'booking', label: 'Ольга', bookingId: stay },
    ]);
    const most = await occupancy(cookie, `?from=${day(0)}&days=${OCCUPANCY_MAX_DAYS}`);
    expect(most.status).toBe(200);
    expect(((await most.json()) as Occupancy).days).toBe(92);
    // A window that ends the morning the stay begins holds none of its nights.
    const before = (await (await occupancy(cookie, `?from=${day(0)}&days=4`)).json()) as Occupancy;
    expect(before.cabins[0]!.ranges).toEqual([]);
  });

  it('should read with one query per kind of data, whatever the number of cabins, in one round trip (query level)', async () => {
    for (let i = 0; i < 30; i++) await seedCabin({ name: `Домик ${i}` });
    const counted = countingDb();
    const answer = await readOccupancy(counted.env, day(0), 31);
    expect(answer.cabins).toHaveLength(30);
    // The data stamp, the cabins, the new requests, the cleanings and the four sources of busy nights (stays here, blocks, feeds, Avito's bookings).
    expect(counted).toMatchObject({ roundTrips: 1, statements: 8 });
  });

  it.each([
    ['a start that is not a date', '?from=2027-13-01', MSG.occupancyFromInvalid],
    ['no days', '?days=0', MSG.occupancyDaysInvalid],
    ['93 days', '?days=93', MSG.occupancyDaysInvalid],
    ['days as a word', '?days=месяц', MSG.occupancyDaysInvalid],
  ])('should refuse %s with a Russian 400 that names the parameter', async (_, query, message) => {
    await expectError(await occupancy(await login(), query), 400, message);
  });

  it('should refuse a visitor with 401', async () => {
    await expectError(await send('GET', '/api/admin/occupancy'), 401, MSG.unauthorized);
  });
});
